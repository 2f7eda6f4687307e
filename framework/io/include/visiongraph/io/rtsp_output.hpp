#pragma once
/// @file
/// @brief Frames out as a live H.264 RTSP stream, served from inside the process (gst-rtsp-server).
/// Viewers, policies, settings: docs/video-output.md.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "visiongraph/core/status.hpp"
#include "visiongraph/data/types.hpp"
#include "visiongraph/io/video_writer.hpp"

namespace vg::io {

/// @brief Where and how to serve the stream.
struct RtspOutputOptions {
  std::string bind_address = "127.0.0.1";  ///< "0.0.0.0" serves every interface
  std::uint16_t port = 0;                  ///< 0 = any free port (RtspOutput::port() tells which)
  std::string path = "/annotated";         ///< mount point: rtsp://address:port/annotated
  /// Live defaults: the cheapest preset, a key frame every second (a viewer that joins waits at most
  /// that long for a picture; a new viewer also asks for one at once), a bounded bit rate.
  H264Options encoder{"ultrafast", std::chrono::milliseconds(1000), 2, 2000, 23};
  /// Frames copied and not yet encoded, at most; a frame pushed while that many wait is dropped.
  std::uint32_t queue_frames = 4;
};

/// @brief Counters of an RtspOutput (read from any thread).
struct RtspOutputStats {
  std::uint64_t sent = 0;       ///< frames handed to the encoder (some viewer was connected)
  std::uint64_t unwatched = 0;  ///< frames discarded because no viewer was connected
  std::uint64_t dropped = 0;    ///< frames discarded because queue_frames frames were still waiting
  std::uint32_t clients = 0;    ///< RTSP clients connected now
};

/// @brief Serves frames live at rtsp://<bind_address>:<port><path>: one shared media (one encoder for
/// every viewer): appsrc ! videoconvert ! I420 ! x264enc ! rtph264pay, over RTP/UDP or RTP/TCP as each
/// viewer asks.
///
/// push() never blocks: with no viewer it only counts the frame; with viewers it copies the frame into
/// a fixed ring of frame memory and hands it to the media, or drops it (counted) when the ring is full
/// because the encoder is behind. The stream is live: frames are stamped with the stream's clock as
/// they enter the encoder (pts_ns is not used).
/// @note push() from one thread at a time; url(), port(), clients(), stats() and error() from any
/// thread; stop() from any thread (it is also called by the destructor). Do not destroy the output
/// while another thread is in one of its calls.
/// @code
/// auto rtsp = vg::io::RtspOutput::start(720, 528, 25.0, vg::ImageFormat::bgr24);   // port 0: a free one
/// std::cout << "watch: " << rtsp->url() << '\n';                // rtsp://127.0.0.1:PORT/annotated
/// (void)rtsp->push(image.plane(), image.stride(), pts_ns);      // per frame, never blocks
/// rtsp->stop();
/// @endcode
class RtspOutput {
 public:
  /// @brief Listens on the address and port of @p options and serves frames of @p width x @p height in
  /// @p format (bgr24, rgb24, gray8 or nv12 with its UV plane right after the Y plane) at @p fps (the
  /// rate announced to viewers). Throws vg::Error naming the address and port when it cannot listen
  /// (port in use, bad address), or what is wrong with an argument or a missing GStreamer plugin.
  static std::unique_ptr<RtspOutput> start(std::uint32_t width, std::uint32_t height, double fps, ImageFormat format,
                                           const RtspOutputOptions& options = {});
  ~RtspOutput();
  RtspOutput(const RtspOutput&) = delete;
  RtspOutput& operator=(const RtspOutput&) = delete;

  /// @brief Offers one frame (plane 0 at @p data, rows @p stride bytes apart) to the viewers. Returns
  /// ok (sent, or discarded because nobody watches: see stats()); queue_full when dropped because the
  /// encoder is behind; io_error after the media failed (error()); invalid_argument for a null frame
  /// or a short stride; stopped after stop(). @p pts_ns is not used for timing (see the class).
  Status push(const std::uint8_t* data, std::size_t stride, std::int64_t pts_ns) noexcept;

  /// @brief Disconnects every viewer and stops listening, within @p timeout (ok) or timeout.
  Status stop(std::chrono::milliseconds timeout = std::chrono::seconds(5)) noexcept;

  std::string url() const;              ///< rtsp://<bind_address>:<port><path>
  std::string encoder() const;          ///< the H.264 encoder element: x264enc, mpph264enc, v4l2h264enc, ...
  std::uint16_t port() const noexcept;  ///< the port listened on (the chosen one when 0 was asked)
  std::uint32_t clients() const noexcept;
  RtspOutputStats stats() const noexcept;
  /// @brief The media's last failure, "<url>: <GStreamer message> (<detail>)"; empty when none.
  std::string error() const;

 private:
  struct State;
  explicit RtspOutput(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace vg::io
