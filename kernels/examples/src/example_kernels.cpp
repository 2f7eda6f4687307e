#include <chrono>
#include <cstdio>
#include <thread>

#include "visiongraph/kernels/examples/module.hpp"
#include "visiongraph/visiongraph.hpp"

namespace vg::examples {

namespace {

void require_f64_scalar(ValidateContext& v, std::size_t param, const char* name) {
  if (v.meta(param).scalar.type != ElementType::f64) v.fail(name, "expects an f64 scalar, got " + v.meta(param).describe());
}

/// sum = a + b + bias; bias can be changed at run time.
struct Add {
  explicit Add(KernelContext& ctx) : bias(ctx.number("bias")) {}
  Status process(KernelContext& ctx) noexcept {
    ctx.scalar(2).set(ctx.scalar(0).get<double>() + ctx.scalar(1).get<double>() + bias);
    return Status::ok;
  }
  Status control(KernelContext&, const ControlCommand& cmd, CommandReply& reply) noexcept {
    if (cmd.id == kSetBias) {
      double value = 0;
      if (!cmd.read(value)) return Status::invalid_argument;
      bias = value;
    }
    char text[64];
    std::snprintf(text, sizeof(text), "bias=%g", bias);
    reply.write_text(text);
    return Status::ok;
  }
  double bias;
};

struct Scale {
  explicit Scale(KernelContext& ctx) : factor(ctx.number("factor")) {}
  Status process(KernelContext& ctx) noexcept {
    ctx.scalar(1).set(ctx.scalar(0).get<double>() * factor);
    return Status::ok;
  }
  double factor;
};

Status counter_process(KernelContext& ctx) noexcept {
  ctx.scalar(0).set(static_cast<double>(ctx.frame().sequence));
  return Status::ok;
}

Status nop_process(KernelContext& ctx) noexcept {
  if (ctx.is_bound(0) && ctx.is_bound(1)) ctx.scalar(1).set(ctx.scalar(0).get<double>());
  return Status::ok;
}

struct Wait {
  explicit Wait(KernelContext& ctx) : micros(ctx.integer("micros")) {}
  Status process(KernelContext& ctx) noexcept {
    // Sleep rather than spin: an NPU thread waits for the device and leaves the CPU to others.
    std::this_thread::sleep_for(std::chrono::microseconds(micros));
    if (ctx.is_bound(0) && ctx.is_bound(1)) ctx.scalar(1).set(ctx.scalar(0).get<double>());
    return Status::ok;
  }
  Status control(KernelContext&, const ControlCommand& cmd, CommandReply&) noexcept {
    std::int64_t value = 0;
    if (!cmd.read(value) || value < 0) return Status::invalid_argument;
    micros = value;
    return Status::ok;
  }
  std::int64_t micros;
};

struct Spin {
  explicit Spin(KernelContext& ctx) : micros(ctx.integer("micros")) {}
  Status process(KernelContext& ctx) noexcept {
    // Burn CPU like a real CPU kernel (preprocess, postprocess) would.
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(micros);
    while (std::chrono::steady_clock::now() < until) {
    }
    if (ctx.is_bound(0) && ctx.is_bound(1)) ctx.scalar(1).set(ctx.scalar(0).get<double>());
    return Status::ok;
  }
  std::int64_t micros;
};

void set_f64_output(ValidateContext& v, std::size_t param) { v.set_meta(param, DataMeta::scalar_of(ElementType::f64)); }

}  // namespace

Module make_module() {
  Module m("vg.example");
  m.add(KernelDecl("vg.example.add", "sum = a + b + bias")
            .input("a", DataKind::scalar)
            .input("b", DataKind::scalar)
            .output("sum", DataKind::scalar)
            .attribute("bias", 0.0, "added to every sum")
            .command(kSetBias, "set_bias", PayloadKind::number, "replace the bias; replies with the new value")
            .command(kGetBias, "get_bias", PayloadKind::none, "reply with the current bias")
            .validate([](ValidateContext& v) {
              require_f64_scalar(v, 0, "a");
              require_f64_scalar(v, 1, "b");
              set_f64_output(v, 2);
            }));
  m.implement("vg.example.add", "cpu", callbacks_for<Add>());

  m.add(KernelDecl("vg.example.scale", "out = in * factor")
            .input("in", DataKind::scalar)
            .output("out", DataKind::scalar)
            .attribute("factor", 1.0, "multiplier")
            .validate([](ValidateContext& v) {
              require_f64_scalar(v, 0, "in");
              set_f64_output(v, 1);
            }));
  m.implement("vg.example.scale", "cpu", callbacks_for<Scale>());

  m.add(KernelDecl("vg.example.counter", "out = frame sequence number")
            .output("out", DataKind::scalar)
            .validate([](ValidateContext& v) { set_f64_output(v, 0); }));
  m.implement("vg.example.counter", "cpu", KernelCallbacks{nullptr, &counter_process, nullptr, nullptr});

  m.add(KernelDecl("vg.example.nop", "does nothing (dispatch overhead)")
            .input("in", DataKind::scalar, false)
            .output("out", DataKind::scalar, false)
            .validate([](ValidateContext& v) {
              if (v.is_bound(1)) set_f64_output(v, 1);
            }));
  m.implement("vg.example.nop", "cpu", KernelCallbacks{nullptr, &nop_process, nullptr, nullptr});
  m.implement("vg.example.nop", "npu", KernelCallbacks{nullptr, &nop_process, nullptr, nullptr});

  m.add(KernelDecl("vg.example.wait", "sleeps, then copies in -> out (models an accelerator)")
            .input("in", DataKind::scalar, false)
            .output("out", DataKind::scalar, false)
            .attribute("micros", 1000, "microseconds to sleep per frame")
            .command(kSetMicros, "set_micros", PayloadKind::integer, "change the sleep")
            // A set_micros of an hour must not freeze the graph: past 10 s the call is reported and
            // its target contained (docs/service.md, deadlines).
            .deadline(std::chrono::seconds(10))
            .validate([](ValidateContext& v) {
              if (v.is_bound(1)) set_f64_output(v, 1);
            }));
  m.implement("vg.example.wait", "cpu", callbacks_for<Wait>());
  m.add(KernelDecl("vg.example.spin", "busy-waits, then copies in -> out (models CPU work)")
            .input("in", DataKind::scalar, false)
            .output("out", DataKind::scalar, false)
            .attribute("micros", 1000, "microseconds of CPU work per frame")
            .validate([](ValidateContext& v) {
              if (v.is_bound(1)) set_f64_output(v, 1);
            }));
  m.implement("vg.example.spin", "cpu", callbacks_for<Spin>());
  m.implement("vg.example.wait", "npu", callbacks_for<Wait>());
  return m;
}

}  // namespace vg::examples
