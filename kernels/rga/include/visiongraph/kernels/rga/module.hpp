#pragma once
/// @file
/// @brief The vg.rga kernel module: letterboxing on Rockchip's RGA 2D engine, with the CPU as fallback.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "visiongraph/kernel/module.hpp"

namespace vg::rga {

inline constexpr std::string_view kLetterboxKernel = "vg.rga.letterbox";

/// @brief Parameter indices of vg.rga.letterbox (those of vg.detection.letterbox).
struct LetterboxParams {
  static constexpr std::size_t input = 0;     ///< image (bgr24, rgb24, nv12)
  static constexpr std::size_t output = 1;    ///< tensor u8 [1,H,W,3] NHWC
  static constexpr std::size_t geometry = 2;  ///< static user_data LetterboxGeometry, written in create
};

/// @brief Command ids of vg.rga.letterbox.
/// get_engine replies e.g. "engine=rga rga_frames=120 cpu_frames=0 imports=4 fills=3", or
/// "engine=cpu ... why=no RGA device (/dev/rga does not exist ...)".
inline constexpr std::uint32_t kCmdGetEngine = 1;

/// @brief The code a frame's sample (Graph::frame_sample) holds for a frame RGA failed: librga's IM_STATUS
///        (negative: IM_STATUS_INVALID_PARAM -3, ...), except IM_STATUS_FAILED (0), reported as this.
inline constexpr std::int32_t kSampleCodeFailed = -1000;

/// @brief Module "vg.rga" with vg.rga.letterbox, implemented on target kind "cpu" (the calling thread waits
///        for each RGA job, as an NPU target waits for its run).
///
/// The engine is chosen at verify: RGA when librga loads (VG_LIBRGA_PATH, else librga.so), the RGA device
/// exists (VG_RGA_DEVICE, else /dev/rga) and the vendor's limits allow the sizes and formats; the CPU
/// letterbox otherwise (engine: auto), or verify fails (engine: rga). A frame RGA fails is letterboxed on
/// the CPU; after 8 failures in a row the node stays on the CPU. Both engines place the content on whole
/// pixels, so the geometry is the same whichever runs.
/// @code
/// ctx.load_module(vg::rga::make_rga_module());
/// auto lb = g.add_node("letterbox", "vg.rga.letterbox");   // input bgr24/nv12 -> output u8 [1,640,640,3]
/// @endcode
Module make_rga_module();

}  // namespace vg::rga
