#include "frame_checks.hpp"

#include <algorithm>

namespace vg::io::detail {

namespace {
std::string text_of(const GstCaps* caps) {
  gchar* text = gst_caps_to_string(caps);
  std::string result = text ? text : "";
  g_free(text);
  return result;
}
}  // namespace

std::string unreadable_memory(const GstCaps* caps) {
  if (caps == nullptr || gst_caps_get_size(caps) == 0) return {};
  const GstCapsFeatures* features = gst_caps_get_features(caps, 0);
  if (features == nullptr || gst_caps_features_is_any(features)) return {};
  for (guint i = 0; i < gst_caps_features_get_size(features); ++i) {
    const std::string feature = gst_caps_features_get_nth(features, i);
    if (feature == GST_CAPS_FEATURE_MEMORY_SYSTEM_MEMORY || feature == "memory:DMABuf" ||
        feature == "meta:GstVideoMeta")
      continue;
    std::string advice = "convert to system memory before the appsink, e.g. 'videoconvert ! video/x-raw,format=BGR'";
    if (feature == "memory:NVMM")
      advice = "put 'nvvideoconvert ! video/x-raw,format=BGRx ! videoconvert ! video/x-raw,format=BGR' (or nvvidconv on "
               "Jetson) before the appsink";
    return "its frames are in " + feature + " memory, which the CPU cannot read (caps " + text_of(caps) + "); " + advice;
  }
  return {};
}

std::size_t bytes_needed(const GstVideoInfo& info, ImageFormat format, const ExternalBuffer& memory) {
  const std::size_t width = static_cast<std::size_t>(GST_VIDEO_INFO_WIDTH(&info));
  const std::size_t height = static_cast<std::size_t>(GST_VIDEO_INFO_HEIGHT(&info));
  if (width == 0 || height == 0) return 0;
  std::size_t needed = 0;
  for (std::uint32_t p = 0; p < memory.num_planes; ++p) {
    std::size_t rows = height, row_bytes = width;
    switch (format) {
      case ImageFormat::bgr24:
      case ImageFormat::rgb24: row_bytes = width * 3; break;
      case ImageFormat::gray8: break;
      case ImageFormat::nv12:
        if (p == 1) {
          rows = (height + 1) / 2;
          row_bytes = (width + 1) / 2 * 2;
        }
        break;
    }
    needed = std::max(needed, memory.offset[p] + memory.stride[p] * (rows - 1) + row_bytes);
  }
  return needed;
}

}  // namespace vg::io::detail
