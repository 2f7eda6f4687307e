#include "h264_encoding.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>

#include "visiongraph/core/error.hpp"

namespace vg::io::detail {

namespace {

constexpr std::size_t kCacheLine = 64;
// Larger frames are surely a mistake (and their ring would not fit in memory anyway).
constexpr std::uint32_t kMaxSide = 16384;

GstVideoFormat gst_format(ImageFormat format) noexcept {
  switch (format) {
    case ImageFormat::bgr24: return GST_VIDEO_FORMAT_BGR;
    case ImageFormat::rgb24: return GST_VIDEO_FORMAT_RGB;
    case ImageFormat::gray8: return GST_VIDEO_FORMAT_GRAY8;
    case ImageFormat::nv12: return GST_VIDEO_FORMAT_NV12;
  }
  return GST_VIDEO_FORMAT_UNKNOWN;
}

// The first line of a debug string that says something: GStreamer's debug info usually starts with a
// "file.c(123): function (): /element/path:" location line and continues with the detail.
std::string debug_detail(const gchar* text) {
  if (text == nullptr) return {};
  const std::string all(text);
  const std::size_t end_of_first = all.find('\n');
  const std::string first = all.substr(0, end_of_first);
  const bool location_only = !first.empty() && first.back() == ':' && first.find("): ") != std::string::npos;
  if (!location_only) return first;
  if (end_of_first == std::string::npos) return {};
  const std::string rest = all.substr(end_of_first + 1);
  return rest.substr(0, rest.find('\n'));
}

// GStreamer takes GRAY8 as a bare luma plane and copies it into I420 unchanged, so full-range gray (0
// black, 255 white, as an image has it) would be shown with video-range levels (16 black, 235 white):
// too dark and too bright. The copy maps it to video range instead.
struct GrayToVideoRange {
  std::uint8_t table[256];
  constexpr GrayToVideoRange() : table() {
    for (int v = 0; v < 256; ++v) table[v] = static_cast<std::uint8_t>(16 + (v * 219 + 127) / 255);
  }
};
constexpr GrayToVideoRange kGrayToVideoRange;

}  // namespace

const char* gst_format_name(ImageFormat format) noexcept {
  return gst_video_format_to_string(gst_format(format));
}

GstVideoInfo raw_video_layout(const std::string& what, std::uint32_t width, std::uint32_t height, double fps,
                              ImageFormat format) {
  if (width == 0 || height == 0 || width > kMaxSide || height > kMaxSide)
    throw Error(what + ": frame size " + std::to_string(width) + "x" + std::to_string(height) +
                " is out of range (1.." + std::to_string(kMaxSide) + " per side)");
  if (!std::isfinite(fps) || fps <= 0 || fps > 1000)
    throw Error(what + ": frame rate " + std::to_string(fps) + " is out of range (0 < fps <= 1000)");
  const GstVideoFormat gst = gst_format(format);
  if (gst == GST_VIDEO_FORMAT_UNKNOWN) throw Error(what + ": unsupported image format");
  if (format == ImageFormat::nv12 && (width % 2 != 0 || height % 2 != 0))
    throw Error(what + ": NV12 frames need an even width and height, got " + std::to_string(width) + "x" +
                std::to_string(height));
  GstVideoInfo layout;
  gst_video_info_init(&layout);
  if (!gst_video_info_set_format(&layout, gst, width, height))
    throw Error(what + ": GStreamer cannot describe " + std::to_string(width) + "x" + std::to_string(height) + " " +
                gst_format_name(format) + " frames");
  gint fps_n = 0;
  gint fps_d = 1;
  gst_util_double_to_fraction(fps, &fps_n, &fps_d);
  GST_VIDEO_INFO_FPS_N(&layout) = fps_n;
  GST_VIDEO_INFO_FPS_D(&layout) = fps_d;
  return layout;
}

std::size_t packed_row_bytes(const GstVideoInfo& layout) noexcept {
  const GstVideoFormatInfo* format = layout.finfo;
  return static_cast<std::size_t>(GST_VIDEO_INFO_WIDTH(&layout)) *
         static_cast<std::size_t>(GST_VIDEO_FORMAT_INFO_PSTRIDE(format, 0));
}

void copy_frame(const GstVideoInfo& layout, const std::uint8_t* data, std::size_t stride,
                std::uint8_t* destination) noexcept {
  const std::size_t height = GST_VIDEO_INFO_HEIGHT(&layout);
  const std::size_t row_bytes = packed_row_bytes(layout);
  const std::uint8_t* source_plane = data;
  for (guint plane = 0; plane < GST_VIDEO_INFO_N_PLANES(&layout); ++plane) {
    // NV12's UV plane has half the rows and the same row length in bytes as its Y plane.
    const std::size_t rows = plane == 0 ? height : (height + 1) / 2;
    const std::size_t out_stride = static_cast<std::size_t>(GST_VIDEO_INFO_PLANE_STRIDE(&layout, plane));
    std::uint8_t* out = destination + GST_VIDEO_INFO_PLANE_OFFSET(&layout, plane);
    if (GST_VIDEO_INFO_FORMAT(&layout) == GST_VIDEO_FORMAT_GRAY8) {
      for (std::size_t y = 0; y < rows; ++y) {
        const std::uint8_t* in_row = source_plane + y * stride;
        std::uint8_t* out_row = out + y * out_stride;
        for (std::size_t x = 0; x < row_bytes; ++x) out_row[x] = kGrayToVideoRange.table[in_row[x]];
      }
    } else if (stride == out_stride) {
      std::memcpy(out, source_plane, out_stride * (rows - 1) + row_bytes);
    } else {
      for (std::size_t y = 0; y < rows; ++y) std::memcpy(out + y * out_stride, source_plane + y * stride, row_bytes);
    }
    source_plane += stride * rows;
  }
}

GstCaps* raw_video_caps(const GstVideoInfo& layout) { return gst_video_info_to_caps(&layout); }

std::string encoder_input_caps(const GstVideoInfo& layout) {
  constexpr gint kHighDefinitionLines = 720;
  return std::string("video/x-raw,format=I420,colorimetry=") +
         (GST_VIDEO_INFO_HEIGHT(&layout) >= kHighDefinitionLines ? "bt709" : "bt601");
}

void configure_x264(GstElement* x264enc, const H264Options& options, double fps, const std::string& what) {
  gst_util_set_object_arg(G_OBJECT(x264enc), "tune", "zerolatency");
  GParamSpec* preset_spec = g_object_class_find_property(G_OBJECT_GET_CLASS(x264enc), "speed-preset");
  GEnumClass* presets = preset_spec ? G_PARAM_SPEC_ENUM(preset_spec)->enum_class : nullptr;
  if (presets == nullptr || g_enum_get_value_by_nick(presets, options.speed_preset.c_str()) == nullptr)
    throw Error(what + ": unknown x264 speed preset '" + options.speed_preset +
                "' (ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow)");
  gst_util_set_object_arg(G_OBJECT(x264enc), "speed-preset", options.speed_preset.c_str());
  const double frames = std::round(fps * static_cast<double>(options.key_interval.count()) / 1000.0);
  const guint key_int_max = static_cast<guint>(std::clamp(frames, 1.0, 1000.0));
  // scenecut=0: key frames exactly every key_interval. With scene-cut detection x264 makes most frames
  // key frames on dark or flat pictures, and every key frame costs the muxers an index entry (memory
  // per frame) and the network a burst.
  g_object_set(x264enc, "key-int-max", key_int_max, "threads", static_cast<guint>(options.threads), "option-string",
               "scenecut=0", nullptr);
  if (options.bitrate_kbps > 0) {
    gst_util_set_object_arg(G_OBJECT(x264enc), "pass", "cbr");
    g_object_set(x264enc, "bitrate", static_cast<guint>(options.bitrate_kbps), nullptr);
  } else {
    if (options.quality > 51) throw Error(what + ": quality " + std::to_string(options.quality) + " is above 51");
    gst_util_set_object_arg(G_OBJECT(x264enc), "pass", "qual");
    g_object_set(x264enc, "quantizer", static_cast<guint>(options.quality), nullptr);
  }
}

std::string choose_h264_encoder(const std::string& requested, const std::string& what) {
  auto exists = [](const char* name) {
    GstElementFactory* factory = gst_element_factory_find(name);
    if (factory == nullptr) return false;
    gst_object_unref(factory);
    return true;
  };
  if (requested != "auto") {
    if (requested.empty() || !exists(requested.c_str()))
      throw Error(what + ": the H.264 encoder element '" + requested +
                  "' does not exist here (x264enc: gstreamer1.0-plugins-ugly; mpph264enc: the Rockchip MPP "
                  "GStreamer plugin; v4l2h264enc: gstreamer1.0-plugins-good with a V4L2 encoder device; or auto)");
    return requested;
  }
  for (const char* hardware : {"mpph264enc", "v4l2h264enc"})
    if (exists(hardware)) return hardware;
  if (!exists("x264enc"))
    throw Error(what + ": no H.264 encoder: the GStreamer element 'x264enc' is missing (Debian package "
                       "gstreamer1.0-plugins-ugly), and no hardware encoder element (mpph264enc, v4l2h264enc) exists");
  return "x264enc";
}

void configure_h264_encoder(GstElement* encoder, const std::string& element, const H264Options& options, double fps,
                            const std::string& what) {
  if (element == "x264enc") {
    configure_x264(encoder, options, fps, what);
    return;
  }
  const double frames = std::round(fps * static_cast<double>(options.key_interval.count()) / 1000.0);
  const int key_interval_frames = static_cast<int>(std::clamp(frames, 1.0, 1000.0));
  GObjectClass* type = G_OBJECT_GET_CLASS(encoder);
  auto has = [&](const char* property) { return g_object_class_find_property(type, property) != nullptr; };
  // Set through text, so the property's own type (int, uint, enum) parses the value.
  if (has("gop")) gst_util_set_object_arg(G_OBJECT(encoder), "gop", std::to_string(key_interval_frames).c_str());
  if (options.bitrate_kbps > 0) {
    if (has("rc-mode")) gst_util_set_object_arg(G_OBJECT(encoder), "rc-mode", "cbr");
    if (has("bps"))
      gst_util_set_object_arg(G_OBJECT(encoder), "bps", std::to_string(options.bitrate_kbps * 1000ull).c_str());
  }
  if (element == "v4l2h264enc" && has("extra-controls")) {
    std::string controls = "controls,video_gop_size=" + std::to_string(key_interval_frames);
    if (options.bitrate_kbps > 0) controls += ",video_bitrate=" + std::to_string(options.bitrate_kbps * 1000ull);
    GstStructure* structure = gst_structure_from_string(controls.c_str(), nullptr);
    if (structure != nullptr) {
      g_object_set(encoder, "extra-controls", structure, nullptr);
      gst_structure_free(structure);
    }
  }
}

std::string describe_gst_message(const std::string& what, GstMessage* message) {
  GError* error = nullptr;
  gchar* debug = nullptr;
  if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR)
    gst_message_parse_error(message, &error, &debug);
  else
    gst_message_parse_warning(message, &error, &debug);
  std::string text = what + ": " + (error ? error->message : "unknown error");
  if (const std::string detail = debug_detail(debug); !detail.empty()) text += " (" + detail + ")";
  if (error) g_error_free(error);
  g_free(debug);
  return text;
}

// ---- FrameRing ----------------------------------------------------------------------------------------

FrameRing* FrameRing::create(std::size_t slots, std::size_t slot_bytes) { return new FrameRing(slots, slot_bytes); }

FrameRing::FrameRing(std::size_t slots, std::size_t slot_bytes)
    : slot_bytes_(slot_bytes), stride_bytes_((slot_bytes + kCacheLine - 1) / kCacheLine * kCacheLine) {
  memory_ = static_cast<std::uint8_t*>(::operator new[](stride_bytes_ * slots, std::align_val_t{kCacheLine}));
  slots_.reserve(slots);
  free_.reserve(slots);
  for (std::size_t i = 0; i < slots; ++i) {
    slots_.push_back(Slot{this, i});
    free_.push_back(slots - 1 - i);
  }
}

FrameRing::~FrameRing() { ::operator delete[](memory_, std::align_val_t{kCacheLine}); }

GstBuffer* FrameRing::take_locked() noexcept {
  const std::size_t index = free_.back();
  free_.pop_back();
  // The buffer's memory is the slot's block; GStreamer calls on_block_returned when it frees it.
  return gst_buffer_new_wrapped_full(static_cast<GstMemoryFlags>(0), memory_ + index * stride_bytes_, slot_bytes_, 0,
                                     slot_bytes_, &slots_[index], &FrameRing::on_block_returned);
}

GstBuffer* FrameRing::try_acquire() noexcept {
  std::lock_guard lock(mutex_);
  if (free_.empty() || interrupted_) return nullptr;
  return take_locked();
}

GstBuffer* FrameRing::acquire(std::chrono::steady_clock::time_point deadline) noexcept {
  std::unique_lock lock(mutex_);
  returned_.wait_until(lock, deadline, [&] { return !free_.empty() || interrupted_; });
  if (free_.empty() || interrupted_) return nullptr;
  return take_locked();
}

void FrameRing::interrupt() noexcept {
  {
    std::lock_guard lock(mutex_);
    interrupted_ = true;
  }
  returned_.notify_all();
}

std::size_t FrameRing::in_flight() const noexcept {
  std::lock_guard lock(mutex_);
  return slots_.size() - free_.size();
}

void FrameRing::on_block_returned(gpointer slot_pointer) noexcept {
  auto* slot = static_cast<Slot*>(slot_pointer);
  FrameRing* ring = slot->ring;
  bool delete_now = false;
  {
    std::lock_guard lock(ring->mutex_);
    ring->free_.push_back(slot->index);  // capacity reserved: never allocates
    delete_now = ring->retired_ && ring->free_.size() == ring->slots_.size();
    // Notified under the lock: once it is released, a retired ring may be deleted by another return.
    if (!delete_now) ring->returned_.notify_one();
  }
  if (delete_now) delete ring;
}

void FrameRing::retire(FrameRing* ring) noexcept {
  if (ring == nullptr) return;
  bool delete_now = false;
  {
    std::lock_guard lock(ring->mutex_);
    ring->retired_ = true;
    ring->interrupted_ = true;
    delete_now = ring->free_.size() == ring->slots_.size();
    if (!delete_now) ring->returned_.notify_all();
  }
  if (delete_now) delete ring;
}

}  // namespace vg::io::detail
