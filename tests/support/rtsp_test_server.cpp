#include "rtsp_test_server.hpp"

#include <gst/gst.h>
#include <gst/rtsp-server/rtsp-server.h>

#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>

namespace vg::test {

struct RtspTestServer::State {
  std::string media;
  std::string path;
  std::uint16_t port = 0;  // 0 until the first start() bound one
  GMainContext* context = nullptr;
  GMainLoop* loop = nullptr;
  GstRTSPServer* server = nullptr;
  GSource* listener = nullptr;
  std::thread thread;
};

namespace {

constexpr auto kLoopCallTimeout = std::chrono::seconds(5);

// Runs @p fn on the server's loop thread and waits for it (bounded).
template <class Fn>
void run_on_loop(GMainContext* context, Fn fn) {
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
  if (done.wait_for(kLoopCallTimeout) != std::future_status::ready)
    throw std::runtime_error("RTSP test server: its main loop did not answer");
}

}  // namespace

RtspTestServer::RtspTestServer(std::string media, std::string path) : state_(std::make_unique<State>()) {
  gst_init(nullptr, nullptr);  // idempotent
  state_->media = std::move(media);
  state_->path = std::move(path);
}

RtspTestServer::~RtspTestServer() {
  try {
    stop();
  } catch (...) {  // a destructor does not throw; the loop thread is gone or stuck either way
  }
}

std::string RtspTestServer::file_media(const std::string& avi_path) {
  // identity sync=true paces the file at its frame rate, as a camera would send it (without it the
  // server sends the whole file as fast as it can read it).
  return "( filesrc location=\"" + avi_path + "\" ! avidemux ! identity sync=true ! queue ! rtpmp4vpay name=pay0 pt=96 config-interval=1 )";
}

std::string RtspTestServer::test_pattern_media(int fps, int width, int height) {
  return "( videotestsrc is-live=true pattern=ball ! video/x-raw,format=I420,width=" + std::to_string(width) +
         ",height=" + std::to_string(height) + ",framerate=" + std::to_string(fps) +
         "/1 ! jpegenc quality=60 ! rtpjpegpay name=pay0 pt=26 )";
}

void RtspTestServer::start() {
  if (running()) return;
  State& s = *state_;
  s.context = g_main_context_new();
  s.loop = g_main_loop_new(s.context, FALSE);
  s.server = gst_rtsp_server_new();
  gst_rtsp_server_set_address(s.server, "127.0.0.1");
  gst_rtsp_server_set_service(s.server, std::to_string(s.port).c_str());  // "0": any free port
  // Serve clients on the server's own thread (the default pool gives each a thread): stop() closes
  // them from that thread, never while another thread is dispatching their connection.
  GstRTSPThreadPool* threads = gst_rtsp_server_get_thread_pool(s.server);
  gst_rtsp_thread_pool_set_max_threads(threads, 0);
  g_object_unref(threads);

  GstRTSPMountPoints* mounts = gst_rtsp_server_get_mount_points(s.server);
  GstRTSPMediaFactory* factory = gst_rtsp_media_factory_new();
  gst_rtsp_media_factory_set_launch(factory, s.media.c_str());
  gst_rtsp_media_factory_set_shared(factory, FALSE);  // each client gets its own media from the start
  gst_rtsp_mount_points_add_factory(mounts, s.path.c_str(), factory);  // takes the factory
  g_object_unref(mounts);

  GError* error = nullptr;
  s.listener = gst_rtsp_server_create_source(s.server, nullptr, &error);
  if (s.listener == nullptr) {
    std::string why = error ? error->message : "unknown reason";
    if (error) g_error_free(error);
    g_object_unref(s.server);
    s.server = nullptr;
    g_main_loop_unref(s.loop);
    s.loop = nullptr;
    g_main_context_unref(s.context);
    s.context = nullptr;
    throw std::runtime_error("RTSP test server cannot listen on 127.0.0.1:" + std::to_string(s.port) + ": " + why);
  }
  g_source_attach(s.listener, s.context);
  s.port = static_cast<std::uint16_t>(gst_rtsp_server_get_bound_port(s.server));
  s.thread = std::thread([context = s.context, loop = s.loop] {
    g_main_context_push_thread_default(context);
    g_main_loop_run(loop);
    g_main_context_pop_thread_default(context);
  });
}

void RtspTestServer::stop() {
  if (!running()) return;
  State& s = *state_;
  std::exception_ptr failure;
  try {
    run_on_loop(s.context, [&s] {
      // Clients and their sessions go now, so their media stop streaming (as if the camera died).
      gst_rtsp_server_client_filter(
          s.server, [](GstRTSPServer*, GstRTSPClient*, gpointer) { return GST_RTSP_FILTER_REMOVE; }, nullptr);
      GstRTSPSessionPool* sessions = gst_rtsp_server_get_session_pool(s.server);
      GList* kept = gst_rtsp_session_pool_filter(
          sessions, [](GstRTSPSessionPool*, GstRTSPSession*, gpointer) { return GST_RTSP_FILTER_REMOVE; }, nullptr);
      g_list_free_full(kept, g_object_unref);
      g_object_unref(sessions);
      g_source_destroy(s.listener);
    });
  } catch (...) {
    failure = std::current_exception();
  }
  g_main_loop_quit(s.loop);
  s.thread.join();
  g_source_unref(s.listener);
  s.listener = nullptr;
  g_object_unref(s.server);
  s.server = nullptr;
  g_main_loop_unref(s.loop);
  s.loop = nullptr;
  g_main_context_unref(s.context);
  s.context = nullptr;
  if (failure) std::rethrow_exception(failure);
}

bool RtspTestServer::running() const noexcept { return state_->thread.joinable(); }

std::uint16_t RtspTestServer::port() const noexcept { return state_->port; }

std::string RtspTestServer::url() const {
  return "rtsp://127.0.0.1:" + std::to_string(state_->port) + state_->path;
}

}  // namespace vg::test
