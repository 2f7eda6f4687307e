#pragma once
/// @file
/// @brief One buffer of a data object: its memory and plane layout. Owned by the graph.

#include <cstddef>
#include <cstdint>

#include "visiongraph/memory/memory_block.hpp"

namespace vg {

inline constexpr std::uint32_t kMaxPlanes = 3;

/// @brief Storage of one instance of a data object (one pipeline stage or one graph-parameter entry).
struct Buffer {
  MemoryBlock block{};                        ///< allocation, or an imported external handle
  std::uint8_t* plane[kMaxPlanes]{};           ///< start of each plane
  std::size_t stride[kMaxPlanes]{};            ///< bytes per row (images) or total bytes (others)
  std::uint32_t num_planes = 0;
  std::size_t count = 0;                       ///< arrays: number of valid items
  bool imported = false;                       ///< memory belongs to the application
};

}  // namespace vg
