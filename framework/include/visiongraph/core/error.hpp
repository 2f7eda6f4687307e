#pragma once
/// @file
/// @brief The exception thrown while building, loading and verifying a graph (never afterwards).

#include <stdexcept>
#include <string>

namespace vg {

/// @brief Build/verify-time error. The message names the node, parameter or key at fault.
/// @code
/// try { graph.verify(); } catch (const vg::Error& e) { std::cerr << e.what() << '\n'; }
/// @endcode
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace vg
