#pragma once
/// @file
/// @brief The vg.detection kernel module: letterbox, postprocess (decode + NMS), overlay and track.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "visiongraph/kernel/module.hpp"

namespace vg::detection {

inline constexpr std::string_view kLetterboxKernel = "vg.detection.letterbox";
inline constexpr std::string_view kPostprocessKernel = "vg.detection.postprocess";
inline constexpr std::string_view kOverlayKernel = "vg.detection.overlay";
inline constexpr std::string_view kTrackKernel = "vg.detection.track";

/// @brief Type names of the user_data objects the kernels exchange (checked by validate).
inline constexpr std::string_view kGeometryTypeName = "vg.detection.letterbox_geometry";  ///< LetterboxGeometry
inline constexpr std::string_view kDetectionsTypeName = "vg.detection.detections";       ///< DetectionPacket

/// @brief Parameter indices of vg.detection.letterbox.
struct LetterboxParams {
  static constexpr std::size_t input = 0;     ///< image (bgr24, rgb24, nv12)
  static constexpr std::size_t output = 1;    ///< tensor [1,H,W,3] (u8/f32 NHWC) or [1,3,H,W] (f32 NCHW)
  static constexpr std::size_t geometry = 2;  ///< static user_data LetterboxGeometry, written in create
};

/// @brief Parameter indices of vg.detection.postprocess.
struct PostprocessParams {
  static constexpr std::size_t first_tensor = 0;  ///< in0 .. in8
  static constexpr std::size_t max_tensors = 9;
  static constexpr std::size_t geometry = 9;      ///< static user_data LetterboxGeometry (optional)
  static constexpr std::size_t detections = 10;   ///< user_data DetectionPacket
};

/// @brief Parameter indices of vg.detection.overlay.
struct OverlayParams {
  static constexpr std::size_t image = 0;       ///< image (bgr24, rgb24, nv12)
  static constexpr std::size_t detections = 1;  ///< user_data DetectionPacket
  static constexpr std::size_t output = 2;      ///< image bgr24, same size
};

/// @brief Parameter indices of vg.detection.track.
struct TrackParams {
  static constexpr std::size_t detections = 0;  ///< user_data DetectionPacket in
  static constexpr std::size_t tracked = 1;     ///< user_data DetectionPacket out, track_id set
};

/// @brief Command ids of vg.detection.track. Each replies with the settings and the track counts, e.g.
///        "high_score=0.5 low_score=0.1 iou_threshold=0.3 max_size_change=1.5 min_hits=3 max_age=30 live=2
///        confirmed=2 started=5 dropped=3". Changes apply from the next frame.
inline constexpr std::uint32_t kCmdTrackReset = 1;            ///< no payload: drop every track
inline constexpr std::uint32_t kCmdTrackSetIouThreshold = 2;  ///< payload: number in (0, 1]
inline constexpr std::uint32_t kCmdTrackSetHighScore = 3;     ///< payload: number in [low_score, 1]
inline constexpr std::uint32_t kCmdTrackSetLowScore = 4;      ///< payload: number in [0, high_score]
inline constexpr std::uint32_t kCmdTrackGetSettings = 5;      ///< no payload

/// @brief Command ids of vg.detection.postprocess. Every command replies with the current settings as text,
///        e.g. "decoder=blazeface score_threshold=0.5 iou_threshold=0.3 nms=weighted max_det=100
///        top_k_per_class=100 classes=all". Changes apply from the next frame.
inline constexpr std::uint32_t kCmdSetScoreThreshold = 1;  ///< payload: number (double) in [0, 1]
inline constexpr std::uint32_t kCmdSetIouThreshold = 2;    ///< payload: number (double) in [0, 1]
inline constexpr std::uint32_t kCmdSetMaxDet = 3;          ///< payload: integer (std::int64_t) in [1, 256]
inline constexpr std::uint32_t kCmdSetClassFilter = 4;     ///< payload: text "0,2,7"; empty = all classes
inline constexpr std::uint32_t kCmdGetSettings = 5;        ///< no payload

/// @brief Module "vg.detection" with the four kernels, each implemented on target kind "cpu".
/// @code
/// vg::Context ctx;
/// ctx.load_module(vg::detection::make_detection_module());
/// vg::Graph g(ctx, "faces");
/// auto img = g.add_data("img", vg::DataMeta::image_of(640, 480, vg::ImageFormat::bgr24));
/// auto t = g.add_data("t", vg::DataMeta::tensor_of({1, 128, 128, 3}, vg::ElementType::f32, vg::TensorLayout::nhwc));
/// auto geo = g.add_virtual("geometry", vg::DataKind::user_data);
/// auto lb = g.add_node("letterbox", "vg.detection.letterbox");
/// g.bind(lb, "input", img).bind(lb, "output", t).bind(lb, "geometry", geo);
/// @endcode
Module make_detection_module();

}  // namespace vg::detection
