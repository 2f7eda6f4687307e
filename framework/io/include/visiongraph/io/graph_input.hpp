#pragma once
/// @file
/// @brief The joint between a producer of frames and a graph's input parameter: import without copying,
/// hold each frame's lease while the graph uses the buffer, give it back exactly once.

#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vector>

#include "visiongraph/core/status.hpp"
#include "visiongraph/graph/graph.hpp"
#include "visiongraph/io/frame.hpp"

namespace vg::io {

/// @brief What the graph handed back for one frame (see GraphInput::reclaim).
struct ReclaimedFrame {
  DequeuedBuffer buffer{};      ///< status: ok, kernel_error (frame failed), dropped, aborted
  std::uint64_t source_sequence = 0;  ///< Frame::sequence of the frame that used the buffer
  std::int64_t media_ns = -1;         ///< Frame::media_ns
  std::int64_t capture_ns = 0;        ///< Frame::capture_ns
  std::uint32_t source_width = 0;     ///< the frame's own size (differs from the graph's after a conversion)
  std::uint32_t source_height = 0;
  bool converted = false;             ///< the frame was copied/converted into the graph's memory
  std::array<char, kMaxFrameName + 1> name{};
};

/// @brief Counters of a GraphInput (lease accounting included).
struct GraphInputStats {
  std::uint64_t pushed = 0;     ///< frames handed to push()
  std::uint64_t imported = 0;   ///< taken without a copy (the frame's memory became the graph buffer)
  std::uint64_t converted = 0;  ///< copied/converted into the graph's own buffer (also Graph stats)
  std::uint64_t refused = 0;    ///< not enqueued (rejected, timeout, stopped, no usable layout)
  std::uint64_t leases_taken = 0;
  std::uint64_t leases_released = 0;
  std::uint64_t leases_held = 0;  ///< taken - released: buffers the graph still has
};

/// @brief Feeds frames into one input graph parameter of a verified graph.
///
/// push() imports the frame's memory into a free buffer of the parameter (Graph::import_buffer: zero
/// copy, the frame's own strides and DMA-BUF fd) when its layout matches the parameter's metadata, and
/// enqueues it with its capture time; the frame's lease is kept until the graph hands the buffer back.
/// A frame that does not match (another size or format) goes through one explicit conversion into the
/// graph's own buffer, counted by Graph::count_conversion, and its lease is released at once.
/// reclaim() dequeues the parameter's done buffers (completed, failed, dropped by latest-wins, aborted by
/// stop) and releases each lease exactly once. The destructor releases whatever is still held, so
/// destroy it after the graph has stopped.
/// @note push() from one producer thread, reclaim() from one consumer thread (they may differ);
///       stats() from any. No allocation after construction; no lock is held while a lease is released.
/// @code
/// vg::io::GraphInput input(graph, graph_param);
/// graph.start();
/// std::thread consumer([&] { vg::io::ReclaimedFrame r; while (input.reclaim(r, 1s) != vg::Status::stopped) {} });
/// vg::io::Frame f;
/// while (source->read(f, 5s) == vg::Status::ok) (void)input.push(std::move(f), 5s);
/// graph.stop();
/// consumer.join();
/// @endcode
class GraphInput {
 public:
  /// @brief Throws vg::Error if the graph is not verified or @p param is not an input.
  GraphInput(Graph& graph, GraphParamId param);
  ~GraphInput();
  GraphInput(const GraphInput&) = delete;
  GraphInput& operator=(const GraphInput&) = delete;

  /// @brief Hand @p frame to the graph. Waits up to @p timeout for a free buffer and for room in the
  /// input queue (blocking policy). ok: enqueued. Otherwise the frame was not taken and its lease is
  /// released: busy (no free buffer in time), rejected, timeout, stopped, not_supported (no CPU address
  /// and not importable), invalid_argument (unsupported format).
  Status push(Frame&& frame, std::chrono::nanoseconds timeout) noexcept;

  /// @brief Take back the next buffer the graph is done with, in frame order, and release its lease.
  /// ok, timeout, or stopped once the graph is stopped and nothing is left.
  Status reclaim(ReclaimedFrame& out, std::chrono::nanoseconds timeout) noexcept;

  GraphInputStats stats() const noexcept;
  /// @brief Buffers of the parameter not in the graph's hands (ready for push).
  std::size_t free_buffers() const noexcept;
  /// @brief Wait until a buffer is free (a producer that must not lose frames waits here, then pushes).
  /// ok or timeout.
  Status wait_for_free_buffer(std::chrono::nanoseconds timeout) const noexcept;

 private:
  enum class Slot : std::uint8_t { free, filling, with_graph };
  bool importable(const Frame& frame) const noexcept;
  Status convert_into(std::uint32_t index, const Frame& frame) noexcept;

  Graph& graph_;
  GraphParamId param_;
  DataId data_;
  DataMeta meta_;
  mutable std::mutex mu_;
  mutable std::condition_variable freed_;
  std::vector<Slot> slots_;
  std::vector<Lease> leases_;
  std::vector<ReclaimedFrame> records_;
  GraphInputStats stats_{};
};

}  // namespace vg::io
