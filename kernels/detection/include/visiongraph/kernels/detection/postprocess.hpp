#pragma once
/// @file
/// @brief Decode + NMS + inverse letterbox: model outputs in, a DetectionPacket out.

#include <cstddef>
#include <span>
#include <vector>

#include "visiongraph/kernels/detection/candidate.hpp"
#include "visiongraph/kernels/detection/decoder.hpp"
#include "visiongraph/kernels/detection/detections.hpp"
#include "visiongraph/kernels/detection/letterbox.hpp"
#include "visiongraph/kernels/detection/nms.hpp"
#include "visiongraph/kernels/detection/tensor_ref.hpp"

namespace vg::detection {

/// @brief Everything a postprocess run needs to know.
struct PostprocessConfig {
  DecoderKind decoder = DecoderKind::blazeface;
  DecodeParams decode{};            ///< score threshold, input size, class filter, anchors
  NmsParams nms{};                  ///< kind, IoU threshold, max_det, top_k_per_class
  std::size_t max_candidates = 4096;  ///< candidate buffer size (best ones kept when exceeded)
};

/// @brief All working memory of a postprocess run, allocated once.
struct PostprocessScratch {
  PostprocessScratch() = default;
  PostprocessScratch(const PostprocessConfig& config, std::span<const TensorRef> tensors);
  // Copying would leave `candidates` pointing into the source's storage; moving keeps the buffer.
  PostprocessScratch(const PostprocessScratch&) = delete;
  PostprocessScratch& operator=(const PostprocessScratch&) = delete;
  PostprocessScratch(PostprocessScratch&&) noexcept = default;
  PostprocessScratch& operator=(PostprocessScratch&&) noexcept = default;
  DecodeScratch decode;
  std::vector<Candidate> candidate_storage;
  CandidateBuffer candidates;
  NmsScratch nms;
  std::vector<Candidate> kept;  ///< NMS output, kMaxDetections entries
};

/// @brief Decode @p tensors, suppress, map back to source pixels through @p geometry and fill @p packet
///        (count, items, flags; sequence/timestamp are left to the caller). No allocation.
/// @pre check_layout() passed for these shapes and @p scratch was built for them.
void postprocess(const PostprocessConfig& config, std::span<const TensorRef> tensors,
                 const LetterboxGeometry& geometry, PostprocessScratch& scratch,
                 DetectionPacket& packet) noexcept;

/// @brief Convenience owner of a config and its scratch.
/// @code
/// vg::detection::PostprocessConfig cfg;
/// cfg.decoder = vg::detection::DecoderKind::blazeface;
/// cfg.decode.input_w = cfg.decode.input_h = 128;
/// cfg.nms = {vg::detection::NmsKind::weighted, 0.3f, 100, 100};
/// vg::detection::Postprocessor pp(cfg, tensors);            // throws std::invalid_argument on bad layout
/// pp.run(tensors, geometry, packet);                        // per frame, allocation-free
/// @endcode
/// @note Not thread-safe; one instance per worker.
class Postprocessor {
 public:
  Postprocessor(const PostprocessConfig& config, std::span<const TensorRef> tensors);

  void run(std::span<const TensorRef> tensors, const LetterboxGeometry& geometry,
           DetectionPacket& packet) noexcept {
    postprocess(config_, tensors, geometry, scratch_, packet);
  }
  /// @brief Mutable access for between-frame changes (thresholds, caps, class filter).
  PostprocessConfig& config() noexcept { return config_; }
  const PostprocessConfig& config() const noexcept { return config_; }

 private:
  PostprocessConfig config_;
  PostprocessScratch scratch_;
};

}  // namespace vg::detection
