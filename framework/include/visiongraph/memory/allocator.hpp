#pragma once
/// @file
/// @brief Pluggable memory for data objects. Allocation happens only at verify.

#include <cstddef>
#include <string_view>

#include "visiongraph/core/status.hpp"
#include "visiongraph/memory/memory_block.hpp"

namespace vg {

/// @brief Direction of a CPU access bracket (DMA-BUF cache sync).
enum class CpuAccess : unsigned { read = 1, write = 2, read_write = 3 };

/// @brief Source of memory for images and tensors. Host memory by default; the NPU layer adds DMA-BUF.
/// @note allocate/release run on the thread calling verify/release of the graph; the access brackets
///       run on target threads and must be thread-safe and allocation-free.
/// @code
/// vg::HostAllocator host;                       // aligned host memory
/// graph.set_allocator(&host);                   // before verify
/// @endcode
class Allocator {
 public:
  virtual ~Allocator() = default;

  /// @brief Short name for reports ("host", "dma_heap:system", "memfd", "rknpu").
  virtual std::string_view name() const noexcept = 0;

  /// @brief Allocate @p size bytes aligned to @p alignment. Throws vg::Error on failure (verify time).
  virtual MemoryBlock allocate(std::size_t size, std::size_t alignment) = 0;

  /// @brief Give back a block from allocate(). Called exactly once per block; tolerates an empty block.
  virtual void release(MemoryBlock& block) noexcept = 0;

  /// @brief Make device writes visible to the CPU before it accesses the block (no-op for host memory).
  virtual Status begin_cpu_access(const MemoryBlock& /*block*/, CpuAccess /*mode*/) noexcept {
    return Status::ok;
  }
  /// @brief Make CPU writes visible to devices after the CPU access (no-op for host memory).
  virtual Status end_cpu_access(const MemoryBlock& /*block*/, CpuAccess /*mode*/) noexcept {
    return Status::ok;
  }
};

/// @brief Aligned host memory (the default).
class HostAllocator final : public Allocator {
 public:
  std::string_view name() const noexcept override { return "host"; }
  MemoryBlock allocate(std::size_t size, std::size_t alignment) override;
  void release(MemoryBlock& block) noexcept override;
};

/// @brief The process-wide host allocator used when a graph names none.
Allocator& default_allocator() noexcept;

}  // namespace vg
