#pragma once
/// @file
/// @brief Where frames come from: image files, video files, RTSP/HTTP streams, V4L2 cameras and any
/// GStreamer pipeline ending in an appsink. Syntax of a source spec: docs/sources.md.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "visiongraph/core/status.hpp"
#include "visiongraph/data/types.hpp"
#include "visiongraph/io/frame.hpp"

namespace vg::io {

/// @brief What kind of input a spec names.
enum class SourceKind : std::uint8_t {
  image,       ///< one image file (OpenCV imread)
  image_dir,   ///< a directory of images, sorted by name
  video_file,  ///< a video file (GStreamer uridecodebin)
  rtsp,        ///< rtsp://... (GStreamer rtspsrc through uridecodebin)
  http,        ///< http(s)://...
  v4l2,        ///< /dev/videoN (GStreamer v4l2src)
  pipeline,    ///< gst:<launch line ending in an appsink>
};
std::string_view to_string(SourceKind kind) noexcept;

/// @brief How to open a source.
struct SourceOptions {
  /// Pixel format the consumer wants. The source asks for it in its caps, so a format the upstream
  /// already produces (a camera's NV12) passes untouched; anything else goes through one explicit
  /// conversion (GStreamer videoconvert), reported in SourceStats::converting. Pipelines (gst:) are
  /// taken as they are: their appsink caps decide.
  ImageFormat format = ImageFormat::bgr24;
  std::uint32_t width = 0;   ///< 0 = as the source delivers (else scaled, reported as a conversion)
  std::uint32_t height = 0;
  /// Frames the source may hold for the consumer at once (appsink max-buffers); a live source drops
  /// the oldest beyond that and counts it in SourceStats::dropped.
  std::uint32_t max_buffers = 4;
  /// Live sources only: reconnect after an error or end of stream, with exponential backoff.
  bool reconnect = false;
  std::chrono::milliseconds reconnect_initial{250};
  std::chrono::milliseconds reconnect_max{5000};
  int reconnect_attempts = -1;  ///< -1 = for ever
  /// DMA-BUF frames are also mapped for the CPU (block.data set). false: they carry only the fd, offset
  /// and strides (no mmap per frame), for graphs whose input is device-only memory (an NPU consumer);
  /// frames in host memory are mapped either way.
  bool map_dmabuf = true;
  /// How long open() waits for the first frame's caps (an unreachable server fails after this).
  std::chrono::milliseconds open_timeout{10000};
};

/// @brief Facts about an opened source.
struct SourceInfo {
  std::string spec;            ///< as given, for messages
  SourceKind kind = SourceKind::video_file;
  ImageFormat format = ImageFormat::bgr24;  ///< of the frames read() delivers
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  double fps = 0;              ///< 0 when unknown
  std::int64_t length = -1;    ///< frames, -1 when unknown (streams, cameras)
  bool live = false;           ///< cameras and network streams: they do not wait for the consumer
  bool dmabuf = false;         ///< frames arrive as DMA-BUF memory
};

/// @brief Counters of a source (read from any thread).
struct SourceStats {
  std::uint64_t frames = 0;       ///< delivered by read()
  std::uint64_t dropped = 0;      ///< lost inside the source because the consumer was slower (live)
  std::uint64_t reconnects = 0;
  std::uint64_t errors = 0;       ///< errors reported by the pipeline (each named in error())
  bool converting = false;        ///< frames pass through a format/size conversion before delivery
  std::uint64_t leases_out = 0;   ///< frames delivered and not yet released
};

/// @brief A stream of frames. read() from one thread; close(), stats() and error() from any.
/// @code
/// auto src = vg::io::Source::open("rtsp://127.0.0.1:8554/cam", {});
/// vg::io::Frame f;
/// while (src->read(f, std::chrono::seconds(5)) == vg::Status::ok) consume(std::move(f));
/// if (!src->error().empty()) std::cerr << src->error() << '\n';
/// @endcode
class Source {
 public:
  virtual ~Source() = default;
  /// @brief Open @p spec: an image, a directory of images, a video file, rtsp://, http(s)://,
  /// /dev/videoN or "gst:<pipeline ending in appsink>". Waits for the first caps (open_timeout).
  /// Throws vg::Error naming the spec and what is wrong (not found, unreachable, no decoder, caps).
  static std::unique_ptr<Source> open(std::string_view spec, const SourceOptions& options = {});

  virtual const SourceInfo& info() const noexcept = 0;
  /// @brief Next frame. ok; end_of_stream at the normal end; timeout when nothing came in time;
  /// io_error when the source failed (error() says why, naming the source); stopped after close();
  /// busy when every frame the source can lend (max_buffers + a few) is still leased: release one.
  /// With `reconnect`, a live source that delivers nothing for open_timeout is reconnected.
  virtual Status read(Frame& out, std::chrono::nanoseconds timeout) noexcept = 0;
  /// @brief Last error, naming the source ("rtsp://...: Could not connect to server"); empty if none.
  virtual std::string error() const = 0;
  virtual SourceStats stats() const noexcept = 0;
  /// @brief Stop producing; a blocked read() returns stopped. Frames still leased stay valid until
  /// released, also after the Source object is destroyed (they keep what they need alive).
  virtual void close() noexcept = 0;
};

}  // namespace vg::io
