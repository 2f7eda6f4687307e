#pragma once
/// @file
/// @brief Writes one buffer of a graph data object per frame to files, whatever its kind: the way to see
/// any graph parameter's results (RunVX's `write`).

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "visiongraph/graph/graph.hpp"

namespace vg::io {

/// @brief Per-frame files for one data object, under `<dir>/<name>/` (scalars: one file `<dir>/<name>.jsonl`):
///
/// | kind      | file                          | content                                             |
/// |-----------|-------------------------------|-----------------------------------------------------|
/// | image     | `<name>/<frame>.png`          | 8-bit PNG (BGR, RGB and NV12 converted, gray as is) |
/// | tensor    | `<name>/<frame>.npy`          | NumPy .npy v1.0: dtype and shape of the tensor      |
/// | scalar    | `<name>.jsonl`                | `{"frame":N,"value":V}` per line                    |
/// | user_data | `<name>/<frame>.bin`          | the record's bytes                                  |
/// | array     | `<name>/<frame>.bin`          | the used items' bytes (count x item size)           |
///
/// `<frame>` is the frame number, 6 digits with leading zeros. Every write is checked: a failure (a full
/// disk, a missing directory) throws std::runtime_error naming the file and the reason.
/// @code
/// vg::io::DataWriter scores(graph, graph.data_of(param), "out/run1", "scores");
/// scores.write(frame_number, dequeued.index);
/// @endcode
/// @note Not thread-safe: one writer per thread. Allocates (file names, PNG encoding): for outputs the
///       application inspects, not for the graph's hot path.
class DataWriter {
 public:
  /// @brief Creates the directory. Throws std::runtime_error if it cannot, or if @p name is not a safe
  /// file name (letters, digits, '_', '-', '.'; not starting with '.').
  DataWriter(const Graph& graph, DataId data, const std::filesystem::path& dir, const std::string& name);

  /// @brief Write buffer @p buffer as frame @p frame.
  void write(std::uint64_t frame, std::uint32_t buffer);

  /// @brief Flush and close; throws if the last writes failed. Called by the destructor (which does not throw).
  void close();
  ~DataWriter();
  DataWriter(const DataWriter&) = delete;
  DataWriter& operator=(const DataWriter&) = delete;

  /// @brief Where the files go: the per-frame directory, or the .jsonl file for scalars.
  const std::filesystem::path& path() const noexcept { return path_; }
  std::uint64_t written() const noexcept { return written_; }

 private:
  std::filesystem::path frame_file(std::uint64_t frame, const char* extension) const;

  const Graph& graph_;
  DataId data_;
  DataKind kind_;
  std::filesystem::path path_;
  std::ofstream lines_;  // scalars
  std::uint64_t written_ = 0;
};

}  // namespace vg::io
