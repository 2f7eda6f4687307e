#pragma once
/// @file
/// @brief Frames out to an H.264 video file (.mp4 or .mkv) through GStreamer, with every write error
/// reported. Formats, encoder settings, policies: docs/video-output.md.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "visiongraph/core/status.hpp"
#include "visiongraph/data/types.hpp"

namespace vg::io {

/// @brief Settings of the H.264 encoder (x264enc, tune=zerolatency: no B-frames, no lookahead, so each
/// frame written is encoded at once and a file holds exactly the frames written).
struct H264Options {
  /// x264 preset: ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow.
  std::string speed_preset = "veryfast";
  /// Longest distance between two key frames (a player seeks, a late viewer starts, at a key frame).
  std::chrono::milliseconds key_interval{2000};
  std::uint32_t threads = 2;       ///< encoder threads (0 = one per core)
  std::uint32_t bitrate_kbps = 0;  ///< 0 = constant quality (`quality`); else constant bit rate
  std::uint32_t quality = 23;      ///< constant-quality quantizer, 0 (lossless) .. 51 (worst)
  /// The encoder element: "auto" takes the SoC's hardware H.264 encoder when its GStreamer element exists
  /// (mpph264enc: Rockchip MPP; v4l2h264enc: a V4L2 memory-to-memory encoder), else x264enc (software);
  /// or the name of an element. The settings above are x264's; a hardware encoder gets the key-frame
  /// interval and the bit rate, through whichever of its properties carry them.
  std::string element = "auto";
};

/// @brief How to write a video file.
struct VideoWriterOptions {
  H264Options encoder{};
  /// Frames copied and not yet encoded, at most (a ring of frame memory allocated at open).
  std::uint32_t queue_frames = 8;
  /// How long write() waits for room when `queue_frames` frames are waiting (back-pressure). Past it
  /// the frame is dropped, counted, and write() returns queue_full. 0 = never wait (drop at once).
  std::chrono::milliseconds max_wait{2000};
  /// .mp4 only: a fragmented MP4 with a fragment every this long (playable up to the last complete
  /// fragment after a crash; the index does not grow in memory). 0 = a classic MP4 whose index is
  /// written at close (unplayable if the process dies; its index grows in memory with every frame).
  std::chrono::milliseconds fragment_duration{1000};
};

/// @brief What an open VideoWriter writes.
struct VideoWriterInfo {
  std::string path;
  std::string container;      ///< "mp4" or "mkv"
  std::string encoder;        ///< the H.264 encoder element used: x264enc, mpph264enc, v4l2h264enc, ...
  std::uint32_t width = 0;    ///< as encoded: an odd width or height loses its last column or row
  std::uint32_t height = 0;   ///< (H.264 4:2:0 needs even sizes)
  double fps = 0;
  ImageFormat format = ImageFormat::bgr24;  ///< of the frames write() takes
};

/// @brief Counters of a VideoWriter (read from any thread).
struct VideoWriterStats {
  std::uint64_t written = 0;  ///< frames handed to the encoder
  std::uint64_t dropped = 0;  ///< frames refused because the queue stayed full for max_wait
  std::uint64_t queued = 0;   ///< frames copied and not yet through the encoder, now
};

/// @brief Writes frames as H.264 into an .mp4 (fragmented, see VideoWriterOptions::fragment_duration) or
/// .mkv file: appsrc ! videoconvert ! I420 ! x264enc ! h264parse ! mp4mux|matroskamux ! filesink.
///
/// write() copies the frame into a fixed ring of frame memory (no allocation of frame memory per frame)
/// and returns; the encoder runs on its own GStreamer thread. A failure anywhere (a full disk, an
/// unwritable file, the encoder) makes write() and close() return io_error, and error() names the path
/// and GStreamer's message. close() finishes the file; only its ok means the file is complete.
/// @note write() from one thread at a time. close() from any thread (a write() racing with it returns
/// stopped or lands in the file); stats(), info() and error() from any thread. Do not destroy the
/// writer while another thread is in one of its calls.
/// @code
/// auto video = vg::io::VideoWriter::open("out/annotated.mp4", 720, 528, 25.0, vg::ImageFormat::bgr24);
/// for (...) if (video->write(image.plane(), image.stride(), pts_ns) == vg::Status::io_error) break;
/// if (video->close(std::chrono::seconds(10)) != vg::Status::ok) std::cerr << video->error() << '\n';
/// @endcode
class VideoWriter {
 public:
  /// @brief Creates the file and starts the encoder for frames of @p width x @p height in @p format
  /// (bgr24, rgb24, gray8 or nv12 with its UV plane right after the Y plane) at @p fps.
  /// Throws vg::Error naming @p path when the extension is not .mp4/.mkv, the file cannot be created
  /// (missing directory, not writable), an argument is out of range or a GStreamer plugin is missing.
  static std::unique_ptr<VideoWriter> open(const std::string& path, std::uint32_t width, std::uint32_t height,
                                           double fps, ImageFormat format, const VideoWriterOptions& options = {});
  /// @brief Checks everything open() would (extension, arguments, every GStreamer element, and that the
  /// file's folder exists and is writable) without creating or touching the file: for an application
  /// that must know its outputs will work before it replaces the previous ones. Throws as open() does.
  static void check(const std::string& path, std::uint32_t width, std::uint32_t height, double fps,
                    ImageFormat format, const VideoWriterOptions& options = {});
  /// Finishes the file like close() if that was not called (the result is then only in the log).
  ~VideoWriter();
  VideoWriter(const VideoWriter&) = delete;
  VideoWriter& operator=(const VideoWriter&) = delete;

  /// @brief Copies one frame (plane 0 at @p data, rows @p stride bytes apart) and queues it for the
  /// encoder. @p pts_ns: the frame's time (any origin; the file starts at the first frame's), or -1 to
  /// place it one frame period after the previous one; a time not after the previous frame's is moved
  /// to one period after it. Returns ok; queue_full (dropped, counted) when no room came within
  /// max_wait; io_error after a failure (error() says which); invalid_argument for a null frame or a
  /// stride shorter than a row; stopped after close().
  Status write(const std::uint8_t* data, std::size_t stride, std::int64_t pts_ns) noexcept;

  /// @brief Ends the stream and waits (at most @p timeout) until the muxer finished the file. ok: the
  /// file is complete; io_error: a failure (error()); timeout: the encoder did not finish in time (the
  /// file is cut short). The pipeline is stopped either way. Later calls return the same status.
  Status close(std::chrono::milliseconds timeout = std::chrono::seconds(10)) noexcept;

  /// @brief The first failure: "<path>: <GStreamer message> (<detail>)"; empty when none.
  std::string error() const;
  VideoWriterStats stats() const noexcept;
  const VideoWriterInfo& info() const noexcept;

 private:
  struct State;
  explicit VideoWriter(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace vg::io
