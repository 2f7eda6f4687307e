// VideoWriter: appsrc ! videoconvert ! video/x-raw,format=I420 [! videocrop] ! H.264 encoder (x264enc, or the
// SoC's: detail::choose_h264_encoder) ! h264parse ! mux
// ! filesink, built element by element (a path needs no quoting that way).
//
// Memory. write() copies into a block of a FrameRing sized at open (queue_frames blocks); the block
// goes back to the ring when GStreamer frees the buffer (after videoconvert), so at most queue_frames
// raw frames exist and nothing per frame is kept. Back-pressure: write() waits for a block up to
// max_wait, then drops the frame and counts it.
//
// Errors. A bus sync handler (GStreamer's threads) keeps the first ERROR message as text, marks the
// writer failed and wakes a write() waiting for a block; write() and close() then return io_error.

#include <gst/app/gstappsrc.h>
#include <gst/gst.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <atomic>
#include <cctype>
#include <cmath>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <string>
#include <utility>

#include "gst_init.hpp"
#include "h264_encoding.hpp"
#include "pipeline_release.hpp"
#include "visiongraph/core/error.hpp"
#include "visiongraph/io/gstreamer_elements.hpp"
#include "visiongraph/io/video_writer.hpp"

namespace vg::io {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kMaxQueueFrames = 256;

struct ElementSpec {
  const char* factory;
  const char* package;  // the Debian package that has it, for the error message
};

// Creates the element or throws naming it and the package to install.
/// The package of the chosen H.264 encoder for messages (x264enc's, or the hardware encoder's vendor plugin).
std::string package_of_encoder(const std::string& element) {
  const std::string_view known = gstreamer_package_of(element);
  return known.empty() ? "the GStreamer plugin that provides " + element : std::string(known);
}

GstElement* make_element(const std::string& path, const ElementSpec& spec) {
  GstElement* element = gst_element_factory_make(spec.factory, nullptr);
  if (element == nullptr)
    throw Error(path + ": the GStreamer element '" + spec.factory + "' is missing (Debian package " + spec.package +
                ")");
  return element;
}

std::string lowercase_extension(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return extension;
}

}  // namespace

struct VideoWriter::State {
  VideoWriterInfo info;
  VideoWriterOptions options;
  GstVideoInfo layout{};
  std::size_t min_stride = 0;
  std::int64_t frame_ns = 0;  // one frame period: the duration of every buffer

  GstElement* pipeline = nullptr;
  GstElement* appsrc = nullptr;
  detail::FrameRing* ring = nullptr;

  // write() thread only
  std::int64_t first_pts_ns = -1;
  std::int64_t last_pts_ns = -1;

  std::atomic<std::uint64_t> written{0};
  std::atomic<std::uint64_t> dropped{0};
  std::atomic<bool> failed{false};
  std::atomic<bool> closing{false};

  mutable std::mutex mutex;  // guards error_text and end_of_stream; `finished` waits on it
  std::condition_variable finished;
  std::string error_text;
  bool end_of_stream = false;

  std::mutex close_mutex;  // one close() at a time; guards closed and close_status
  bool closed = false;
  Status close_status = Status::ok;

  void record_error(std::string text) {
    {
      std::lock_guard lock(mutex);
      if (error_text.empty()) error_text = std::move(text);
      failed.store(true);
    }
    finished.notify_all();
    if (ring != nullptr) ring->interrupt();  // a write() waiting for room returns io_error now
  }

  static GstBusSyncReply on_bus_message(GstBus*, GstMessage* message, gpointer self) {
    auto* state = static_cast<State*>(self);
    switch (GST_MESSAGE_TYPE(message)) {
      case GST_MESSAGE_ERROR:
        state->record_error(detail::describe_gst_message(state->info.path, message));
        break;
      case GST_MESSAGE_EOS: {
        {
          std::lock_guard lock(state->mutex);
          state->end_of_stream = true;
        }
        state->finished.notify_all();
        break;
      }
      default:
        break;
    }
    // Nobody else reads this bus. A sync handler that drops a message owns it: unreferenced here, or every
    // message (and the pipeline it names as its source) would leak.
    gst_message_unref(message);
    return GST_BUS_DROP;
  }

  void build_pipeline() {
    const std::string& path = info.path;
    pipeline = gst_pipeline_new("vg-video-writer");
    GstElement* source = make_element(path, {"appsrc", "gstreamer1.0-plugins-base"});
    gst_bin_add(GST_BIN(pipeline), source);  // the bin owns every element from here on
    appsrc = GST_ELEMENT(gst_object_ref(source));
    GstElement* convert = make_element(path, {"videoconvert", "gstreamer1.0-plugins-base"});
    gst_bin_add(GST_BIN(pipeline), convert);
    GstElement* to_i420 = make_element(path, {"capsfilter", "gstreamer1.0 (core)"});
    gst_bin_add(GST_BIN(pipeline), to_i420);
    GstElement* crop = nullptr;
    const auto full_width = static_cast<std::uint32_t>(GST_VIDEO_INFO_WIDTH(&layout));
    const auto full_height = static_cast<std::uint32_t>(GST_VIDEO_INFO_HEIGHT(&layout));
    if (info.width != full_width || info.height != full_height) {
      crop = make_element(path, {"videocrop", "gstreamer1.0-plugins-good"});
      gst_bin_add(GST_BIN(pipeline), crop);
    }
    info.encoder = detail::choose_h264_encoder(options.encoder.element, path);
    const std::string encoder_package = package_of_encoder(info.encoder);
    GstElement* encoder = make_element(path, {info.encoder.c_str(), encoder_package.c_str()});
    gst_bin_add(GST_BIN(pipeline), encoder);
    GstElement* parser = make_element(path, {"h264parse", "gstreamer1.0-plugins-bad"});
    gst_bin_add(GST_BIN(pipeline), parser);
    const bool mp4 = info.container == "mp4";
    GstElement* mux = make_element(path, {mp4 ? "mp4mux" : "matroskamux", "gstreamer1.0-plugins-good"});
    gst_bin_add(GST_BIN(pipeline), mux);
    GstElement* sink = make_element(path, {"filesink", "gstreamer1.0 (core)"});
    gst_bin_add(GST_BIN(pipeline), sink);

    GstCaps* raw_caps = detail::raw_video_caps(layout);
    // Not live, never blocking: the ring bounds what waits in appsrc, so its own limit is off.
    g_object_set(appsrc, "caps", raw_caps, "format", GST_FORMAT_TIME, "is-live", FALSE, "block", FALSE, "max-bytes",
                 static_cast<guint64>(0), "emit-signals", FALSE, nullptr);
    gst_caps_unref(raw_caps);
    GstCaps* i420 = gst_caps_from_string(detail::encoder_input_caps(layout).c_str());
    g_object_set(to_i420, "caps", i420, nullptr);
    gst_caps_unref(i420);
    if (crop != nullptr)
      g_object_set(crop, "right", static_cast<gint>(full_width - info.width), "bottom",
                   static_cast<gint>(full_height - info.height), nullptr);
    detail::configure_h264_encoder(encoder, info.encoder, options.encoder, info.fps, path);
    if (mp4 && options.fragment_duration.count() > 0)
      g_object_set(mux, "fragment-duration", static_cast<guint>(options.fragment_duration.count()), nullptr);
    if (!mp4)  // a cue (seek index entry) per key frame, but at most one per second
      g_object_set(mux, "min-index-interval", static_cast<guint64>(GST_SECOND), nullptr);
    // sync=false: write as fast as frames come, not at their play time.
    g_object_set(sink, "location", path.c_str(), "sync", FALSE, "async", FALSE, nullptr);

    const bool linked = crop != nullptr
                            ? gst_element_link_many(appsrc, convert, to_i420, crop, encoder, parser, mux, sink, nullptr)
                            : gst_element_link_many(appsrc, convert, to_i420, encoder, parser, mux, sink, nullptr);
    if (!linked) throw Error(path + ": cannot link the encoding pipeline (incompatible GStreamer plugins?)");

    GstBus* bus = gst_element_get_bus(pipeline);
    gst_bus_set_sync_handler(bus, &State::on_bus_message, this, nullptr);
    gst_object_unref(bus);
  }

  // Stops the pipeline and frees everything; safe on a half-built state.
  void release() noexcept {
    if (pipeline != nullptr) {
      gst_element_set_state(pipeline, GST_STATE_NULL);  // joins the streaming threads
      GstBus* bus = gst_element_get_bus(pipeline);
      gst_bus_set_sync_handler(bus, nullptr, nullptr, nullptr);
      gst_object_unref(bus);
    }
    if (appsrc != nullptr) gst_object_unref(std::exchange(appsrc, nullptr));
    // Before the ring retires: the pipeline's last buffers go back to it here, not later on a GStreamer thread.
    detail::release_stopped_pipeline(std::exchange(pipeline, nullptr), std::chrono::seconds(5));
    detail::FrameRing::retire(std::exchange(ring, nullptr));
  }

  std::int64_t next_pts(std::int64_t pts_ns) noexcept {
    std::int64_t at = 0;
    if (pts_ns >= 0) {
      if (first_pts_ns < 0) first_pts_ns = pts_ns;
      at = pts_ns - first_pts_ns;
    } else {
      at = last_pts_ns < 0 ? 0 : last_pts_ns + frame_ns;
    }
    if (last_pts_ns >= 0 && at <= last_pts_ns) at = last_pts_ns + frame_ns;  // muxers need rising times
    last_pts_ns = at;
    return at;
  }
};

VideoWriter::VideoWriter(std::unique_ptr<State> state) : state_(std::move(state)) {}

void VideoWriter::check(const std::string& path, std::uint32_t width, std::uint32_t height, double fps,
                        ImageFormat format, const VideoWriterOptions& options) {
  detail::ensure_gstreamer();
  const std::string extension = lowercase_extension(path);
  if (extension != ".mp4" && extension != ".mkv")
    throw Error(path + ": unsupported video file extension '" + extension + "' (supported: .mp4, .mkv)");
  if (options.queue_frames == 0 || options.queue_frames > kMaxQueueFrames)
    throw Error(path + ": queue_frames must be 1.." + std::to_string(kMaxQueueFrames) + ", got " +
                std::to_string(options.queue_frames));
  (void)detail::raw_video_layout(path, width, height, fps, format);
  const ElementSpec needed[] = {{"appsrc", "gstreamer1.0-plugins-base"},  {"videoconvert", "gstreamer1.0-plugins-base"},
                                {"videocrop", "gstreamer1.0-plugins-good"},
                                {"h264parse", "gstreamer1.0-plugins-bad"},  {extension == ".mp4" ? "mp4mux" : "matroskamux", "gstreamer1.0-plugins-good"},
                                {"filesink", "gstreamer1.0 (core)"}};
  for (const ElementSpec& spec : needed) {
    GstElementFactory* found = gst_element_factory_find(spec.factory);
    if (found == nullptr)
      throw Error(path + ": the GStreamer element '" + spec.factory + "' is missing (Debian package " + spec.package +
                  ")");
    gst_object_unref(found);
  }
  const std::string encoder = detail::choose_h264_encoder(options.encoder.element, path);
  const std::string encoder_package = package_of_encoder(encoder);
  GstElement* probe = make_element(path, {encoder.c_str(), encoder_package.c_str()});
  try {
    detail::configure_h264_encoder(probe, encoder, options.encoder, fps, path);
  } catch (...) {
    gst_object_unref(probe);
    throw;
  }
  gst_object_unref(probe);
  const std::filesystem::path folder = std::filesystem::path(path).parent_path().empty()
                                           ? std::filesystem::path(".")
                                           : std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!std::filesystem::is_directory(folder, ec))
    throw Error(path + ": the folder '" + folder.string() + "' does not exist");
  if (::access(folder.c_str(), W_OK) != 0)
    throw Error(path + ": the folder '" + folder.string() + "' is not writable: " + std::strerror(errno));
}

std::unique_ptr<VideoWriter> VideoWriter::open(const std::string& path, std::uint32_t width, std::uint32_t height,
                                               double fps, ImageFormat format, const VideoWriterOptions& options) {
  detail::ensure_gstreamer();
  auto state = std::make_unique<State>();
  State& s = *state;
  s.info.path = path;
  s.info.fps = fps;
  s.info.format = format;
  s.options = options;
  const std::string extension = lowercase_extension(path);
  if (extension == ".mp4") {
    s.info.container = "mp4";
  } else if (extension == ".mkv") {
    s.info.container = "mkv";
  } else {
    throw Error(path + ": unsupported video file extension '" + extension + "' (supported: .mp4, .mkv)");
  }
  if (options.queue_frames == 0 || options.queue_frames > kMaxQueueFrames)
    throw Error(path + ": queue_frames must be 1.." + std::to_string(kMaxQueueFrames) + ", got " +
                std::to_string(options.queue_frames));
  if (options.max_wait.count() < 0 || options.fragment_duration.count() < 0)
    throw Error(path + ": max_wait and fragment_duration must not be negative");
  s.layout = detail::raw_video_layout(path, width, height, fps, format);
  s.min_stride = detail::packed_row_bytes(s.layout);
  s.info.width = width & ~1u;  // H.264 4:2:0: an odd last column/row is cropped
  s.info.height = height & ~1u;
  if (s.info.width == 0 || s.info.height == 0)
    throw Error(path + ": frames of " + std::to_string(width) + "x" + std::to_string(height) +
                " are too small for H.264 (2x2 at least)");
  s.frame_ns = static_cast<std::int64_t>(
      gst_util_uint64_scale_round(GST_SECOND, static_cast<guint64>(GST_VIDEO_INFO_FPS_D(&s.layout)),
                                  static_cast<guint64>(GST_VIDEO_INFO_FPS_N(&s.layout))));

  try {
    s.build_pipeline();
    s.ring = detail::FrameRing::create(options.queue_frames, GST_VIDEO_INFO_SIZE(&s.layout));
    // NULL -> READY opens the file: a missing directory or a read-only place fails here, on the bus.
    if (gst_element_set_state(s.pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE || s.failed.load()) {
      std::string why;
      {
        std::lock_guard lock(s.mutex);
        why = s.error_text;
      }
      throw Error(why.empty() ? path + ": the encoding pipeline failed to start" : why);
    }
  } catch (...) {
    s.release();
    throw;
  }
  return std::unique_ptr<VideoWriter>(new VideoWriter(std::move(state)));
}

VideoWriter::~VideoWriter() {
  (void)close();
  state_->release();
}

Status VideoWriter::write(const std::uint8_t* data, std::size_t stride, std::int64_t pts_ns) noexcept {
  State& s = *state_;
  if (s.closing.load()) return Status::stopped;
  if (s.failed.load()) return Status::io_error;
  if (data == nullptr || stride < s.min_stride) return Status::invalid_argument;

  GstBuffer* buffer = s.options.max_wait.count() > 0 ? s.ring->acquire(Clock::now() + s.options.max_wait)
                                                     : s.ring->try_acquire();
  if (buffer == nullptr) {
    if (s.failed.load()) return Status::io_error;
    if (s.closing.load()) return Status::stopped;
    s.dropped.fetch_add(1, std::memory_order_relaxed);
    return Status::queue_full;
  }
  GstMapInfo map;
  if (!gst_buffer_map(buffer, &map, GST_MAP_WRITE)) {  // plain system memory: does not happen
    gst_buffer_unref(buffer);
    return Status::error;
  }
  detail::copy_frame(s.layout, data, stride, map.data);
  gst_buffer_unmap(buffer, &map);
  GST_BUFFER_PTS(buffer) = static_cast<GstClockTime>(s.next_pts(pts_ns));
  GST_BUFFER_DURATION(buffer) = static_cast<GstClockTime>(s.frame_ns);

  const GstFlowReturn flow = gst_app_src_push_buffer(GST_APP_SRC(s.appsrc), buffer);  // takes the buffer
  if (flow != GST_FLOW_OK) return s.failed.load() ? Status::io_error : Status::stopped;
  s.written.fetch_add(1, std::memory_order_relaxed);
  return Status::ok;
}

Status VideoWriter::close(std::chrono::milliseconds timeout) noexcept {
  State& s = *state_;
  std::lock_guard close_lock(s.close_mutex);
  if (s.closed) return s.close_status;
  s.closing.store(true);
  s.ring->interrupt();  // a write() waiting for room gives up (stopped)

  Status status = Status::ok;
  if (!s.failed.load()) {
    (void)gst_app_src_end_of_stream(GST_APP_SRC(s.appsrc));  // after the frames already queued
    std::unique_lock lock(s.mutex);
    const bool done = s.finished.wait_for(lock, timeout, [&] { return s.end_of_stream || s.failed.load(); });
    if (!done) {
      status = Status::timeout;
      if (s.error_text.empty())
        s.error_text = s.info.path + ": the encoder did not finish within " + std::to_string(timeout.count()) +
                       " ms; the file is incomplete";
    }
  }
  if (s.failed.load()) status = Status::io_error;
  gst_element_set_state(s.pipeline, GST_STATE_NULL);  // frees queued frames: the ring gets its blocks back
  s.closed = true;
  s.close_status = status;
  return status;
}

std::string VideoWriter::error() const {
  std::lock_guard lock(state_->mutex);
  return state_->error_text;
}

VideoWriterStats VideoWriter::stats() const noexcept {
  VideoWriterStats stats;
  stats.written = state_->written.load(std::memory_order_relaxed);
  stats.dropped = state_->dropped.load(std::memory_order_relaxed);
  stats.queued = state_->ring != nullptr ? state_->ring->in_flight() : 0;
  return stats;
}

const VideoWriterInfo& VideoWriter::info() const noexcept { return state_->info; }

}  // namespace vg::io
