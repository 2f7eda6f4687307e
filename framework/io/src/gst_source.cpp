// A Source backed by a GStreamer pipeline that ends in an appsink.
//
// Delivery. Files (not live): the appsink keeps up to max_buffers samples and read() pulls them, so the
// consumer paces the pipeline and nothing is lost. Live sources: the appsink's new-sample callback moves
// every sample at once into a ring of max_buffers samples owned by this source; when the ring is full the
// oldest sample is dropped and counted. The appsink itself therefore never drops, and
// frames + dropped + (samples in the ring) is exactly what reached the appsink.
//
// Zero copy. read() maps the sample's buffer as a video frame (honouring GstVideoMeta offsets and
// strides) and hands out the mapped memory; the frame's lease unmaps and unreferences the sample. Lease
// records come from a fixed pool sized at open (see lease_pool.hpp).
//
// Threads. The reader thread owns the pipeline (build, teardown, reconnect). GStreamer threads only
// record events (samples, EOS, errors) under `mutex_` and wake the reader. close() may come from any
// thread: it takes `pipeline_mutex_` to stop the current pipeline and wakes the reader.

#include <gst/allocators/gstdmabuf.h>
#include <gst/app/gstappsink.h>
#include <gst/base/gstbasetransform.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "frame_checks.hpp"
#include "visiongraph/io/gstreamer_elements.hpp"
#include "gst_init.hpp"
#include "lease_pool.hpp"
#include "pipeline_release.hpp"
#include "sources.hpp"
#include "visiongraph/core/clock.hpp"
#include "visiongraph/core/error.hpp"

namespace vg::io::detail {

namespace {

using Clock = std::chrono::steady_clock;

// Frames a consumer may hold at once beyond max_buffers (a graph's frames in flight, its input pool).
constexpr std::size_t kLeaseHeadroom = 16;
// How long closing waits for GStreamer to let go of a stopped pipeline (normally well under a millisecond).
constexpr std::chrono::seconds kPipelineReleaseLimit{5};
// A file that ends before this share of the frames its duration announces is reported as truncated.
constexpr double kTruncatedShare = 0.95;
// rtspsrc jitter-buffer latency: small, frames should reach the graph quickly.
constexpr guint kRtspLatencyMs = 100;

bool to_image_format(GstVideoFormat format, ImageFormat& out) {
  switch (format) {
    case GST_VIDEO_FORMAT_BGR: out = ImageFormat::bgr24; return true;
    case GST_VIDEO_FORMAT_RGB: out = ImageFormat::rgb24; return true;
    case GST_VIDEO_FORMAT_GRAY8: out = ImageFormat::gray8; return true;
    case GST_VIDEO_FORMAT_NV12: out = ImageFormat::nv12; return true;
    default: return false;
  }
}

std::string caps_text(const GstCaps* caps) {
  if (caps == nullptr) return "(no caps)";
  gchar* text = gst_caps_to_string(caps);
  std::string result = text ? text : "";
  g_free(text);
  return result;
}

// The first line of a debug string that says something: GStreamer's debug info usually starts with a
// "file.c(123): function (): /element/path:" location line and continues with the detail.
std::string debug_detail(const gchar* text) {
  if (text == nullptr) return {};
  std::string s(text);
  std::string line = s.substr(0, s.find('\n'));
  const bool location_only = !line.empty() && line.back() == ':' && line.find("): ") != std::string::npos;
  if (location_only && s.find('\n') != std::string::npos) {
    std::string next = s.substr(s.find('\n') + 1);
    next = next.substr(0, next.find('\n'));
    if (!next.empty()) return next;
  }
  return line;
}

// "<spec>: <message> (<first line of the debug info>)"
std::string describe_message(const std::string& spec, GstMessage* message) {
  GError* error = nullptr;
  gchar* debug = nullptr;
  if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR)
    gst_message_parse_error(message, &error, &debug);
  else
    gst_message_parse_warning(message, &error, &debug);
  std::string text = spec + ": " + (error ? error->message : "unknown error");
  if (std::string detail = debug_detail(debug); !detail.empty()) text += " (" + detail + ")";
  if (error) g_error_free(error);
  g_free(debug);
  return text;
}

// The appsink to deliver from: the one named "sink" if any, else the last one of the launch line.
GstElement* find_appsink(GstBin* bin, bool prefer_named_sink) {
  GstElement* named = nullptr;
  GstElement* last = nullptr;
  // gst_bin_iterate_recurse walks newest-first: the first appsink seen is the last one added.
  GstIterator* it = gst_bin_iterate_recurse(bin);
  GValue item = G_VALUE_INIT;
  bool done = false;
  while (!done) {
    switch (gst_iterator_next(it, &item)) {
      case GST_ITERATOR_OK: {
        auto* element = GST_ELEMENT(g_value_get_object(&item));
        if (GST_IS_APP_SINK(element)) {
          if (last == nullptr) last = GST_ELEMENT(gst_object_ref(element));
          if (prefer_named_sink && named == nullptr && std::strcmp(GST_ELEMENT_NAME(element), "sink") == 0)
            named = GST_ELEMENT(gst_object_ref(element));
        }
        g_value_reset(&item);
        break;
      }
      case GST_ITERATOR_RESYNC: gst_iterator_resync(it); break;
      default: done = true; break;
    }
  }
  g_value_unset(&item);
  gst_iterator_free(it);
  if (named != nullptr) {
    if (last) gst_object_unref(last);
    return named;
  }
  return last;
}

// True when a videoconvert/videoscale in the pipeline actually converts (is not in passthrough).
bool any_conversion(GstBin* bin) {
  bool converting = false;
  GstIterator* it = gst_bin_iterate_recurse(bin);
  GValue item = G_VALUE_INIT;
  bool done = false;
  while (!done) {
    switch (gst_iterator_next(it, &item)) {
      case GST_ITERATOR_OK: {
        auto* element = GST_ELEMENT(g_value_get_object(&item));
        GstElementFactory* factory = gst_element_get_factory(element);
        const gchar* name = factory ? gst_plugin_feature_get_name(GST_PLUGIN_FEATURE(factory)) : "";
        const bool converter = std::strcmp(name, "videoconvert") == 0 || std::strcmp(name, "videoscale") == 0 ||
                               std::strcmp(name, "videoconvertscale") == 0;
        if (converter && GST_IS_BASE_TRANSFORM(element) &&
            !gst_base_transform_is_passthrough(GST_BASE_TRANSFORM(element)))
          converting = true;
        g_value_reset(&item);
        break;
      }
      case GST_ITERATOR_RESYNC: gst_iterator_resync(it); break;
      default: done = true; break;
    }
  }
  g_value_unset(&item);
  gst_iterator_free(it);
  return converting;
}

bool clock_is_monotonic_system_clock(GstElement* pipeline) {
  GstClock* clock = gst_element_get_clock(pipeline);
  if (clock == nullptr) return false;
  bool monotonic = false;
  if (GST_IS_SYSTEM_CLOCK(clock)) {
    GstClockType type = GST_CLOCK_TYPE_REALTIME;
    g_object_get(clock, "clock-type", &type, nullptr);
    monotonic = type == GST_CLOCK_TYPE_MONOTONIC;
  }
  gst_object_unref(clock);
  return monotonic;
}

/// One delivered frame: the sample and its mapping, undone exactly once by the frame's lease.
struct SampleLease {
  GstSample* sample = nullptr;
  GstVideoFrame video{};
  bool video_mapped = false;
  GstBuffer* mapped_buffer = nullptr;  // set when mapped with gst_buffer_map (one memory, or merged)
  GstMapInfo buffer_map{};

  void reset() noexcept {
    if (video_mapped) gst_video_frame_unmap(&video);
    if (mapped_buffer != nullptr) gst_buffer_unmap(mapped_buffer, &buffer_map);
    video_mapped = false;
    mapped_buffer = nullptr;
    if (sample != nullptr) gst_sample_unref(std::exchange(sample, nullptr));
  }
};

using SampleLeasePool = LeasePool<SampleLease>;

class GstSource final : public Source {
 public:
  GstSource(GstSourceConfig config, const SourceOptions& options)
      : config_(std::move(config)),
        options_(options),
        pool_(new SampleLeasePool(options.max_buffers + kLeaseHeadroom)),
        ring_(options.max_buffers, nullptr) {
    info_.spec = config_.spec;
    info_.kind = config_.kind;
    live_ = config_.kind == SourceKind::rtsp || config_.kind == SourceKind::http || config_.kind == SourceKind::v4l2;
    try {
      start_pipeline();
      wait_for_first_sample();
      describe_stream();
    } catch (...) {
      shut_down();
      SampleLeasePool::abandon(pool_);  // no frame was handed out: this deletes it
      throw;
    }
  }

  ~GstSource() override {
    shut_down();
    SampleLeasePool::abandon(pool_);  // frames still leased keep it until their release
  }

  const SourceInfo& info() const noexcept override { return info_; }

  Status read(Frame& out, std::chrono::nanoseconds timeout) noexcept override {
    try {
      return read_until(out, Clock::now() + std::chrono::duration_cast<Clock::duration>(timeout));
    } catch (...) {  // only std::string growth can throw here
      return Status::out_of_memory;
    }
  }

  std::string error() const override {
    std::lock_guard lock(mutex_);
    return error_text_;
  }

  SourceStats stats() const noexcept override {
    SourceStats s;
    s.frames = frames_.load(std::memory_order_relaxed);
    s.dropped = dropped_.load(std::memory_order_relaxed);
    s.reconnects = reconnects_.load(std::memory_order_relaxed);
    s.errors = errors_.load(std::memory_order_relaxed);
    s.converting = converting_.load(std::memory_order_relaxed);
    s.leases_out = pool_->in_use();
    return s;
  }

  void close() noexcept override {
    {
      std::lock_guard lock(mutex_);
      if (closed_) return;
      closed_ = true;
      ++events_;
    }
    wake_.notify_all();
    std::lock_guard pipeline_lock(pipeline_mutex_);
    if (pipeline_ != nullptr) gst_element_set_state(pipeline_, GST_STATE_NULL);
  }

 private:
  // ---- pipeline lifetime (reader thread, or the constructor) -------------------------------------

  void start_pipeline() {
    std::lock_guard pipeline_lock(pipeline_mutex_);
    {
      std::lock_guard lock(mutex_);
      if (closed_) return;
      eos_ = false;
      failed_ = false;
      warning_text_.clear();
      last_activity_ = Clock::now();
    }
    GError* parse_error = nullptr;
    GstElement* element = gst_parse_launch(config_.launch.c_str(), &parse_error);
    if (parse_error != nullptr) {
      std::string message = config_.spec + ": cannot build the pipeline: " + parse_error->message;
      // "no element \"x264enc\"": say which package has it.
      const std::string text = parse_error->message;
      if (const auto open = text.find("no element \""); open != std::string::npos) {
        const auto begin = open + 12, end = text.find('"', begin);
        const std::string_view package = gstreamer_package_of(text.substr(begin, end - begin));
        if (!package.empty()) message += " (install the Debian package " + std::string(package) + "; visiongraph doctor lists what is missing)";
      }
      g_error_free(parse_error);
      if (element) gst_object_unref(element);
      throw Error(message);
    }
    if (element == nullptr) throw Error(config_.spec + ": cannot build the pipeline");
    if (!GST_IS_PIPELINE(element)) {  // a single element: give it a pipeline (clock, bus)
      GstElement* pipeline = gst_pipeline_new(nullptr);
      gst_bin_add(GST_BIN(pipeline), element);
      element = pipeline;
    }
    pipeline_ = element;
    clock_checked_ = false;

    appsink_ = find_appsink(GST_BIN(pipeline_), config_.kind == SourceKind::pipeline);
    if (appsink_ == nullptr)
      throw Error(config_.spec + ": the pipeline has no appsink (end it with '! appsink name=sink')");

    if (GstElement* src = gst_bin_get_by_name(GST_BIN(pipeline_), "vgsrc");
        src != nullptr && config_.kind != SourceKind::pipeline) {
      if (!config_.uri.empty()) {
        g_object_set(src, "uri", config_.uri.c_str(), nullptr);
        g_signal_connect(src, "source-setup", G_CALLBACK(&GstSource::on_source_setup), nullptr);
        g_signal_connect(src, "autoplug-continue", G_CALLBACK(&GstSource::on_autoplug_continue), nullptr);
      }
      if (!config_.device.empty()) g_object_set(src, "device", config_.device.c_str(), nullptr);
      gst_object_unref(src);
    } else if (src != nullptr) {
      gst_object_unref(src);
    }

    // The consumer decides the pace: no clock sync for our own pipelines (a gst: pipeline keeps its own
    // setting); the appsink never holds the last buffer back from its pool.
    if (config_.kind != SourceKind::pipeline) g_object_set(appsink_, "sync", FALSE, nullptr);
    g_object_set(appsink_, "enable-last-sample", FALSE, "emit-signals", FALSE, "max-buffers", options_.max_buffers,
                 "drop", live_ ? TRUE : FALSE, nullptr);
    GstAppSinkCallbacks callbacks{};
    callbacks.eos = &GstSource::on_eos;
    callbacks.new_sample = &GstSource::on_new_sample;
    gst_app_sink_set_callbacks(GST_APP_SINK(appsink_), &callbacks, this, nullptr);

    GstBus* bus = gst_element_get_bus(pipeline_);
    gst_bus_set_sync_handler(bus, &GstSource::on_bus_message, this, nullptr);
    gst_object_unref(bus);

    if (config_.kind == SourceKind::pipeline) {
      // A live pipeline does not preroll: that is how a gst: pipeline tells it is live.
      const GstStateChangeReturn paused = gst_element_set_state(pipeline_, GST_STATE_PAUSED);
      if (paused == GST_STATE_CHANGE_NO_PREROLL) {
        live_ = true;
        g_object_set(appsink_, "drop", TRUE, nullptr);
      }
    }
    if (gst_element_set_state(pipeline_, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
      // The reason is on the bus (recorded by on_bus_message) unless the failure was silent.
      std::lock_guard lock(mutex_);
      if (!failed_) {
        failed_ = true;
        error_text_ = config_.spec + ": the pipeline failed to start";
        ++events_;
      }
    }
  }

  // Stops and frees the current pipeline. Samples already leased stay valid (they hold their buffers).
  void teardown_pipeline() {
    std::lock_guard pipeline_lock(pipeline_mutex_);
    if (pipeline_ == nullptr) return;
    gst_element_set_state(pipeline_, GST_STATE_NULL);  // joins the streaming threads: no more callbacks
    GstBus* bus = gst_element_get_bus(pipeline_);
    gst_bus_set_sync_handler(bus, nullptr, nullptr, nullptr);
    gst_object_unref(bus);
    if (appsink_ != nullptr) gst_object_unref(std::exchange(appsink_, nullptr));
    // Waits until the pipeline is gone, so what its elements still queued (a producer's buffers) is
    // given back before the source is: a bin may hold it a moment longer on GStreamer's own thread.
    release_stopped_pipeline(std::exchange(pipeline_, nullptr), kPipelineReleaseLimit);
    if (pending_ != nullptr) gst_sample_unref(std::exchange(pending_, nullptr));
    std::lock_guard lock(mutex_);
    while (GstSample* sample = ring_pop_locked()) gst_sample_unref(sample);
  }

  void shut_down() noexcept {
    close();
    teardown_pipeline();
  }

  void wait_for_first_sample() {
    const auto deadline = Clock::now() + options_.open_timeout;
    std::unique_lock lock(mutex_);
    wake_.wait_until(lock, deadline, [&] { return have_sample_ || failed_ || eos_ || closed_; });
    if (have_sample_) return;  // an error after the first frame is read()'s to report
    if (failed_) throw Error(error_text_);
    if (eos_) throw Error(config_.spec + ": the stream ended before its first video frame");
    if (closed_) throw Error(config_.spec + ": closed while opening");
    throw Error(config_.spec + ": no video frame within " + std::to_string(options_.open_timeout.count()) +
                " ms (unreachable, or nothing to decode)");
  }

  // Fills info_ from the negotiated caps, once the first sample is there.
  void describe_stream() {
    GstSample* first = nullptr;
    if (live_) {
      std::lock_guard lock(mutex_);
      first = ring_count_ > 0 ? gst_sample_ref(ring_[ring_head_]) : nullptr;
    } else {
      pending_ = gst_app_sink_try_pull_sample(GST_APP_SINK(appsink_), 0);
      if (pending_ != nullptr) first = gst_sample_ref(pending_);
    }
    if (first == nullptr) throw Error(config_.spec + ": the first frame vanished while opening");
    GstCaps* caps = gst_sample_get_caps(first);
    GstVideoInfo video_info;
    ImageFormat format{};
    if (const std::string why = unreadable_memory(caps); !why.empty()) {
      gst_sample_unref(first);
      throw Error(config_.spec + ": " + why);
    }
    const bool parsed = caps != nullptr && gst_video_info_from_caps(&video_info, caps);
    if (!parsed || !to_image_format(GST_VIDEO_INFO_FORMAT(&video_info), format)) {
      std::string text = caps_text(caps);
      gst_sample_unref(first);
      throw Error(config_.spec + ": delivers " + text +
                  ", which is not deliverable (accepted: video/x-raw BGR, RGB, GRAY8, NV12; add "
                  "'videoconvert ! video/x-raw,format=BGR' before the appsink)");
    }
    info_.format = format;
    info_.width = static_cast<std::uint32_t>(GST_VIDEO_INFO_WIDTH(&video_info));
    info_.height = static_cast<std::uint32_t>(GST_VIDEO_INFO_HEIGHT(&video_info));
    if (GST_VIDEO_INFO_FPS_N(&video_info) > 0 && GST_VIDEO_INFO_FPS_D(&video_info) > 0)
      info_.fps = static_cast<double>(GST_VIDEO_INFO_FPS_N(&video_info)) / GST_VIDEO_INFO_FPS_D(&video_info);
    info_.live = live_;
    if (GstBuffer* buffer = gst_sample_get_buffer(first);
        buffer != nullptr && gst_buffer_n_memory(buffer) == 1 && gst_is_dmabuf_memory(gst_buffer_peek_memory(buffer, 0)))
      info_.dmabuf = true;
    gst_sample_unref(first);

    if (!live_) {
      gint64 duration = -1;
      if (gst_element_query_duration(pipeline_, GST_FORMAT_TIME, &duration) && duration > 0 && info_.fps > 0)
        info_.length = std::llround(static_cast<double>(duration) / GST_SECOND * info_.fps);
    }
    converting_ = any_conversion(GST_BIN(pipeline_));
  }

  // ---- GStreamer callbacks (streaming threads): record and wake, nothing else ---------------------

  static GstFlowReturn on_new_sample(GstAppSink* sink, gpointer user_data) {
    auto* self = static_cast<GstSource*>(user_data);
    GstSample* dropped = nullptr;
    if (self->live_) {
      // Take it now so the ring, not the appsink, decides what is dropped (and counts it).
      GstSample* sample = gst_app_sink_try_pull_sample(sink, 0);
      if (sample == nullptr) return GST_FLOW_OK;
      std::lock_guard lock(self->mutex_);
      if (self->ring_count_ == self->ring_.size()) {
        dropped = self->ring_pop_locked();
        self->dropped_.fetch_add(1, std::memory_order_relaxed);
      }
      self->ring_[(self->ring_head_ + self->ring_count_) % self->ring_.size()] = sample;
      ++self->ring_count_;
      self->note_sample_locked();
    } else {
      std::lock_guard lock(self->mutex_);
      self->note_sample_locked();
    }
    self->wake_.notify_all();
    if (dropped != nullptr) gst_sample_unref(dropped);
    return GST_FLOW_OK;
  }

  static void on_eos(GstAppSink*, gpointer user_data) {
    auto* self = static_cast<GstSource*>(user_data);
    {
      std::lock_guard lock(self->mutex_);
      self->eos_ = true;
      ++self->events_;
    }
    self->wake_.notify_all();
  }

  static GstBusSyncReply on_bus_message(GstBus*, GstMessage* message, gpointer user_data) {
    auto* self = static_cast<GstSource*>(user_data);
    switch (GST_MESSAGE_TYPE(message)) {
      case GST_MESSAGE_ERROR: {
        std::string text = describe_message(self->config_.spec, message);
        {
          std::lock_guard lock(self->mutex_);
          if (!self->failed_) {  // the first error is the cause; later ones are consequences
            self->failed_ = true;
            self->error_text_ = std::move(text);
            self->errors_.fetch_add(1, std::memory_order_relaxed);
          }
          ++self->events_;
        }
        self->wake_.notify_all();
        break;
      }
      case GST_MESSAGE_WARNING: {
        std::string text = describe_message(self->config_.spec, message);
        std::lock_guard lock(self->mutex_);
        if (self->warning_text_.empty()) self->warning_text_ = std::move(text);
        break;
      }
      case GST_MESSAGE_EOS: {
        {
          std::lock_guard lock(self->mutex_);
          self->eos_ = true;
          ++self->events_;
        }
        self->wake_.notify_all();
        break;
      }
      case GST_MESSAGE_LATENCY: {
        std::lock_guard lock(self->mutex_);
        self->latency_changed_ = true;
        break;
      }
      default:
        break;
    }
    gst_message_unref(message);  // a sync handler that drops a message owns it
    return GST_BUS_DROP;         // nobody pops this bus: keep nothing queued on it
  }

  static void on_source_setup(GstElement*, GstElement* source, gpointer) {
    if (g_object_class_find_property(G_OBJECT_GET_CLASS(source), "latency") != nullptr &&
        GST_IS_BIN(source))  // rtspsrc (a bin); its latency is in milliseconds
      g_object_set(source, "latency", kRtspLatencyMs, nullptr);
  }

  // Audio and subtitle streams are left undecoded (and unlinked): decoding them would cost time and make
  // uridecodebin warn that it cannot reach video/x-raw from them.
  static gboolean on_autoplug_continue(GstElement*, GstPad*, GstCaps* caps, gpointer) {
    if (caps == nullptr || gst_caps_get_size(caps) == 0) return TRUE;
    const gchar* name = gst_structure_get_name(gst_caps_get_structure(caps, 0));
    for (const char* prefix : {"audio/", "text/", "subpicture/", "subtitle/", "application/x-ass", "application/x-ssa"})
      if (g_str_has_prefix(name, prefix)) return FALSE;
    return TRUE;
  }

  void note_sample_locked() {
    have_sample_ = true;
    last_activity_ = Clock::now();
    ++events_;
  }

  GstSample* ring_pop_locked() {
    if (ring_count_ == 0) return nullptr;
    GstSample* sample = std::exchange(ring_[ring_head_], nullptr);
    ring_head_ = (ring_head_ + 1) % ring_.size();
    --ring_count_;
    return sample;
  }

  // ---- read ---------------------------------------------------------------------------------------

  Status read_until(Frame& out, Clock::time_point deadline) {
    for (;;) {
      std::unique_lock lock(mutex_);
      if (closed_) return Status::stopped;
      if (gave_up_) return Status::io_error;
      if (ended_) return Status::end_of_stream;

      if (pipeline_ == nullptr) {  // between two connections
        if (Clock::now() < next_attempt_) {
          wake_.wait_until(lock, std::min(deadline, next_attempt_), [&] { return closed_; });
          if (closed_) return Status::stopped;
          if (Clock::now() >= deadline && Clock::now() < next_attempt_) return Status::timeout;
          continue;
        }
        lock.unlock();
        reconnect_now();
        continue;
      }
      if (latency_changed_) {
        latency_changed_ = false;
        lock.unlock();
        gst_bin_recalculate_latency(GST_BIN(pipeline_));
        continue;
      }

      const std::uint64_t seen = events_;
      const bool eos_seen = eos_;
      SampleLease* record = pool_->acquire();
      if (record == nullptr) return Status::busy;  // the consumer holds every frame it may hold
      GstSample* sample = nullptr;
      if (live_) {
        sample = ring_pop_locked();
      } else {
        lock.unlock();
        sample = pending_ ? std::exchange(pending_, nullptr) : gst_app_sink_try_pull_sample(GST_APP_SINK(appsink_), 0);
        lock.lock();
      }
      if (sample != nullptr) {
        lock.unlock();
        return deliver(sample, record, out);
      }
      pool_->give_back_unused(record);
      if (closed_) return Status::stopped;

      if (failed_) {
        if (should_reconnect()) {
          lock.unlock();
          schedule_reconnect();
          continue;
        }
        gave_up_ = true;
        return Status::io_error;
      }
      if (eos_seen) {  // the appsink was empty after EOS: everything is delivered
        if (should_reconnect()) {
          error_text_ = config_.spec + ": the stream ended";
          errors_.fetch_add(1, std::memory_order_relaxed);  // a live stream is not expected to end
          lock.unlock();
          schedule_reconnect();
          continue;
        }
        return finish_at_eos_locked();
      }
      // A live source that delivers nothing for open_timeout has stalled (a frozen camera or server keeps
      // its connection open): reconnect, or end with an error rather than wait for ever.
      if (live_ && Clock::now() - last_activity_ > options_.open_timeout) {
        error_text_ = config_.spec + ": no frame for " + std::to_string(options_.open_timeout.count()) + " ms";
        errors_.fetch_add(1, std::memory_order_relaxed);
        if (!should_reconnect()) {
          error_text_ += " (the stream stalled)";
          gave_up_ = true;
          return Status::io_error;
        }
        lock.unlock();
        schedule_reconnect();
        continue;
      }
      if (Clock::now() >= deadline) return Status::timeout;
      auto wake_at = deadline;
      if (live_) wake_at = std::min(wake_at, last_activity_ + options_.open_timeout);
      wake_.wait_until(lock, wake_at, [&] { return events_ != seen || closed_; });
    }
  }

  // At the end of a file: end_of_stream, unless the file ended early (truncated) or GStreamer warned.
  Status finish_at_eos_locked() {
    ended_ = true;
    if (config_.kind != SourceKind::video_file) return Status::end_of_stream;
    const std::uint64_t delivered = frames_.load(std::memory_order_relaxed);
    // The header's frame count wins over the duration query, which may only count what survived.
    const std::int64_t expected = std::max(info_.length, config_.extent.declared_frames);
    std::string why;
    if (expected > 0 && static_cast<double>(delivered) < kTruncatedShare * static_cast<double>(expected)) {
      why = config_.spec + ": stream ended after " + std::to_string(delivered) + " of " + std::to_string(expected) +
            " frames (truncated?)";
    } else if (config_.extent.truncated()) {
      why = config_.spec + ": stream ended after " + std::to_string(delivered) + " frames, the file has " +
            std::to_string(config_.extent.file_bytes) + " of the " + std::to_string(config_.extent.declared_bytes) +
            " bytes its header declares (truncated?)";
    } else if (!warning_text_.empty()) {
      why = warning_text_;
    } else {
      return Status::end_of_stream;
    }
    error_text_ = std::move(why);
    errors_.fetch_add(1, std::memory_order_relaxed);
    return Status::io_error;
  }

  bool should_reconnect() const { return live_ && options_.reconnect; }

  void schedule_reconnect() {
    teardown_pipeline();
    std::lock_guard lock(mutex_);
    ++failed_attempts_;
    if (options_.reconnect_attempts >= 0 && failed_attempts_ > options_.reconnect_attempts) {
      gave_up_ = true;
      error_text_ += " (gave up after " + std::to_string(options_.reconnect_attempts) + " reconnection attempts)";
      return;
    }
    if (backoff_.count() == 0) backoff_ = options_.reconnect_initial;
    next_attempt_ = Clock::now() + backoff_;
    backoff_ = std::min(backoff_ * 2, std::chrono::milliseconds(options_.reconnect_max));
  }

  void reconnect_now() {
    reconnects_.fetch_add(1, std::memory_order_relaxed);
    last_media_ns_ = -1;  // a new connection starts its own timeline
    try {
      start_pipeline();
    } catch (const std::exception& e) {
      {
        std::lock_guard lock(mutex_);
        error_text_ = e.what();
        failed_ = true;
      }
      schedule_reconnect();
    }
  }

  Status deliver(GstSample* sample, SampleLease* record, Frame& out) {
    record->sample = sample;
    GstBuffer* buffer = gst_sample_get_buffer(sample);
    GstCaps* caps = gst_sample_get_caps(sample);
    if (caps != cached_caps_) {  // caps objects are shared between samples: parse only on change
      ImageFormat format{};
      if (const std::string why = unreadable_memory(caps); !why.empty())
        return fail_delivery(record, config_.spec + ": " + why);
      if (caps == nullptr || !gst_video_info_from_caps(&cached_info_, caps) ||
          !to_image_format(GST_VIDEO_INFO_FORMAT(&cached_info_), format)) {
        return fail_delivery(record, config_.spec + ": cannot deliver frames with caps " + caps_text(caps));
      }
      cached_caps_ = caps;  // compared by address only; the sample keeps it alive while it matters
      cached_format_ = format;
    }
    if (buffer == nullptr) return fail_delivery(record, config_.spec + ": a sample without a buffer");
    ExternalBuffer memory;  // `out` is only written once the frame is good
    if (!map_planes(record, buffer, memory))
      return fail_delivery(record, config_.spec + ": cannot map a frame for reading");
    // The caps say how big a frame is; a buffer that is smaller (a source that lies, a memory kind
    // mapped as a descriptor) would be read past its end: refused, never read.
    if (const std::size_t needed = bytes_needed(cached_info_, cached_format_, memory);
        memory.block.size < needed) {
      std::string why = config_.spec + ": a buffer of " + std::to_string(memory.block.size) + " bytes is smaller than the " +
                        std::to_string(needed) + " bytes its caps imply (" + caps_text(caps) + "); the frame is refused, not read";
      return fail_delivery(record, std::move(why));  // unmaps and lets the sample go
    }

    out.memory = memory;
    out.meta.width = static_cast<std::uint32_t>(GST_VIDEO_INFO_WIDTH(&cached_info_));
    out.meta.height = static_cast<std::uint32_t>(GST_VIDEO_INFO_HEIGHT(&cached_info_));
    out.meta.format = cached_format_;
    out.meta.row_stride = static_cast<std::uint32_t>(out.memory.stride[0]);

    const GstClockTime pts = GST_BUFFER_PTS(buffer);
    out.media_ns = media_time(buffer, pts);
    out.capture_ns = capture_time(sample, pts);
    out.sequence = frames_.fetch_add(1, std::memory_order_relaxed);
    out.name[0] = '\0';
    out.lease = pool_->lease(record);
    {
      std::lock_guard lock(mutex_);
      failed_attempts_ = 0;  // a frame came through: the next failure starts the backoff afresh
      backoff_ = std::chrono::milliseconds(0);
    }
    return Status::ok;
  }

  Status fail_delivery(SampleLease* record, std::string message) {
    record->reset();
    pool_->give_back_unused(record);
    std::lock_guard lock(mutex_);
    error_text_ = std::move(message);
    errors_.fetch_add(1, std::memory_order_relaxed);
    return Status::io_error;
  }

  // Describes the buffer's planes relative to one block (block.data = start of the mapping). A buffer in
  // one memory (the usual case: decoders, cameras, DMA-BUF) is mapped as it is and its layout taken from
  // its video meta or the caps: that is the cheapest map GStreamer has. Planes in separate memories go
  // through gst_video_frame_map, and only when they are not in one block through a merged mapping.
  bool map_planes(SampleLease* record, GstBuffer* buffer, ExternalBuffer& memory) {
    const guint planes = GST_VIDEO_INFO_N_PLANES(&cached_info_);
    memory.num_planes = planes;
    if (gst_buffer_n_memory(buffer) == 1) {
      GstMemory* only = gst_buffer_peek_memory(buffer, 0);
      describe_planes(buffer, memory);
      if (gst_is_dmabuf_memory(only)) {
        gsize memory_offset = 0;
        gst_memory_get_sizes(only, &memory_offset, &memory.block.size);
        memory.block.dmabuf_fd = gst_dmabuf_memory_get_fd(only);
        memory.block.fd_offset = memory_offset;  // block.data (if mapped) is this byte of the fd
        if (!options_.map_dmabuf) return true;    // device-only: the fd is all the consumer gets
      }
      if (!gst_buffer_map(buffer, &record->buffer_map, GST_MAP_READ)) return false;
      record->mapped_buffer = buffer;
      memory.block.data = record->buffer_map.data;
      memory.block.size = record->buffer_map.size;
      return true;
    }
    if (gst_video_frame_map(&record->video, &cached_info_, buffer, GST_MAP_READ)) {
      record->video_mapped = true;
      auto* base = static_cast<std::uint8_t*>(record->video.map[0].data);
      const std::size_t size = record->video.map[0].size;
      for (guint p = 0; p < planes; ++p) {
        auto* plane = static_cast<std::uint8_t*>(GST_VIDEO_FRAME_PLANE_DATA(&record->video, p));
        if (plane < base || plane >= base + size) {  // not one block: map the buffer merged (a copy)
          gst_video_frame_unmap(&record->video);
          record->video_mapped = false;
          break;
        }
        memory.offset[p] = static_cast<std::size_t>(plane - base);
        memory.stride[p] = static_cast<std::size_t>(GST_VIDEO_FRAME_PLANE_STRIDE(&record->video, p));
      }
      if (record->video_mapped) {
        memory.block.data = base;
        memory.block.size = size;
        return true;
      }
    }
    if (!gst_buffer_map(buffer, &record->buffer_map, GST_MAP_READ)) return false;
    record->mapped_buffer = buffer;
    describe_planes(buffer, memory);
    memory.block.data = record->buffer_map.data;
    memory.block.size = record->buffer_map.size;
    return true;  // a merged copy is host memory, never the DMA-BUF
  }

  // Plane offsets and strides from the buffer's video meta (decoders with padded rows), else the caps.
  void describe_planes(GstBuffer* buffer, ExternalBuffer& memory) const {
    const GstVideoMeta* meta = gst_buffer_get_video_meta(buffer);
    for (guint p = 0; p < memory.num_planes; ++p) {
      memory.offset[p] = meta ? meta->offset[p] : GST_VIDEO_INFO_PLANE_OFFSET(&cached_info_, p);
      memory.stride[p] = static_cast<std::size_t>(meta ? meta->stride[p] : GST_VIDEO_INFO_PLANE_STRIDE(&cached_info_, p));
    }
  }

  // Stream position. It never goes backwards within a connection: decoders of packed B-frame streams
  // (DivX AVI, also sent over RTSP) repeat a timestamp, which would put two frames at one instant; a
  // repeat is moved one frame on. A reconnection starts a new timeline.
  std::int64_t media_time(GstBuffer* buffer, GstClockTime pts) {
    if (!GST_CLOCK_TIME_IS_VALID(pts)) return -1;
    auto media = static_cast<std::int64_t>(pts);
    if (last_media_ns_ >= 0 && media <= last_media_ns_) {
      const GstClockTime duration = GST_BUFFER_DURATION(buffer);
      std::int64_t step = 1;
      if (GST_CLOCK_TIME_IS_VALID(duration) && duration > 0) step = static_cast<std::int64_t>(duration);
      else if (GST_VIDEO_INFO_FPS_N(&cached_info_) > 0)
        step = static_cast<std::int64_t>(gst_util_uint64_scale_int(GST_SECOND, GST_VIDEO_INFO_FPS_D(&cached_info_),
                                                                   GST_VIDEO_INFO_FPS_N(&cached_info_)));
      media = last_media_ns_ + step;
    }
    last_media_ns_ = media;
    return media;
  }

  // Buffer time on the monotonic clock when the pipeline runs on it (live sources); else arrival time.
  std::int64_t capture_time(GstSample* sample, GstClockTime pts) {
    const std::int64_t now = now_ns();
    if (!live_ || !GST_CLOCK_TIME_IS_VALID(pts)) return now;
    if (!clock_checked_) {
      clock_checked_ = true;
      clock_is_monotonic_ = clock_is_monotonic_system_clock(pipeline_);
    }
    if (!clock_is_monotonic_) return now;
    const GstSegment* segment = gst_sample_get_segment(sample);
    if (segment == nullptr || segment->format != GST_FORMAT_TIME) return now;
    const guint64 running = gst_segment_to_running_time(segment, GST_FORMAT_TIME, pts);
    if (!GST_CLOCK_TIME_IS_VALID(running)) return now;
    const std::int64_t capture = static_cast<std::int64_t>(gst_element_get_base_time(pipeline_) + running);
    // A frame is not captured after it arrives (a jitter buffer's latency can put its PTS ahead), and a
    // timestamp far in the past is not a capture time (a source with its own time base): use arrival.
    constexpr std::int64_t kPlausible = 10'000'000'000;
    return capture <= now && now - capture < kPlausible ? capture : now;
  }

  // ---- state ---------------------------------------------------------------------------------------

  const GstSourceConfig config_;
  const SourceOptions options_;
  SourceInfo info_;
  SampleLeasePool* pool_;

  // Reader thread (and close(), under pipeline_mutex_, for set_state only).
  std::mutex pipeline_mutex_;
  GstElement* pipeline_ = nullptr;
  GstElement* appsink_ = nullptr;
  GstSample* pending_ = nullptr;  // first sample of a file, pulled while opening
  GstCaps* cached_caps_ = nullptr;
  GstVideoInfo cached_info_{};
  ImageFormat cached_format_ = ImageFormat::bgr24;
  std::int64_t last_media_ns_ = -1;  // the previous frame's media_ns (reader thread)
  bool clock_checked_ = false;
  bool clock_is_monotonic_ = false;
  std::atomic<bool> live_{false};

  // Shared with GStreamer threads and close(), under mutex_.
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::uint64_t events_ = 0;  // bumped on every sample, EOS, error and close
  bool closed_ = false;
  bool eos_ = false;
  bool failed_ = false;
  bool ended_ = false;
  bool gave_up_ = false;
  bool have_sample_ = false;
  bool latency_changed_ = false;
  std::string error_text_;
  std::string warning_text_;
  Clock::time_point last_activity_{};
  Clock::time_point next_attempt_{};
  std::chrono::milliseconds backoff_{0};
  int failed_attempts_ = 0;
  std::vector<GstSample*> ring_;  // live sources: the newest max_buffers samples
  std::size_t ring_head_ = 0;
  std::size_t ring_count_ = 0;

  std::atomic<std::uint64_t> frames_{0};
  std::atomic<std::uint64_t> dropped_{0};
  std::atomic<std::uint64_t> reconnects_{0};
  std::atomic<std::uint64_t> errors_{0};
  std::atomic<bool> converting_{false};
};

}  // namespace

std::unique_ptr<Source> open_gst_source(GstSourceConfig config, const SourceOptions& options) {
  ensure_gstreamer();
  return std::make_unique<GstSource>(std::move(config), options);
}

}  // namespace vg::io::detail
