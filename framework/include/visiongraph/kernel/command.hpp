#pragma once
/// @file
/// @brief Control commands sent to a running node and their replies: fixed-size, allocation-free.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "visiongraph/data/views.hpp"

namespace vg {

inline constexpr std::size_t kMaxCommandPayload = 256;
inline constexpr std::size_t kMaxCommandObjects = 4;

/// @brief A reference to one buffer of a graph's data object (see Graph::data_ref), carried by a command.
struct DataRef {
  const DataMeta* meta = nullptr;
  Buffer* buffer = nullptr;
  bool valid() const noexcept { return meta != nullptr && buffer != nullptr; }
};

/// @brief How a command's payload is interpreted (declared by the kernel; used by text front ends).
enum class PayloadKind : std::uint8_t { none, integer, number, text, bytes };

constexpr std::string_view to_string(PayloadKind kind) noexcept {
  switch (kind) {
    case PayloadKind::none: return "none";
    case PayloadKind::integer: return "integer";
    case PayloadKind::number: return "number";
    case PayloadKind::text: return "text";
    case PayloadKind::bytes: return "bytes";
  }
  return "?";
}

namespace detail {
/// Fixed byte block shared by commands and replies.
struct PayloadBlock {
  std::uint32_t size = 0;
  alignas(8) std::byte data[kMaxCommandPayload]{};

  template <class T>
  bool write(const T& value) noexcept {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= kMaxCommandPayload);
    std::memcpy(data, &value, sizeof(T));
    size = sizeof(T);
    return true;
  }
  bool write_text(std::string_view text) noexcept {
    const std::size_t n = text.size() < kMaxCommandPayload ? text.size() : kMaxCommandPayload - 1;
    std::memcpy(data, text.data(), n);
    data[n] = std::byte{0};
    size = static_cast<std::uint32_t>(n);
    return n == text.size();
  }
  template <class T>
  bool read(T& out) const noexcept {
    static_assert(std::is_trivially_copyable_v<T>);
    if (size != sizeof(T)) return false;
    std::memcpy(&out, data, sizeof(T));
    return true;
  }
  std::string_view text() const noexcept { return {reinterpret_cast<const char*>(data), size}; }
};
}  // namespace detail

/// @brief A control command: an id declared by the kernel, a small payload copied by value, and up to
/// four data objects passed by reference.
/// @code
/// auto cmd = vg::ControlCommand::make(kSetThreshold, 0.7);   // payload: one double
/// vg::CommandReply reply;
/// vg::Status s = graph.send_command(node, cmd, std::chrono::milliseconds(100), &reply);
/// auto load = vg::ControlCommand::make(kLoadTable);
/// load.attach(graph.data_ref(table));                         // an object of the graph, by reference
/// s = graph.send_command(node, load, std::chrono::milliseconds(100));
/// @endcode
struct ControlCommand : detail::PayloadBlock {
  std::uint32_t id = 0;
  /// Data objects passed by reference (a lookup table, a new region of interest, ...): the control
  /// callback reads or writes them in place; the sender must not touch them until send_command returns.
  DataRef objects[kMaxCommandObjects]{};
  std::uint32_t num_objects = 0;

  /// @brief Attach a data object; false when kMaxCommandObjects are attached already or @p ref is invalid.
  bool attach(const DataRef& ref) noexcept {
    if (num_objects >= kMaxCommandObjects || !ref.valid()) return false;
    objects[num_objects++] = ref;
    return true;
  }
  ImageView image(std::size_t i) const noexcept { return i < num_objects ? ImageView(objects[i].meta, objects[i].buffer) : ImageView(); }
  TensorView tensor(std::size_t i) const noexcept {
    return i < num_objects ? TensorView(objects[i].meta, objects[i].buffer) : TensorView();
  }
  ScalarView scalar(std::size_t i) const noexcept {
    return i < num_objects ? ScalarView(objects[i].meta, objects[i].buffer) : ScalarView();
  }
  template <class T>
  T* user_data(std::size_t i) const noexcept {
    if (i >= num_objects || objects[i].meta->kind != DataKind::user_data || objects[i].meta->user_data.size != sizeof(T))
      return nullptr;
    return reinterpret_cast<T*>(objects[i].buffer->plane[0]);
  }

  static ControlCommand make(std::uint32_t id) noexcept {
    ControlCommand c;
    c.id = id;
    return c;
  }
  template <class T>
  static ControlCommand make(std::uint32_t id, const T& value) noexcept {
    ControlCommand c;
    c.id = id;
    c.write(value);
    return c;
  }
  static ControlCommand make_text(std::uint32_t id, std::string_view text) noexcept {
    ControlCommand c;
    c.id = id;
    c.write_text(text);
    return c;
  }
};

/// @brief What a control callback sends back (text or a small POD).
struct CommandReply : detail::PayloadBlock {
  std::uint32_t replica = 0;  ///< which replica of the node answered (0 unless it runs over several targets)
};

}  // namespace vg
