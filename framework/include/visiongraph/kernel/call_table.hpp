#pragma once
/// @file
/// @brief What KernelContext reads on every call, laid out where its accessors can be inline.

#include <cstddef>
#include <cstdint>

namespace vg {

struct DataMeta;
struct Buffer;

namespace detail {

/// @brief A node's parameters as its callbacks see them: bindings, metadata and the buffers of each frame
/// slot, with the slot of the running call. The graph fills it when it builds its tables (verify) and sets
/// `current_slot` before each call; KernelContext only reads it. Not for kernels to use directly.
struct CallTable {
  static constexpr std::uint32_t kUnbound = 0xFFFFFFFFu;  ///< a binding with no data object
  const std::uint32_t* bindings = nullptr;                ///< per parameter: data index or kUnbound
  const DataMeta* const* metas = nullptr;                 ///< per parameter (num_metas of them)
  Buffer* const* buffers = nullptr;                       ///< [slot * num_params + param]
  std::size_t num_params = 0;
  std::size_t num_metas = 0;
  std::uint32_t current_slot = 0;
};

}  // namespace detail
}  // namespace vg
