#pragma once
/// @file
/// @brief One fuzz iteration of the YAML loader, shared by the libFuzzer target and the replay test.

#include <cstddef>
#include <cstdint>

namespace vg::yaml::fuzz {

/// @brief Parse @p data as a graph file, fill `auto` sizes, build and verify it in a shared context
/// (module vg.example; no module libraries; no environment), run one frame if it has no graph
/// parameters. Returns true when the graph was built. Must never crash; loader errors are caught.
bool load_one(const std::uint8_t* data, std::size_t size);

}  // namespace vg::yaml::fuzz
