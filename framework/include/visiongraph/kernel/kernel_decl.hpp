#pragma once
/// @file
/// @brief Declaring a kernel once by name: ordered parameters, attributes, commands, validate.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "visiongraph/data/types.hpp"
#include "visiongraph/kernel/attribute.hpp"
#include "visiongraph/kernel/command.hpp"

namespace vg {

class ValidateContext;

/// @brief Direction of a kernel parameter.
enum class Direction : std::uint8_t { input, output, bidirectional };

constexpr std::string_view to_string(Direction d) noexcept {
  return d == Direction::input ? "input" : d == Direction::output ? "output" : "bidirectional";
}

/// @brief One parameter of a kernel.
struct ParamDecl {
  std::string name;
  Direction direction = Direction::input;
  DataKind kind = DataKind::image;
  bool required = true;
  /// Written once in the producer's create and read-only afterwards (one buffer, never pipelined).
  bool is_static = false;
  std::string description;
};

/// @brief One attribute of a kernel. Without a default it is required.
struct AttrDecl {
  std::string name;
  AttrType type = AttrType::number;
  std::optional<AttrValue> default_value;
  std::string description;
};

/// @brief One control command a kernel understands.
struct CommandDecl {
  std::uint32_t id = 0;
  std::string name;
  PayloadKind payload = PayloadKind::none;
  std::string description;
};

/// @brief Host-side check of input metadata that also sets output metadata. Throws vg::Error
/// (through ValidateContext::fail) to reject the graph.
using ValidateFn = std::function<void(ValidateContext&)>;

/// @brief A kernel's declaration, shared by all its target implementations.
/// @code
/// vg::KernelDecl decl("vg.example.add");
/// decl.input("a", vg::DataKind::scalar).input("b", vg::DataKind::scalar)
///     .output("sum", vg::DataKind::scalar)
///     .attribute("bias", 0.0, "added to the sum")
///     .command(1, "set_bias", vg::PayloadKind::number, "replace the bias")
///     .validate([](vg::ValidateContext& v) { v.set_meta(2, vg::DataMeta::scalar_of(vg::ElementType::f64)); });
/// @endcode
class KernelDecl {
 public:
  explicit KernelDecl(std::string name, std::string description = {});

  KernelDecl& input(std::string name, DataKind kind, bool required = true, std::string description = {});
  KernelDecl& output(std::string name, DataKind kind, bool required = true, std::string description = {});
  KernelDecl& bidirectional(std::string name, DataKind kind, bool required = true, std::string description = {});
  KernelDecl& static_input(std::string name, DataKind kind, bool required = true, std::string description = {});
  KernelDecl& static_output(std::string name, DataKind kind, bool required = true, std::string description = {});

  KernelDecl& attribute(std::string name, AttrValue default_value, std::string description = {});
  KernelDecl& attribute(std::string name, const char* default_value, std::string description = {});
  KernelDecl& attribute(std::string name, int default_value, std::string description = {});
  KernelDecl& attribute(std::string name, bool default_value, std::string description = {});
  KernelDecl& attribute(std::string name, double default_value, std::string description = {});
  KernelDecl& required_attribute(std::string name, AttrType type, std::string description = {});
  KernelDecl& command(std::uint32_t id, std::string name, PayloadKind payload, std::string description = {});
  KernelDecl& validate(ValidateFn fn);
  /// @brief Default deadlines of the kernel's nodes (0 = none; Graph::set_deadline overrides per node).
  /// A process or control call running longer than @p run is given up on by the watchdog: reported,
  /// its target marked faulted, its frame failed with timeout. verify() waits at most @p create for create.
  KernelDecl& deadline(std::chrono::milliseconds run, std::chrono::milliseconds create = std::chrono::milliseconds(0));
  std::chrono::milliseconds run_deadline() const noexcept { return run_deadline_; }
  std::chrono::milliseconds create_deadline() const noexcept { return create_deadline_; }

  const std::string& name() const noexcept { return name_; }
  const std::string& description() const noexcept { return description_; }
  const std::vector<ParamDecl>& params() const noexcept { return params_; }
  const std::vector<AttrDecl>& attributes() const noexcept { return attrs_; }
  const std::vector<CommandDecl>& commands() const noexcept { return commands_; }
  const ValidateFn& validator() const noexcept { return validate_; }

  /// @brief Index of the parameter called @p name, or -1.
  int param_index(std::string_view name) const noexcept;
  const AttrDecl* find_attribute(std::string_view name) const noexcept;
  const CommandDecl* find_command(std::uint32_t id) const noexcept;
  const CommandDecl* find_command(std::string_view name) const noexcept;

 private:
  KernelDecl& add_param(ParamDecl p);
  std::string name_;
  std::string description_;
  std::vector<ParamDecl> params_;
  std::vector<AttrDecl> attrs_;
  std::vector<CommandDecl> commands_;
  ValidateFn validate_;
  std::chrono::milliseconds run_deadline_{0};
  std::chrono::milliseconds create_deadline_{0};
};

}  // namespace vg
