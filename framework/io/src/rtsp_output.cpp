// RtspOutput: gst-rtsp-server on its own GMainLoop thread, one shared media
//   ( appsrc name=vgsrc ! videoconvert ! video/x-raw,format=I420 [! videocrop] ! ENCODER name=vgenc
//     ! rtph264pay name=pay0 config-interval=-1 )
// created when the first viewer asks for it and unprepared when the last one leaves.
//
// Threads. The server thread runs every server and client callback (media-configure, client-connected,
// closed, play-request): clients are not given threads of their own. The media's "unprepared" may come from a media thread. push() comes from the
// caller's thread. `mutex` guards the current media's elements; push() takes a reference to the
// appsrc under it and copies and pushes outside it, so it never waits for GStreamer.
//
// Timing. The stream is live: each frame is stamped with the media's running time when it leaves
// appsrc (a pad probe, see stamp_running_time). Frames pushed while the media prepares wait in appsrc
// (the ring bounds them) and feed its preroll.

#include <gst/app/gstappsrc.h>
#include <gst/gst.h>
#include <gst/rtsp-server/rtsp-server.h>
#include <gst/video/video.h>

#include <atomic>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "gst_init.hpp"
#include "h264_encoding.hpp"
#include "visiongraph/core/error.hpp"
#include "visiongraph/io/rtsp_output.hpp"

namespace vg::io {

namespace {

using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kMaxQueueFrames = 64;

// Runs @p fn on the thread of @p context and waits for it until @p deadline. False when it did not run
// in time (then it may still run later: it must only touch what outlives the wait).
template <class Fn>
bool run_on_loop(GMainContext* context, Fn fn, Clock::time_point deadline) {
  struct Call {
    Fn fn;
    std::promise<void> done;
  };
  auto* call = new Call{std::move(fn), {}};
  std::future<void> done = call->done.get_future();
  g_main_context_invoke_full(
      context, G_PRIORITY_DEFAULT,
      [](gpointer data) -> gboolean {
        auto* c = static_cast<Call*>(data);
        c->fn();
        c->done.set_value();
        return G_SOURCE_REMOVE;
      },
      call, [](gpointer data) { delete static_cast<Call*>(data); });
  return done.wait_until(deadline) == std::future_status::ready;
}

std::string host_for_url(const std::string& address) {
  return address.find(':') != std::string::npos ? "[" + address + "]" : address;
}

}  // namespace

struct RtspOutput::State {
  RtspOutputOptions options;
  GstVideoInfo layout{};
  std::size_t min_stride = 0;
  double fps = 0;
  std::int64_t frame_ns = 0;
  std::string url;
  std::string encoder_name;  // the H.264 encoder element (detail::choose_h264_encoder), chosen by start()
  std::uint16_t port = 0;

  GMainContext* context = nullptr;
  GMainLoop* loop = nullptr;
  GstRTSPServer* server = nullptr;
  GstRTSPMediaFactory* factory = nullptr;  // our reference; the mount points hold another
  GSource* listener = nullptr;
  std::thread thread;
  detail::FrameRing* ring = nullptr;

  mutable std::mutex mutex;  // guards the fields below; `media_gone` waits on it
  std::condition_variable media_gone;
  GstRTSPMedia* media = nullptr;  // the shared media while it is prepared
  GstElement* appsrc = nullptr;
  GstElement* encoder = nullptr;
  bool media_failed = false;
  std::string error_text;

  std::atomic<bool> stopping{false};
  std::atomic<std::uint32_t> clients{0};
  std::atomic<std::uint64_t> sent{0};
  std::atomic<std::uint64_t> unwatched{0};
  std::atomic<std::uint64_t> dropped{0};

  std::mutex stop_mutex;  // one stop() at a time; guards stopped and stop_status
  bool stopped = false;
  Status stop_status = Status::ok;

  // ---- the media (server thread, except on_media_unprepared and on_media_bus_message) -------------

  static void on_media_configure(GstRTSPMediaFactory*, GstRTSPMedia* media, gpointer self) {
    auto* s = static_cast<State*>(self);
    GstElement* bin = gst_rtsp_media_get_element(media);
    GstElement* source = gst_bin_get_by_name_recurse_up(GST_BIN(bin), "vgsrc");
    GstElement* encoder_element = gst_bin_get_by_name_recurse_up(GST_BIN(bin), "vgenc");
    GstCaps* caps = detail::raw_video_caps(s->layout);
    // Live, never blocking: the ring bounds what waits in appsrc, so its own limit is off.
    g_object_set(source, "caps", caps, "format", GST_FORMAT_TIME, "is-live", TRUE, "block", FALSE, "max-bytes",
                 static_cast<guint64>(0), "emit-signals", FALSE, nullptr);
    gst_caps_unref(caps);
    if (GstPad* pad = gst_element_get_static_pad(source, "src"); pad != nullptr) {
      gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, &State::stamp_running_time, nullptr, nullptr);
      gst_object_unref(pad);
    }
    try {
      detail::configure_h264_encoder(encoder_element, s->encoder_name, s->options.encoder, s->fps, s->url);
    } catch (...) {  // checked by start() already: cannot happen
    }
    if (GstObject* pipeline = gst_object_get_parent(GST_OBJECT(bin)); pipeline != nullptr) {
      GstBus* bus = gst_element_get_bus(GST_ELEMENT(pipeline));
      gst_bus_set_sync_handler(bus, &State::on_media_bus_message, s, nullptr);
      gst_object_unref(bus);
      gst_object_unref(pipeline);
    }
    gst_object_unref(bin);
    g_signal_connect(media, "unprepared", G_CALLBACK(&State::on_media_unprepared), s);

    std::lock_guard lock(s->mutex);
    s->forget_media_locked();  // a previous media still unpreparing: push() uses the new one
    s->media = GST_RTSP_MEDIA(g_object_ref(media));
    s->appsrc = source;
    s->encoder = encoder_element;
    s->media_failed = false;
  }

  // Stamps a frame with the media's running time as it leaves appsrc. This runs on appsrc's streaming
  // thread, which a live source only runs while playing, when its clock and base time are both set.
  // Stamping in push() (as appsrc's do-timestamp does) races with the media's state changes: a frame
  // pushed while the media starts can get the clock set and the base time not yet, so its time is the
  // absolute clock time, hours ahead, and the sinks wait for it.
  static GstPadProbeReturn stamp_running_time(GstPad* pad, GstPadProbeInfo* info, gpointer) {
    GstElement* source = GST_ELEMENT(GST_PAD_PARENT(pad));
    GstClock* clock = gst_element_get_clock(source);
    if (clock == nullptr) return GST_PAD_PROBE_OK;
    const GstClockTime now = gst_clock_get_time(clock);
    gst_object_unref(clock);
    const GstClockTime base = gst_element_get_base_time(source);
    GstBuffer* buffer = gst_buffer_make_writable(GST_PAD_PROBE_INFO_BUFFER(info));  // ours alone: no copy
    GST_BUFFER_PTS(buffer) = now > base ? now - base : 0;
    GST_PAD_PROBE_INFO_DATA(info) = buffer;
    return GST_PAD_PROBE_OK;
  }

  static void on_media_unprepared(GstRTSPMedia* media, gpointer self) {
    auto* s = static_cast<State*>(self);
    detach(media, s);  // the pipeline is stopped: no streaming thread posts on its bus any more
    std::lock_guard lock(s->mutex);
    if (s->media == media) s->forget_media_locked();
    // Notified under the lock: once it is released, stop() may return and the state be gone.
    s->media_gone.notify_all();
  }

  // Our bus handler and signal handlers leave @p media.
  static void detach(GstRTSPMedia* media, State* s) {
    GstElement* bin = gst_rtsp_media_get_element(media);
    if (GstObject* pipeline = gst_object_get_parent(GST_OBJECT(bin)); pipeline != nullptr) {
      GstBus* bus = gst_element_get_bus(GST_ELEMENT(pipeline));
      gst_bus_set_sync_handler(bus, nullptr, nullptr, nullptr);
      gst_object_unref(bus);
      gst_object_unref(pipeline);
    }
    gst_object_unref(bin);
    g_signal_handlers_disconnect_by_data(media, s);
  }

  static GstBusSyncReply on_media_bus_message(GstBus*, GstMessage* message, gpointer self) {
    if (GST_MESSAGE_TYPE(message) == GST_MESSAGE_ERROR) {
      auto* s = static_cast<State*>(self);
      std::string text = detail::describe_gst_message(s->url, message);
      std::lock_guard lock(s->mutex);
      s->media_failed = true;
      s->error_text = std::move(text);
    }
    return GST_BUS_PASS;  // gst-rtsp-server handles every message as usual
  }

  void forget_media_locked() noexcept {
    if (appsrc != nullptr) gst_object_unref(std::exchange(appsrc, nullptr));
    if (encoder != nullptr) gst_object_unref(std::exchange(encoder, nullptr));
    if (media != nullptr) g_object_unref(std::exchange(media, nullptr));
  }

  // ---- clients (server thread) ---------------------------------------------------------------------

  static void on_client_connected(GstRTSPServer*, GstRTSPClient* client, gpointer self) {
    auto* s = static_cast<State*>(self);
    s->clients.fetch_add(1);
    g_signal_connect(client, "closed", G_CALLBACK(&State::on_client_closed), s);
    g_signal_connect(client, "play-request", G_CALLBACK(&State::on_play_request), s);
  }

  static void on_client_closed(GstRTSPClient* client, gpointer self) {
    auto* s = static_cast<State*>(self);
    g_signal_handlers_disconnect_by_data(client, s);
    s->clients.fetch_sub(1);
  }

  // A viewer that joins a running shared media gets a key frame now rather than at the next interval.
  static void on_play_request(GstRTSPClient*, GstRTSPContext*, gpointer self) {
    auto* s = static_cast<State*>(self);
    GstElement* x264 = nullptr;
    {
      std::lock_guard lock(s->mutex);
      if (s->encoder != nullptr) x264 = GST_ELEMENT(gst_object_ref(s->encoder));
    }
    if (x264 == nullptr) return;
    if (GstPad* pad = gst_element_get_static_pad(x264, "src"); pad != nullptr) {
      gst_pad_send_event(pad, gst_video_event_new_upstream_force_key_unit(GST_CLOCK_TIME_NONE, TRUE, 0));
      gst_object_unref(pad);
    }
    gst_object_unref(x264);
  }

  static GstRTSPFilterResult remove_client(GstRTSPServer*, GstRTSPClient* client, gpointer self) {
    g_signal_handlers_disconnect_by_data(client, self);  // its "closed" is not counted: stop() zeroes the count
    return GST_RTSP_FILTER_REMOVE;
  }

  // ---- lifetime ------------------------------------------------------------------------------------

  void listen() {
    context = g_main_context_new();
    loop = g_main_loop_new(context, FALSE);
    server = gst_rtsp_server_new();
    gst_rtsp_server_set_address(server, options.bind_address.c_str());
    gst_rtsp_server_set_service(server, std::to_string(options.port).c_str());  // "0": any free port
    g_signal_connect(server, "client-connected", G_CALLBACK(&State::on_client_connected), this);
    // Clients are served on the server thread too (the default pool gives them a thread of their own):
    // stop() closes them from that thread, never while another thread dispatches their connection.
    GstRTSPThreadPool* threads = gst_rtsp_server_get_thread_pool(server);
    gst_rtsp_thread_pool_set_max_threads(threads, 0);
    g_object_unref(threads);

    factory = gst_rtsp_media_factory_new();
    std::string launch = "( appsrc name=vgsrc ! videoconvert ! " + detail::encoder_input_caps(layout) + " ! ";
    const auto even_width = static_cast<gint>(GST_VIDEO_INFO_WIDTH(&layout)) & ~1;
    const auto even_height = static_cast<gint>(GST_VIDEO_INFO_HEIGHT(&layout)) & ~1;
    if (even_width != GST_VIDEO_INFO_WIDTH(&layout) || even_height != GST_VIDEO_INFO_HEIGHT(&layout))
      launch += "videocrop right=" + std::to_string(GST_VIDEO_INFO_WIDTH(&layout) - even_width) +
                " bottom=" + std::to_string(GST_VIDEO_INFO_HEIGHT(&layout) - even_height) + " ! ";
    launch += encoder_name + " name=vgenc ! rtph264pay name=pay0 pt=96 config-interval=-1 )";
    gst_rtsp_media_factory_set_launch(factory, launch.c_str());
    gst_rtsp_media_factory_set_shared(factory, TRUE);  // one pipeline, one encoder, for every viewer
    g_signal_connect(factory, "media-configure", G_CALLBACK(&State::on_media_configure), this);
    GstRTSPMountPoints* mounts = gst_rtsp_server_get_mount_points(server);
    gst_rtsp_mount_points_add_factory(mounts, options.path.c_str(), GST_RTSP_MEDIA_FACTORY(g_object_ref(factory)));
    g_object_unref(mounts);

    GError* error = nullptr;
    listener = gst_rtsp_server_create_source(server, nullptr, &error);
    if (listener == nullptr) {
      const std::string why = error ? error->message : "unknown reason";
      if (error) g_error_free(error);
      throw Error("RTSP output: cannot listen on " + host_for_url(options.bind_address) + ":" +
                  std::to_string(options.port) + ": " + why);
    }
    g_source_attach(listener, context);
    port = static_cast<std::uint16_t>(gst_rtsp_server_get_bound_port(server));
    url = "rtsp://" + host_for_url(options.bind_address) + ":" + std::to_string(port) + options.path;
    thread = std::thread([ctx = context, main_loop = loop] {
      g_main_context_push_thread_default(ctx);
      g_main_loop_run(main_loop);
      g_main_context_pop_thread_default(ctx);
    });
  }

  // Frees whatever exists; the loop thread must be gone (or never started).
  void release() noexcept {
    {
      std::lock_guard lock(mutex);
      if (media != nullptr) detach(media, this);  // stop() timed out: it will never tell us again
      forget_media_locked();
    }
    if (listener != nullptr) {
      g_source_destroy(listener);
      g_source_unref(std::exchange(listener, nullptr));
    }
    if (factory != nullptr) {
      g_signal_handlers_disconnect_by_data(factory, this);
      g_object_unref(std::exchange(factory, nullptr));
    }
    if (server != nullptr) {
      g_signal_handlers_disconnect_by_data(server, this);
      g_object_unref(std::exchange(server, nullptr));
    }
    if (loop != nullptr) g_main_loop_unref(std::exchange(loop, nullptr));
    if (context != nullptr) g_main_context_unref(std::exchange(context, nullptr));
    detail::FrameRing::retire(std::exchange(ring, nullptr));
  }
};

RtspOutput::RtspOutput(std::unique_ptr<State> state) : state_(std::move(state)) {}

std::unique_ptr<RtspOutput> RtspOutput::start(std::uint32_t width, std::uint32_t height, double fps,
                                              ImageFormat format, const RtspOutputOptions& options) {
  detail::ensure_gstreamer();
  const std::string what = "RTSP output " + host_for_url(options.bind_address) + ":" + std::to_string(options.port) +
                           options.path;
  if (options.path.size() < 2 || options.path.front() != '/' || options.path.find_first_of(" ?#") != std::string::npos)
    throw Error(what + ": the mount path must start with '/' and name something (no spaces, '?' or '#')");
  if (options.queue_frames == 0 || options.queue_frames > kMaxQueueFrames)
    throw Error(what + ": queue_frames must be 1.." + std::to_string(kMaxQueueFrames) + ", got " +
                std::to_string(options.queue_frames));
  auto state = std::make_unique<State>();
  State& s = *state;
  s.options = options;
  s.fps = fps;
  s.layout = detail::raw_video_layout(what, width, height, fps, format);
  if (width < 2 || height < 2)
    throw Error(what + ": frames of " + std::to_string(width) + "x" + std::to_string(height) +
                " are too small for H.264 (2x2 at least)");
  s.min_stride = detail::packed_row_bytes(s.layout);
  s.frame_ns = static_cast<std::int64_t>(
      gst_util_uint64_scale_round(GST_SECOND, static_cast<guint64>(GST_VIDEO_INFO_FPS_D(&s.layout)),
                                  static_cast<guint64>(GST_VIDEO_INFO_FPS_N(&s.layout))));

  // The media is built only when a viewer comes: check now what it will need, so that a missing
  // plugin or a bad setting fails here and not in front of the first viewer.
  struct Needed {
    const char* factory;
    const char* package;
  };
  for (const Needed& needed : {Needed{"appsrc", "gstreamer1.0-plugins-base"}, Needed{"videoconvert", "gstreamer1.0-plugins-base"},
                               Needed{"videocrop", "gstreamer1.0-plugins-good"},
                               Needed{"rtph264pay", "gstreamer1.0-plugins-good"}}) {
    GstElementFactory* found = gst_element_factory_find(needed.factory);
    if (found == nullptr)
      throw Error(what + ": the GStreamer element '" + needed.factory + "' is missing (Debian package " +
                  needed.package + ")");
    gst_object_unref(found);
  }
  s.encoder_name = detail::choose_h264_encoder(options.encoder.element, what);
  GstElement* probe = gst_element_factory_make(s.encoder_name.c_str(), nullptr);
  if (probe == nullptr) throw Error(what + ": cannot create the H.264 encoder '" + s.encoder_name + "'");
  try {
    detail::configure_h264_encoder(probe, s.encoder_name, options.encoder, fps, what);
  } catch (...) {
    gst_object_unref(probe);
    throw;
  }
  gst_object_unref(probe);

  try {
    s.ring = detail::FrameRing::create(options.queue_frames, GST_VIDEO_INFO_SIZE(&s.layout));
    s.listen();
  } catch (...) {
    s.release();
    throw;
  }
  return std::unique_ptr<RtspOutput>(new RtspOutput(std::move(state)));
}

RtspOutput::~RtspOutput() { (void)stop(); }

Status RtspOutput::push(const std::uint8_t* data, std::size_t stride, std::int64_t /*pts_ns*/) noexcept {
  State& s = *state_;
  if (s.stopping.load()) return Status::stopped;
  if (data == nullptr || stride < s.min_stride) return Status::invalid_argument;
  GstElement* source = nullptr;
  {
    std::lock_guard lock(s.mutex);
    if (s.media_failed && s.appsrc != nullptr) return Status::io_error;
    if (s.appsrc != nullptr) source = GST_ELEMENT(gst_object_ref(s.appsrc));
  }
  if (source == nullptr) {  // nobody watches: the cheap path
    s.unwatched.fetch_add(1, std::memory_order_relaxed);
    return Status::ok;
  }
  GstBuffer* buffer = s.ring->try_acquire();
  if (buffer == nullptr) {
    gst_object_unref(source);
    s.dropped.fetch_add(1, std::memory_order_relaxed);
    return Status::queue_full;
  }
  GstMapInfo map;
  if (!gst_buffer_map(buffer, &map, GST_MAP_WRITE)) {  // plain system memory: does not happen
    gst_buffer_unref(buffer);
    gst_object_unref(source);
    return Status::error;
  }
  detail::copy_frame(s.layout, data, stride, map.data);
  gst_buffer_unmap(buffer, &map);
  // No PTS here: stamp_running_time() sets it when the frame leaves appsrc.
  GST_BUFFER_DURATION(buffer) = static_cast<GstClockTime>(s.frame_ns);
  const GstFlowReturn flow = gst_app_src_push_buffer(GST_APP_SRC(source), buffer);  // takes the buffer
  gst_object_unref(source);
  if (flow == GST_FLOW_OK)
    s.sent.fetch_add(1, std::memory_order_relaxed);
  else  // the media is going away (its last viewer left)
    s.unwatched.fetch_add(1, std::memory_order_relaxed);
  return Status::ok;
}

Status RtspOutput::stop(std::chrono::milliseconds timeout) noexcept {
  State& s = *state_;
  std::lock_guard stop_lock(s.stop_mutex);
  if (s.stopped) return s.stop_status;
  s.stopping.store(true);
  const auto deadline = Clock::now() + timeout;
  Status status = Status::ok;
  // Clients and their sessions go now; the shared media is unprepared with its last session.
  const bool answered = run_on_loop(
      s.context,
      [&s] {
        g_signal_handlers_disconnect_by_data(s.server, &s);
        g_signal_handlers_disconnect_by_data(s.factory, &s);
        gst_rtsp_server_client_filter(s.server, &State::remove_client, &s);
        GstRTSPSessionPool* sessions = gst_rtsp_server_get_session_pool(s.server);
        GList* kept = gst_rtsp_session_pool_filter(
            sessions, [](GstRTSPSessionPool*, GstRTSPSession*, gpointer) { return GST_RTSP_FILTER_REMOVE; }, nullptr);
        g_list_free_full(kept, g_object_unref);
        g_object_unref(sessions);
        g_source_destroy(s.listener);
      },
      deadline);
  if (!answered) status = Status::timeout;
  {
    std::unique_lock lock(s.mutex);
    if (!s.media_gone.wait_until(lock, deadline, [&] { return s.media == nullptr; })) status = Status::timeout;
  }
  s.clients.store(0);
  g_main_loop_quit(s.loop);
  s.thread.join();
  s.release();
  s.stopped = true;
  s.stop_status = status;
  return status;
}

std::string RtspOutput::url() const { return state_->url; }

std::string RtspOutput::encoder() const { return state_->encoder_name; }

std::uint16_t RtspOutput::port() const noexcept { return state_->port; }

std::uint32_t RtspOutput::clients() const noexcept { return state_->clients.load(); }

RtspOutputStats RtspOutput::stats() const noexcept {
  RtspOutputStats stats;
  stats.sent = state_->sent.load(std::memory_order_relaxed);
  stats.unwatched = state_->unwatched.load(std::memory_order_relaxed);
  stats.dropped = state_->dropped.load(std::memory_order_relaxed);
  stats.clients = state_->clients.load();
  return stats;
}

std::string RtspOutput::error() const {
  std::lock_guard lock(state_->mutex);
  return state_->error_text;
}

}  // namespace vg::io
