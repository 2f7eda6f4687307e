#pragma once
/// @file
/// @brief The fixed-capacity detections packet that flows between the detection kernels.

#include <cstdint>
#include <type_traits>

namespace vg::detection {

inline constexpr int kMaxKeypoints = 8;         ///< keypoints per detection (BlazeFace uses 6)
inline constexpr int kMaxDetections = 256;      ///< detections per packet

/// @brief One detection in source-image pixels (continuous coordinates, clamped to the image).
struct Detection {
  float x0 = 0.0f;  ///< left
  float y0 = 0.0f;  ///< top
  float x1 = 0.0f;  ///< right
  float y1 = 0.0f;  ///< bottom
  float score = 0.0f;
  std::int32_t class_id = 0;
  std::int32_t num_keypoints = 0;  ///< valid entries in keypoints
  std::int32_t track_id = 0;       ///< the object's id across frames (vg.detection.track); 0 = not tracked
  struct {
    float x;
    float y;
  } keypoints[kMaxKeypoints] = {};
};

/// @brief Bit flags of a DetectionPacket.
enum DetectionFlags : std::uint32_t {
  kDetectionsValid = 1u << 0,      ///< the packet was filled by a postprocess run for this frame
  kDetectionsDropped = 1u << 1,    ///< the frame was not processed (e.g. missing input); count is 0
  kDetectionsTruncated = 1u << 2,  ///< more detections survived than max_det/kMaxDetections allowed
};

/// @brief All detections of one frame. Plain old data: trivially copyable, no pointers, fixed size,
///        so it can live in a graph-owned user_data object and be copied or shared between processes.
/// @note Not synchronised; the graph hands one packet to one writer at a time.
/// @code
/// const auto& pkt = ctx.user_data<vg::detection::DetectionPacket>(2);
/// for (std::uint32_t i = 0; i < pkt.count; ++i) use(pkt.items[i]);
/// @endcode
struct DetectionPacket {
  std::uint64_t sequence = 0;      ///< frame sequence number (from the graph's FrameInfo)
  std::int64_t timestamp_ns = 0;   ///< capture timestamp of the frame
  std::uint32_t count = 0;         ///< valid entries in items
  std::uint32_t flags = 0;         ///< DetectionFlags
  Detection items[kMaxDetections] = {};

  bool valid() const noexcept { return (flags & kDetectionsValid) != 0; }
  bool dropped() const noexcept { return (flags & kDetectionsDropped) != 0; }
  bool truncated() const noexcept { return (flags & kDetectionsTruncated) != 0; }
};

static_assert(std::is_trivially_copyable_v<DetectionPacket>);
static_assert(std::is_standard_layout_v<DetectionPacket>);

}  // namespace vg::detection
