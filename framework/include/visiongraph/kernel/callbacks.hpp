#pragma once
/// @file
/// @brief A kernel's implementation on a target: create, process, control, delete.

#include <new>
#include <type_traits>

#include "visiongraph/core/status.hpp"
#include "visiongraph/kernel/command.hpp"
#include "visiongraph/kernel/kernel_context.hpp"

namespace vg {

/// @brief The target-side callbacks. Only process is required.
/// - create: on the node's target during verify; all allocation happens here; may throw vg::Error.
/// - process: per frame on the target; must not allocate or block.
/// - control: on the target between two process calls (FIFO with frames).
/// - destroy ("delete"): on the target, exactly once for each successful create.
/// - complete (optional, asynchronous kernels): process may start work that finishes elsewhere (an NPU
///   run started without blocking) and return Status::pending, after KernelContext::complete_after(fd)
///   if the work signals a fence fd. The target is then free for other nodes' work; complete runs on the
///   same target once the fd is readable (or, without a fence, after the work queued on the target
///   before it), collects the results and returns the frame's status. A node has at most one frame
///   pending; its next frame starts after complete. Several nodes (or replicas of one node) on one
///   target thus have several runs in flight.
/// A callback should report failure with a Status, not an exception; one that throws anyway is caught
/// where the framework calls it: that frame or command fails (kernel_error) with the node named, and the
/// process goes on. (A callback declared noexcept that throws still terminates: that is the C++ rule.)
struct KernelCallbacks {
  Status (*create)(KernelContext&) = nullptr;
  Status (*process)(KernelContext&) = nullptr;
  Status (*control)(KernelContext&, const ControlCommand&, CommandReply&) = nullptr;
  void (*destroy)(KernelContext&) = nullptr;
  Status (*complete)(KernelContext&) = nullptr;
};

namespace detail {
template <class T>
concept HasControl = requires(T& t, KernelContext& ctx, const ControlCommand& cmd, CommandReply& reply) {
  { t.control(ctx, cmd, reply) } -> std::same_as<Status>;
};
template <class T>
concept HasComplete = requires(T& t, KernelContext& ctx) {
  { t.complete(ctx) } -> std::same_as<Status>;
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
  if constexpr (detail::HasComplete<Impl>) {
    cb.complete = [](KernelContext& ctx) -> Status { return ctx.instance_as<Impl>()->complete(ctx); };
  }
  return cb;
}

}  // namespace vg
