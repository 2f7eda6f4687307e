#include "visiongraph/io/gstreamer_elements.hpp"

#include <gst/gst.h>

#include "gst_init.hpp"

#include "h264_encoding.hpp"

namespace vg::io {

namespace {

struct Known {
  const char* element;
  const char* package;
  const char* used_for;
  bool optional = false;
};

// What the sources (source.cpp), the video writer and the RTSP output build, and the decoders the
// sample media need. The packages are Debian 12's.
constexpr Known kKnown[] = {
    {"uridecodebin", "gstreamer1.0-plugins-base", "video files and rtsp:// / http(s):// inputs"},
    {"videoconvert", "gstreamer1.0-plugins-base", "converting frames to the graph's pixel format"},
    {"videoscale", "gstreamer1.0-plugins-base", "resizing frames to the graph's input size"},
    {"appsink", "gstreamer1.0-plugins-base", "handing frames to the graph"},
    {"appsrc", "gstreamer1.0-plugins-base", "annotated.mp4 and --serve-rtsp"},
    {"rtspsrc", "gstreamer1.0-plugins-good", "rtsp:// inputs"},
    {"souphttpsrc", "gstreamer1.0-plugins-good", "http(s):// inputs"},
    {"v4l2src", "gstreamer1.0-plugins-good", "/dev/videoN cameras"},
    {"avidemux", "gstreamer1.0-plugins-good", ".avi files (the sample video)"},
    {"qtdemux", "gstreamer1.0-plugins-good", ".mp4 / .mov files"},
    {"avdec_h264", "gstreamer1.0-libav", "decoding H.264 (files, cameras, RTSP)"},
    {"avdec_mpeg4", "gstreamer1.0-libav", "decoding MPEG-4 part 2 (the sample video)"},
    {"x264enc", "gstreamer1.0-plugins-ugly", "annotated.mp4 and --serve-rtsp (H.264 encoder, software)"},
    {"mpph264enc", "the Rockchip MPP GStreamer plugin (gstreamer-rockchip)",
     "annotated.mp4 and --serve-rtsp on a Rockchip SoC (hardware H.264 encoder, preferred when present)", true},
    {"v4l2h264enc", "gstreamer1.0-plugins-good (with a V4L2 encoder device)",
     "annotated.mp4 and --serve-rtsp (hardware H.264 encoder, preferred when present)", true},
    {"h264parse", "gstreamer1.0-plugins-bad", "annotated.mp4"},
    {"mp4mux", "gstreamer1.0-plugins-good", "annotated.mp4"},
    {"videocrop", "gstreamer1.0-plugins-good", "annotated video of odd sizes"},
    {"rtph264pay", "gstreamer1.0-plugins-good", "--serve-rtsp"},
};

}  // namespace

std::vector<GstElementCheck> check_gstreamer_elements() {
  detail::ensure_gstreamer();
  std::vector<GstElementCheck> out;
  for (const Known& k : kKnown) {
    GstElementFactory* factory = gst_element_factory_find(k.element);
    out.push_back({k.element, k.package, k.used_for, factory != nullptr, k.optional});
    if (factory != nullptr) gst_object_unref(factory);
  }
  return out;
}

std::string_view gstreamer_package_of(std::string_view element) noexcept {
  for (const Known& k : kKnown)
    if (element == k.element) return k.package;
  return {};
}

std::string h264_encoder_choice() {
  detail::ensure_gstreamer();
  try {
    return detail::choose_h264_encoder("auto", "H.264 encoder");
  } catch (const std::exception&) {
    return {};
  }
}

std::string gstreamer_version() {
  detail::ensure_gstreamer();
  gchar* text = gst_version_string();
  std::string out = text != nullptr ? text : "GStreamer (unknown version)";
  g_free(text);
  return out;
}

}  // namespace vg::io
