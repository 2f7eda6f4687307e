#pragma once
/// @file
/// @brief A real RTSP server (gst-rtsp-server) inside the test process, on 127.0.0.1, for source tests.

#include <cstdint>
#include <memory>
#include <string>

namespace vg::test {

/// @brief Serves one media at rtsp://127.0.0.1:PORT/PATH from its own GMainLoop thread. The first start()
/// binds a free port; later start() calls (after stop()) bind the same port again, as a restarted
/// camera would. start() and stop() return within a few seconds or throw.
/// @code
/// auto server = vg::test::RtspTestServer(vg::test::RtspTestServer::file_media("Megamind.avi"));
/// server.start();
/// auto src = vg::io::Source::open(server.url(), {});
/// @endcode
class RtspTestServer {
 public:
  /// @param media a gst-rtsp-server launch line, "( ... ! <payloader> name=pay0 )"
  explicit RtspTestServer(std::string media, std::string path = "/test");
  ~RtspTestServer();
  RtspTestServer(const RtspTestServer&) = delete;
  RtspTestServer& operator=(const RtspTestServer&) = delete;

  /// The AVI file's MPEG-4 video, sent as it is (no re-encoding), paced at its own frame rate.
  static std::string file_media(const std::string& avi_path);
  /// A live test pattern, JPEG over RTP, at @p fps.
  static std::string test_pattern_media(int fps, int width = 320, int height = 240);

  void start();  ///< throws std::runtime_error when the server cannot listen
  void stop();   ///< closes every client and session, then stops listening
  bool running() const noexcept;
  std::uint16_t port() const noexcept;
  std::string url() const;  ///< rtsp://127.0.0.1:PORT/PATH

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace vg::test
