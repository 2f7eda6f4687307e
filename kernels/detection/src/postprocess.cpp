#include "visiongraph/kernels/detection/postprocess.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace vg::detection {

PostprocessScratch::PostprocessScratch(const PostprocessConfig& config, std::span<const TensorRef> tensors)
    : decode(config.decoder, tensors),
      candidate_storage(std::max<std::size_t>(config.max_candidates, 1)),
      candidates(candidate_storage),
      nms(candidate_storage.size()),
      kept(kMaxDetections) {}

void postprocess(const PostprocessConfig& config, std::span<const TensorRef> tensors,
                 const LetterboxGeometry& geometry, PostprocessScratch& scratch,
                 DetectionPacket& packet) noexcept {
  scratch.candidates.clear();
  decode(config.decoder, tensors, config.decode, scratch.decode, scratch.candidates);
  const NmsResult nms = run_nms(scratch.candidates.items(), config.nms, scratch.nms, scratch.kept);
  packet.count = static_cast<std::uint32_t>(nms.count);
  // Candidates evicted by the bounded buffer may have survived NMS, so report them as truncation too.
  const bool truncated = nms.truncated || scratch.candidates.overflowed() > 0;
  packet.flags = kDetectionsValid | (truncated ? kDetectionsTruncated : 0u);
  for (std::size_t i = 0; i < nms.count; ++i) {
    const Candidate& c = scratch.kept[i];
    Detection& d = packet.items[i];
    const Box b = to_source(geometry, Box{c.x0, c.y0, c.x1, c.y1});
    d.x0 = b.x0;
    d.y0 = b.y0;
    d.x1 = b.x1;
    d.y1 = b.y1;
    d.score = c.score;
    d.class_id = c.class_id;
    d.num_keypoints = std::clamp(c.num_keypoints, 0, kMaxKeypoints);
    for (int k = 0; k < d.num_keypoints; ++k) {
      const Point p = to_source(geometry, Point{c.kp[k][0], c.kp[k][1]});
      d.keypoints[k].x = p.x;
      d.keypoints[k].y = p.y;
    }
  }
}

Postprocessor::Postprocessor(const PostprocessConfig& config, std::span<const TensorRef> tensors)
    : config_(config) {
  const LayoutCheck check = check_layout(config.decoder, tensors, config.decode.input_w, config.decode.input_h);
  if (!check.ok) throw std::invalid_argument(std::string(check.message));
  scratch_ = PostprocessScratch(config_, tensors);
}

}  // namespace vg::detection
