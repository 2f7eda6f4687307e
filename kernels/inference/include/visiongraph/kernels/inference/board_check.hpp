#pragma once
/// @file
/// @brief `visiongraph doctor --board`: every check that needs a Rockchip board, in one run, as a report a
///        first board user can paste into an issue.
///
/// Where `doctor` only looks (devices, libraries, versions), the board check also acts: it allocates a
/// DMA-BUF, binds it to an rknn context with rknn_create_mem_from_fd and runs one frame of a model on each
/// NPU core. Each check passes, fails (with what was found and what to do) or is skipped (with why).
/// Needs a model for the runtime checks (`--model face.rknn`): librknnrt reports its version only on a
/// context.

#include <functional>
#include <string>
#include <vector>

#include "visiongraph/npu/doctor.hpp"

namespace vg::inference {

/// @brief One check of the report.
struct BoardCheck {
  enum class Result { pass, fail, skip };
  std::string name;    ///< e.g. "rknpu driver", "frame on NPU core 1"
  Result result = Result::skip;
  std::string detail;  ///< what was found; on failure also what to do
};

/// @brief Inputs of run_board_check(); all optional.
struct BoardCheckOptions {
  std::string runtime_path;  ///< librknnrt (default: VG_RKNNRT_PATH, else librknnrt.so)
  std::string model_path;    ///< an .rknn model for the runtime, DMA-BUF and per-core checks
  std::string librga_path;   ///< librga (default: VG_LIBRGA_PATH, else librga.so)
  std::string device_tree_compatible = "/proc/device-tree/compatible";
  std::string device_tree_model = "/proc/device-tree/model";
  /// The "RGA letterbox vs the CPU one" check (the vg.rga module's letterbox_board_check, which this
  /// library does not link); unset: skipped, naming the missing module.
  std::function<BoardCheck()> rga_letterbox_check;
};

/// @brief Everything run_board_check() found.
struct BoardReport {
  std::string board;   ///< the device tree's model string, or "not a device-tree board"
  std::string kernel;  ///< uname -r
  npu::DoctorReport doctor;
  std::vector<BoardCheck> checks;
  /// @brief True when no check failed (skipped ones do not count).
  bool passed() const noexcept;
};

/// @brief Runs every check. Never throws: each failure becomes a failed check with its reason.
BoardReport run_board_check(const BoardCheckOptions& options = {});

/// @brief The report as text: the board and kernel, one line per check ("PASS", "FAIL", "SKIP" and the
///        check's name and detail), a summary line.
std::string format(const BoardReport& report);

}  // namespace vg::inference
