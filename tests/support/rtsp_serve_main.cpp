// vg_test_rtsp_serve FILE.avi: serves the file over RTSP on 127.0.0.1 (a free port) in its own process,
// prints the URL on one line and serves until killed. A test can then freeze the server (SIGSTOP), as a
// hung camera would be, without stopping its own process.
#include <unistd.h>

#include <cstdio>
#include <exception>

#include "rtsp_test_server.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: vg_test_rtsp_serve FILE.avi\n");
    return 2;
  }
  try {
    vg::test::RtspTestServer server(vg::test::RtspTestServer::file_media(argv[1]));
    server.start();
    std::printf("%s\n", server.url().c_str());
    std::fflush(stdout);
    for (;;) ::pause();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "vg_test_rtsp_serve: %s\n", e.what());
    return 1;
  }
}
