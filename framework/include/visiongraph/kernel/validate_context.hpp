#pragma once
/// @file
/// @brief What a validate callback sees: input metadata, attributes, and where to put output metadata.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "visiongraph/data/meta.hpp"
#include "visiongraph/kernel/attribute.hpp"

namespace vg {

namespace detail {
struct NodeState;
}

/// @brief Passed to a kernel's validate callback at verify (host side, verify thread).
class ValidateContext {
 public:
  explicit ValidateContext(detail::NodeState& node) noexcept : node_(node) {}

  std::string_view node_name() const noexcept;
  std::string_view kernel_name() const noexcept;
  std::string_view target_name() const noexcept;
  std::size_t num_params() const noexcept;
  bool is_bound(std::size_t param) const noexcept;
  /// @brief Metadata of the object bound to @p param (inputs: always valid; outputs: may be unset).
  const DataMeta& meta(std::size_t param) const;
  /// @brief Set an output's metadata. Fails if the object already has different fixed metadata.
  void set_meta(std::size_t param, const DataMeta& meta);

  bool boolean(std::string_view key) const;
  std::int64_t integer(std::string_view key) const;
  double number(std::string_view key) const;  ///< integers are accepted too
  const std::string& string(std::string_view key) const;
  const std::vector<double>& numbers(std::string_view key) const;
  bool has_attribute(std::string_view key) const noexcept;

  /// @brief Hand an object to this node's create (e.g. the model validate already loaded to read its
  /// outputs), so create need not build it again. create takes it with KernelContext::take_from_validate();
  /// whatever create does not take is dropped when verify ends.
  void hand_to_create(std::shared_ptr<void> object);

  /// @brief Reject the graph: throws vg::Error "node 'n' (kernel k), parameter 'what': message".
  [[noreturn]] void fail(std::string_view what, std::string_view message) const;

 private:
  detail::NodeState& node_;
};

}  // namespace vg
