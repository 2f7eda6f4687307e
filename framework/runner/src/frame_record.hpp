#pragma once
// What a run writes about one frame besides its results, from the frame's read until its line is out.
#include <array>
#include <cstdint>

#include "visiongraph/io/frame.hpp"

namespace vg::runner {

/// What the JSON line of one frame says besides its detections.
struct FrameRecord {
  std::int64_t timestamp_ns = 0;  ///< media time for files and streams, else time since the run started
  std::int64_t capture_ns = 0;    ///< monotonic capture time (0 unknown)
  std::int64_t latency_ns = 0;    ///< capture -> detections done (0 unknown)
  double scale_x = 1.0;  ///< source pixels per graph-input pixel
  double scale_y = 1.0;
  std::array<char, io::kMaxFrameName + 1> file{};  ///< image inputs: the file's name; else empty
};

}  // namespace vg::runner
