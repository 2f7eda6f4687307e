#pragma once
/// @file
/// @brief A kernel's implementation on a target: create, process, control, delete.

#include <new>
#include <type_traits>

#include "visiongraph/core/status.hpp"
#include "visiongraph/kernel/command.hpp"
#include "visiongraph/kernel/kernel_context.hpp"

namespace vg {

/// @brief The four target-side callbacks. Only process is required.
/// - create: on the node's target during verify; all allocation happens here; may throw vg::Error.
/// - process: per frame on the target; must not allocate or block.
/// - control: on the target between two process calls (FIFO with frames).
/// - destroy ("delete"): on the target, exactly once for each successful create.
/// A callback should report failure with a Status, not an exception; one that throws anyway is caught
/// where the framework calls it: that frame or command fails (kernel_error) with the node named, and the
/// process goes on. (A callback declared noexcept that throws still terminates: that is the C++ rule.)
struct KernelCallbacks {
  Status (*create)(KernelContext&) = nullptr;
  Status (*process)(KernelContext&) = nullptr;
  Status (*control)(KernelContext&, const ControlCommand&, CommandReply&) = nullptr;
  void (*destroy)(KernelContext&) = nullptr;
};

namespace detail {
template <class T>
concept HasControl = requires(T& t, KernelContext& ctx, const ControlCommand& cmd, CommandReply& reply) {
  { t.control(ctx, cmd, reply) } -> std::same_as<Status>;
};
}  // namespace detail

/// @brief Callbacks for a class-based kernel: the constructor is create, the destructor is delete.
/// @code
/// struct Scale {
///   explicit Scale(vg::KernelContext& ctx) : factor(ctx.number("factor")) {}
///   vg::Status process(vg::KernelContext& ctx) noexcept { ...; return vg::Status::ok; }
///   double factor;
/// };
/// module.implement("vg.example.scale", "cpu", vg::callbacks_for<Scale>());
/// @endcode
template <class Impl>
KernelCallbacks callbacks_for() {
  KernelCallbacks cb;
  cb.create = [](KernelContext& ctx) -> Status {
    ctx.set_instance(new Impl(ctx));
    return Status::ok;
  };
  // Not noexcept: an exception from the kernel reaches the framework, which fails the frame and names the node.
  cb.process = [](KernelContext& ctx) -> Status { return ctx.instance_as<Impl>()->process(ctx); };
  if constexpr (detail::HasControl<Impl>) {
    cb.control = [](KernelContext& ctx, const ControlCommand& cmd, CommandReply& reply) -> Status {
      return ctx.instance_as<Impl>()->control(ctx, cmd, reply);
    };
  }
  cb.destroy = [](KernelContext& ctx) {
    delete ctx.instance_as<Impl>();
    ctx.set_instance(nullptr);
  };
  return cb;
}

}  // namespace vg
