#pragma once
/// @file
/// @brief Where `visiongraph run` reads frames: an image, a directory of images, a video file or a camera.

#include <opencv2/core.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace vg::cli {

/// @brief A sequence of BGR frames. Not thread-safe (read from one thread).
/// @code
/// auto src = vg::cli::FrameSource::open("Megamind.avi");
/// cv::Mat frame; while (src->read(frame)) { ... }
/// @endcode
class FrameSource {
 public:
  virtual ~FrameSource() = default;
  /// @brief Open @p spec: an image file, a directory of images, a video file, /dev/videoN or a camera
  /// index. Throws std::runtime_error with a message naming @p spec.
  static std::unique_ptr<FrameSource> open(const std::string& spec);

  /// @brief Next frame (BGR, 8-bit, 3 channels). False at the end.
  virtual bool read(cv::Mat& frame) = 0;
  /// @brief Size of the first frame.
  virtual cv::Size size() const = 0;
  /// @brief Frames per second of the source; 0 when unknown.
  virtual double fps() const = 0;
  /// @brief Number of frames, or -1 when unknown (cameras, some containers).
  virtual std::int64_t length() const = 0;
  /// @brief True for cameras (they never wait for the application).
  virtual bool live() const = 0;
  /// @brief True for image inputs (outputs are written as images, not as a video).
  virtual bool images() const = 0;
  /// @brief Name of the frame last read (file stem for images, "frame_N" otherwise).
  virtual std::string frame_name() const = 0;
  /// @brief Media time of the frame last read (ns), for file sources; 0 when unknown.
  virtual std::int64_t frame_time_ns() const = 0;
};

}  // namespace vg::cli
