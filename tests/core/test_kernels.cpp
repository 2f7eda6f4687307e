#include "test_kernels.hpp"

#include <condition_variable>
#include <mutex>
#include <thread>

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <stdexcept>

#include <chrono>

namespace vg::test {

EventLog& EventLog::instance() {
  static EventLog log;
  return log;
}
void EventLog::add(Event e) {
  std::lock_guard lock(mu_);
  events_.push_back(std::move(e));
}
std::vector<Event> EventLog::events() const {
  std::lock_guard lock(mu_);
  return events_;
}
std::vector<std::string> EventLog::sequence(const std::string& node) const {
  std::lock_guard lock(mu_);
  std::vector<std::string> out;
  for (const auto& e : events_)
    if (e.node == node) out.push_back(e.callback);
  return out;
}
void EventLog::clear() {
  std::lock_guard lock(mu_);
  events_.clear();
}

namespace {
std::atomic<int> g_live{0};

struct Recorder {
  explicit Recorder(KernelContext& ctx)
      : name(ctx.node_name()),
        fail_in(ctx.string("fail_in")),
        fail_frame(ctx.integer("fail_frame")),
        busy_us(ctx.integer("busy_us")),
        sleep_us(ctx.integer("sleep_us")),
        record(ctx.boolean("record")) {
    EventLog::instance().add({name, "create", 0, std::this_thread::get_id(), now_ns(), now_ns()});
    if (fail_in == "create") throw Error("recorder '" + name + "' was told to fail in create");
    ++g_live;
  }
  ~Recorder() {
    --g_live;
    EventLog::instance().add({name, "delete", 0, std::this_thread::get_id(), now_ns(), now_ns()});
  }
  Status process(KernelContext& ctx) noexcept {
    const std::int64_t t0 = now_ns();
    if (sleep_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(sleep_us));
    if (busy_us > 0)
      while (now_ns() - t0 < busy_us * 1000) {
      }
    if (ctx.is_bound(0) && ctx.is_bound(1)) ctx.scalar(1).set(ctx.scalar(0).get<double>() + 1.0);
    else if (ctx.is_bound(1)) ctx.scalar(1).set(static_cast<double>(ctx.frame().sequence));
    if (record) EventLog::instance().add({name, "process", ctx.frame().sequence, std::this_thread::get_id(), t0, now_ns()});
    if (fail_in == "process" && (fail_frame < 0 || static_cast<std::uint64_t>(fail_frame) == ctx.frame().sequence)) {
      ctx.set_error("told to fail");
      ctx.report_code(-42);  // as a runtime's error code would be
      return Status::kernel_error;
    }
    return Status::ok;
  }
  Status control(KernelContext&, const ControlCommand& cmd, CommandReply& reply) noexcept {
    if (record) EventLog::instance().add({name, "control", cmd.id, std::this_thread::get_id(), now_ns(), now_ns()});
    if (fail_in == "control" || cmd.id == kCmdFail) return Status::kernel_error;
    if (cmd.id == kCmdDouble) {  // works on the attached data object in place
      if (cmd.num_objects != 1 || cmd.objects[0].meta->kind != DataKind::scalar) return Status::invalid_argument;
      ScalarView v = cmd.scalar(0);
      v.set(v.get<double>() * 2.0);
      reply.write_text("doubled");
      return Status::ok;
    }
    reply.write_text("pong");
    return Status::ok;
  }
  std::string name;
  std::string fail_in;
  std::int64_t fail_frame;
  std::int64_t busy_us;
  std::int64_t sleep_us;
  bool record;
};

Status recorder_create(KernelContext& ctx) {
  ctx.set_instance(new Recorder(ctx));
  return Status::ok;
}
Status recorder_process(KernelContext& ctx) noexcept { return ctx.instance_as<Recorder>()->process(ctx); }
Status recorder_control(KernelContext& ctx, const ControlCommand& cmd, CommandReply& reply) noexcept {
  return ctx.instance_as<Recorder>()->control(ctx, cmd, reply);
}
void recorder_destroy(KernelContext& ctx) noexcept {
  auto* r = ctx.instance_as<Recorder>();
  const bool fail = r->fail_in == "delete";
  delete r;
  ctx.set_instance(nullptr);
  if (fail) ctx.set_error("delete reported a problem");  // delete cannot fail the graph: it must still run once
}

struct Record {
  std::uint64_t frame;
  double value;
};

Status writer_process(KernelContext& ctx) noexcept {
  auto& r = ctx.user_data<Record>(1);
  r.frame = ctx.frame().sequence;
  r.value = ctx.scalar(0).get<double>();
  return Status::ok;
}

Status static_source_create(KernelContext& ctx) {
  ctx.scalar(0).set(42.0);  // written once, read by every frame
  return Status::ok;
}
Status static_source_process(KernelContext&) noexcept { return Status::ok; }

std::atomic<Hook> g_hook{nullptr};
std::atomic<void*> g_hook_arg{nullptr};

Status hook_process(KernelContext& ctx) noexcept {
  if (Hook h = g_hook.load()) h(g_hook_arg.load(), ctx.frame().sequence);
  if (ctx.is_bound(0) && ctx.is_bound(1)) ctx.scalar(1).set(ctx.scalar(0).get<double>());
  return Status::ok;
}

void f64_out(ValidateContext& v, std::size_t p) {
  if (v.is_bound(p)) v.set_meta(p, DataMeta::scalar_of(ElementType::f64));
}
}  // namespace

int live_recorders() { return g_live.load(); }
void set_hook(Hook hook, void* arg) {
  g_hook_arg.store(arg);
  g_hook.store(hook);
}

// A kernel that throws instead of returning a status (what a careless user kernel does): the framework
// must contain it. Not noexcept, on purpose.
struct Thrower {
  explicit Thrower(KernelContext& ctx) : throw_frame(ctx.integer("throw_frame")) {}
  Status process(KernelContext& ctx) {
    if (static_cast<std::int64_t>(ctx.frame().sequence) == throw_frame) throw std::runtime_error("boom in process");
    if (ctx.is_bound(0)) ctx.scalar(0).set(static_cast<double>(ctx.frame().sequence));
    return Status::ok;
  }
  Status control(KernelContext&, const ControlCommand& cmd, CommandReply& reply) {
    if (cmd.id == kCmdFail) throw 42;  // not even a std::exception
    if (cmd.id == kCmdPing) throw std::out_of_range("boom in control");
    reply.write_text("fine");
    return Status::ok;
  }
  std::int64_t throw_frame;
};

// The gate vg.test.hang blocks on; opened by release_hangs() (a test's last act, so stuck threads end).
std::mutex g_gate_mu;
std::condition_variable g_gate_cv;
bool g_gate_open = false;
std::atomic<int> g_hanging{0};

void hang_until_released() {
  ++g_hanging;
  std::unique_lock lock(g_gate_mu);
  g_gate_cv.wait(lock, [] { return g_gate_open; });
  --g_hanging;
}

struct Hang {
  explicit Hang(KernelContext& ctx) : hang_frame(ctx.integer("hang_frame")), hang_in(ctx.string("hang_in")) {
    if (hang_in == "create") hang_until_released();
  }
  Status process(KernelContext& ctx) noexcept {
    if (hang_in == "process" && static_cast<std::int64_t>(ctx.frame().sequence) == hang_frame) hang_until_released();
    if (ctx.is_bound(0)) ctx.scalar(0).set(static_cast<double>(ctx.frame().sequence));
    return Status::ok;
  }
  Status control(KernelContext&, const ControlCommand&, CommandReply& reply) noexcept {
    if (hang_in == "control") hang_until_released();
    reply.write_text("pong");
    return Status::ok;
  }
  std::int64_t hang_frame;
  std::string hang_in;
};


namespace {
// --- vg.test.async: a simulated device that finishes each job on its own thread, as an NPU would.
std::mutex g_async_mu;
AsyncCounts g_async;

class SimulatedDevice {
 public:
  SimulatedDevice() : fence_(::eventfd(0, EFD_CLOEXEC)), thread_([this] { run(); }) {}
  ~SimulatedDevice() {
    {
      std::lock_guard lock(mu_);
      quit_ = true;
    }
    cv_.notify_all();
    thread_.join();
    ::close(fence_);
  }
  int fence() const { return fence_; }
  void submit(std::int64_t latency_us, bool stall) {
    {
      std::lock_guard lock(mu_);
      latency_us_ = latency_us;
      stall_ = stall;
      job_ = true;
    }
    {
      std::lock_guard lock(g_async_mu);
      g_async.max_in_flight = std::max(g_async.max_in_flight, ++g_async.in_flight);
    }
    cv_.notify_all();
  }
  // Wait for the fence (blocking read), or only check it (non-blocking poll).
  bool collect(bool block) {
    pollfd p{fence_, POLLIN, 0};
    if (!block && ::poll(&p, 1, 0) != 1) return false;
    std::uint64_t v = 0;
    if (::read(fence_, &v, sizeof v) != sizeof v) return false;
    return true;
  }

 private:
  void run() {
    std::unique_lock lock(mu_);
    while (true) {
      cv_.wait(lock, [&] { return quit_ || job_; });
      if (quit_) return;
      job_ = false;
      const auto latency = std::chrono::microseconds(latency_us_);
      const bool stall = stall_;
      lock.unlock();
      std::this_thread::sleep_for(latency);
      {
        std::lock_guard g(g_async_mu);
        --g_async.in_flight;
      }
      if (!stall) {
        const std::uint64_t one = 1;
        (void)!::write(fence_, &one, sizeof one);
      }
      lock.lock();
    }
  }
  int fence_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool job_ = false, quit_ = false, stall_ = false;
  std::int64_t latency_us_ = 0;
  std::thread thread_;
};

struct AsyncKernel {
  explicit AsyncKernel(KernelContext& ctx)
      : latency_us(ctx.integer("latency_us")),
        jitter_us(ctx.integer("jitter_us")),
        fail_frame(ctx.integer("fail_frame")),
        stall_frame(ctx.integer("stall_frame")),
        fence(ctx.boolean("fence")) {
    std::lock_guard lock(g_async_mu);
    ++g_async.creates;
  }
  ~AsyncKernel() {
    std::lock_guard lock(g_async_mu);
    ++g_async.deletes;
  }
  Status process(KernelContext& ctx) noexcept {
    const std::uint64_t f = ctx.frame().sequence;
    result = ctx.is_bound(0) ? ctx.scalar(0).get<double>() + 1.0 : static_cast<double>(f);
    stalled = static_cast<std::int64_t>(f) == stall_frame;
    const std::int64_t jitter = jitter_us > 0 ? static_cast<std::int64_t>((f * 7919u) % static_cast<std::uint64_t>(jitter_us)) : 0;
    device.submit(latency_us + jitter, stalled);
    if (fence) ctx.complete_after(device.fence());
    return Status::pending;
  }
  Status complete(KernelContext& ctx) noexcept {
    {
      std::lock_guard lock(g_async_mu);
      ++g_async.completes;
    }
    if (stalled) {
      ctx.set_error("the device did not finish the job");
      return Status::timeout;
    }
    if (!device.collect(!fence)) {
      ctx.set_error("complete ran before the fence signalled");
      return Status::error;
    }
    if (static_cast<std::int64_t>(ctx.frame().sequence) == fail_frame) return Status::kernel_error;
    if (ctx.is_bound(1)) ctx.scalar(1).set(result);
    return Status::ok;
  }
  std::int64_t latency_us, jitter_us, fail_frame, stall_frame;
  bool fence;
  double result = 0;
  bool stalled = false;
  SimulatedDevice device;
};

}  // namespace

AsyncCounts async_counts() {
  std::lock_guard lock(g_async_mu);
  return g_async;
}
void reset_async_counts() {
  std::lock_guard lock(g_async_mu);
  g_async = AsyncCounts{};
}

namespace {
// Process returns pending but there is no complete callback: the framework must refuse the frame.
Status pending_without_complete(KernelContext&) noexcept { return Status::pending; }
}  // namespace

Module make_test_module() {
  Module m("vg.test");
  KernelCallbacks recorder{&recorder_create, &recorder_process, &recorder_control, &recorder_destroy};
  m.add(KernelDecl("vg.test.recorder")
            .input("in", DataKind::scalar, false)
            .output("out", DataKind::scalar, false)
            .attribute("fail_in", "none")
            .attribute("fail_frame", -1)
            .attribute("busy_us", 0)
            .attribute("sleep_us", 0)
            .attribute("record", true)
            .command(kCmdPing, "ping", PayloadKind::none)
            .command(kCmdFail, "fail", PayloadKind::none)
            .command(kCmdDouble, "double", PayloadKind::none)
            .validate([](ValidateContext& v) { f64_out(v, 1); }));
  m.implement("vg.test.recorder", "cpu", recorder);
  m.implement("vg.test.recorder", "npu", recorder);

  m.add(KernelDecl("vg.test.writer")
            .input("in", DataKind::scalar)
            .output("record", DataKind::user_data)
            .validate([](ValidateContext& v) { v.set_meta(1, DataMeta::user_data_of<Record>("vg.test.record")); }));
  m.implement("vg.test.writer", "cpu", KernelCallbacks{nullptr, &writer_process, nullptr, nullptr});

  m.add(KernelDecl("vg.test.static_source")
            .static_output("value", DataKind::scalar)
            .validate([](ValidateContext& v) { f64_out(v, 0); }));
  m.implement("vg.test.static_source", "cpu", KernelCallbacks{&static_source_create, &static_source_process, nullptr, nullptr});
  m.add(KernelDecl("vg.test.hook")
            .input("in", DataKind::scalar, false)
            .output("out", DataKind::scalar, false)
            .validate([](ValidateContext& v) { f64_out(v, 1); }));
  m.implement("vg.test.hook", "cpu", KernelCallbacks{nullptr, &hook_process, nullptr, nullptr});
  m.add(KernelDecl("vg.test.thrower")
            .output("out", DataKind::scalar, false)
            .attribute("throw_frame", -1)
            .command(kCmdPing, "ping", PayloadKind::none)
            .command(kCmdFail, "fail", PayloadKind::none)
            .command(kCmdDouble, "double", PayloadKind::none)
            .validate([](ValidateContext& v) { f64_out(v, 0); }));
  m.implement("vg.test.thrower", "cpu", callbacks_for<Thrower>());
  const auto hang_decl = [](const char* name) {
    KernelDecl d(name);
    d.output("out", DataKind::scalar, false)
        .attribute("hang_frame", -1)
        .attribute("hang_in", "process")
        .command(kCmdPing, "ping", PayloadKind::none)
        .validate([](ValidateContext& v) { f64_out(v, 0); });
    return d;
  };
  m.add(hang_decl("vg.test.hang"));
  m.implement("vg.test.hang", "cpu", callbacks_for<Hang>());
  // The same with deadlines of its own (KernelDecl::deadline), for the kernel-default path.
  KernelDecl hang_with_deadline = hang_decl("vg.test.hang_with_deadline");
  hang_with_deadline.deadline(std::chrono::milliseconds(50), std::chrono::milliseconds(100));
  m.add(std::move(hang_with_deadline));
  m.implement("vg.test.hang_with_deadline", "cpu", callbacks_for<Hang>());
  m.add(KernelDecl("vg.test.async")
            .input("in", DataKind::scalar, false)
            .output("out", DataKind::scalar, false)
            .attribute("latency_us", 1000)
            .attribute("jitter_us", 0)
            .attribute("fail_frame", -1)
            .attribute("stall_frame", -1)
            .attribute("fence", true)
            .validate([](ValidateContext& v) { f64_out(v, 1); }));
  m.implement("vg.test.async", "cpu", callbacks_for<AsyncKernel>());
  m.implement("vg.test.async", "npu", callbacks_for<AsyncKernel>());
  m.add(KernelDecl("vg.test.pending_only").output("out", DataKind::scalar, false).validate([](ValidateContext& v) { f64_out(v, 0); }));
  m.implement("vg.test.pending_only", "cpu", KernelCallbacks{nullptr, &pending_without_complete, nullptr, nullptr});
  return m;
}

void release_hangs() {
  {
    std::lock_guard lock(g_gate_mu);
    g_gate_open = true;
  }
  g_gate_cv.notify_all();
  for (int i = 0; i < 500 && g_hanging.load() > 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // let the released threads leave
  std::lock_guard lock(g_gate_mu);
  g_gate_open = false;
}

int hanging() { return g_hanging.load(); }

}  // namespace vg::test
