#pragma once
/// @file
/// @brief Typed handles into a graph's storage.

#include <cstdint>

namespace vg {

inline constexpr std::uint32_t kInvalidIndex = 0xFFFFFFFFu;

/// @brief A node of a graph.
struct NodeId {
  std::uint32_t value = kInvalidIndex;
  bool valid() const noexcept { return value != kInvalidIndex; }
  friend bool operator==(NodeId, NodeId) = default;
};

/// @brief A data object of a graph.
struct DataId {
  std::uint32_t value = kInvalidIndex;
  bool valid() const noexcept { return value != kInvalidIndex; }
  friend bool operator==(DataId, DataId) = default;
};

/// @brief A graph parameter (a node parameter exposed for enqueue/dequeue).
struct GraphParamId {
  std::uint32_t value = kInvalidIndex;
  bool valid() const noexcept { return value != kInvalidIndex; }
  friend bool operator==(GraphParamId, GraphParamId) = default;
};

}  // namespace vg
