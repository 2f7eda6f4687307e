#pragma once
/// @file
/// @brief The board check's RGA line (`visiongraph doctor --board`): one 1920x1080 NV12 camera frame
///        letterboxed into a 640x640 RGB model input on DMA-BUFs by RGA and by the CPU, timed and compared.

#include <string>

namespace vg::rga {

/// @brief What letterbox_board_check() found.
struct RgaBoardCheck {
  enum class Result { pass, fail, skip };
  Result result = Result::skip;
  std::string detail;  ///< the times and the difference, or why it failed or was skipped
};

/// @brief Letterboxes one synthetic 1920x1080 NV12 frame into 640x640 RGB with RGA (librga at @p librga_path,
///        default VG_LIBRGA_PATH, else librga.so) and with the CPU letterbox, 20 times each, on memory
///        from the DMA-BUF allocator chain. Passes when every RGA job succeeds and its pixels are within
///        16 grey levels of the CPU's; skips without librga or the RGA device. Never throws.
RgaBoardCheck letterbox_board_check(const std::string& librga_path = {});

}  // namespace vg::rga
