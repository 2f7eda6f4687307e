#include "test_kernels.hpp"

#include <condition_variable>
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
  m.add(KernelDecl("vg.test.hang")
            .output("out", DataKind::scalar, false)
            .attribute("hang_frame", -1)
            .attribute("hang_in", "process")
            .command(kCmdPing, "ping", PayloadKind::none)
            .validate([](ValidateContext& v) { f64_out(v, 0); }));
  m.implement("vg.test.hang", "cpu", callbacks_for<Hang>());
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
