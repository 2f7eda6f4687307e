#pragma once
/// @file
/// @brief The context owns the targets (worker threads) and the kernel registry shared by graphs.

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "visiongraph/kernel/module.hpp"
#include "visiongraph/memory/allocator.hpp"

namespace vg {

namespace detail {
class Target;
struct ContextState;
}  // namespace detail

/// @brief Configuration of one target: one worker thread with one bounded FIFO command queue.
struct TargetConfig {
  std::string name;                 ///< "cpu0", "cpu1", "npu0", ...
  std::string kind;                 ///< "cpu" or "npu"; empty = the name without its trailing digits
  int core = -1;                    ///< pin the thread to this CPU core; -1 = no pinning
  std::size_t queue_capacity = 256; ///< commands; rounded up to a power of two
};

/// @brief Which targets a context starts. Default: cpu0, cpu1, npu0.
struct ContextConfig {
  std::vector<TargetConfig> targets;
  /// Microseconds an idle worker (or a thread waiting for a frame) polls before it sleeps. Waking a
  /// sleeping thread costs tens of microseconds on idle (virtual) CPUs; a short poll makes a hop
  /// between targets cost about a microsecond while frames flow. 0 = always sleep (saves power).
  unsigned spin_us = 50;
  /// Let the calling thread do a target's work when the target is idle and nothing needs its thread:
  /// Graph::process() of a graph whose nodes are all on one unpinned cpu target (no deadlines, no
  /// asynchronous kernels, no replicas) runs the frame there, and send_command() to a node on such a
  /// target (no deadline, one replica) runs the control callback there. The target's worker waits
  /// meanwhile, so its callbacks still run one at a time and in order; a kernel sees no difference but
  /// the thread. It saves the hand-over to the worker and back (bench_openvx, bench_dispatch).
  /// false = always hand the work to the target's worker.
  bool run_on_caller = true;
  /// Where the framework reports what happens outside any call (a callback past its deadline): one
  /// line per event. Null = standard error. Called from the watchdog thread.
  void (*log)(std::string_view line) = nullptr;
  static ContextConfig defaults();
};

/// @brief A registered kernel: its declaration, module and target implementations.
struct KernelInfo {
  KernelDecl decl;
  std::string module;
  std::vector<KernelImpl> impls;
};

/// @brief Targets plus the kernel registry. Graphs are built against one context.
/// @note Registry and module calls are thread-safe; they must not race with verify of a graph that
///       uses the affected kernels (a module in use cannot be unloaded).
/// @code
/// vg::Context ctx;                          // cpu0, cpu1, npu0
/// ctx.load_module(make_my_module());
/// vg::Graph g(ctx, "demo");
/// @endcode
class Context {
 public:
  explicit Context(ContextConfig config = ContextConfig::defaults());
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  /// @brief Register every kernel of @p module. Throws vg::Error if it is already loaded or a kernel
  /// name is taken.
  void load_module(Module module);
  /// @brief dlopen a module library and register it. Throws vg::Error naming the file on failure.
  /// @return the module's name.
  std::string load_module_library(const std::string& path);
  /// @brief Unregister a module. Throws vg::Error if unknown or used by a verified graph.
  void unload_module(std::string_view name);
  bool has_module(std::string_view name) const;
  std::vector<std::string> modules() const;

  /// @brief Look a kernel up by name; null if unknown.
  const KernelInfo* find_kernel(std::string_view name) const;
  /// @brief Names of all registered kernels, sorted.
  std::vector<std::string> kernel_names() const;

  /// @brief Memory for objects used by nodes on @p target (e.g. DMA-BUF for npu0). Not owned.
  void set_target_allocator(std::string_view target, Allocator* allocator);
  Allocator* target_allocator(std::string_view target) const;

  unsigned spin_us() const noexcept;
  /// ContextConfig::run_on_caller.
  bool run_on_caller() const noexcept;
  std::size_t num_targets() const noexcept;
  detail::Target* find_target(std::string_view name) const noexcept;
  detail::Target& target(std::size_t index) const noexcept;
  std::vector<std::string> target_names() const;
  /// The targets of one kind ("npu": npu0, npu1, ...), in the order the context started them.
  std::vector<std::string> target_names(std::string_view kind) const;

  detail::ContextState& state() noexcept { return *state_; }

 private:
  std::unique_ptr<detail::ContextState> state_;
};

}  // namespace vg
