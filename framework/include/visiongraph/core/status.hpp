#pragma once
/// @file
/// @brief The one status list of visiongraph: every call after verify returns one of these.

#include <cstdint>
#include <string_view>

namespace vg {

// X-macro so the enum and its names can never drift apart (name, description).
#define VG_STATUS_LIST(X)                                                                  \
  X(ok, "success")                                                                         \
  X(error, "unspecified failure")                                                          \
  X(invalid_argument, "an argument is out of range or malformed")                         \
  X(not_verified, "the graph or node is not verified")                                     \
  X(unknown_command, "the kernel does not know this command id")                           \
  X(timeout, "the operation did not complete in time")                                     \
  X(stopped, "the graph was stopped")                                                      \
  X(queue_full, "a bounded queue is full")                                                 \
  X(rejected, "the input was rejected by the input policy")                                \
  X(dropped, "the frame was dropped by the latest-wins policy")                            \
  X(aborted, "the frame was abandoned by stop()")                                          \
  X(no_data, "nothing is ready")                                                           \
  X(kernel_error, "a kernel callback reported failure")                                    \
  X(inference_error, "the inference runtime reported failure")                             \
  X(not_supported, "the operation is not supported here")                                  \
  X(busy, "the resource is in use")                                                        \
  X(io_error, "an I/O operation failed")                                                   \
  X(out_of_memory, "memory could not be allocated")                                        \
  X(end_of_stream, "the source has no more frames")                                        \
  X(pending, "started; the kernel's complete callback finishes it later")

/// @brief Result of every runtime call. Check it: functions returning it are [[nodiscard]].
enum class [[nodiscard]] Status : std::int32_t {
#define VG_STATUS_ENUM(name, desc) name,
  VG_STATUS_LIST(VG_STATUS_ENUM)
#undef VG_STATUS_ENUM
      count_  ///< number of codes; not a status
};

/// @brief The code's name, e.g. "timeout". Never empty; "unknown" for values outside the list.
constexpr std::string_view to_string(Status status) noexcept {
  switch (status) {
#define VG_STATUS_CASE(name, desc) \
  case Status::name:               \
    return #name;
    VG_STATUS_LIST(VG_STATUS_CASE)
#undef VG_STATUS_CASE
    default:
      return "unknown";
  }
}

/// @brief One-line human description of the code.
constexpr std::string_view describe(Status status) noexcept {
  switch (status) {
#define VG_STATUS_DESC(name, desc) \
  case Status::name:               \
    return desc;
    VG_STATUS_LIST(VG_STATUS_DESC)
#undef VG_STATUS_DESC
    default:
      return "unknown status";
  }
}

constexpr bool is_ok(Status status) noexcept { return status == Status::ok; }

}  // namespace vg
