#include <visiongraph/visiongraph.hpp>

#include <iostream>

namespace {
vg::Status twice(vg::KernelContext& ctx) noexcept {
  ctx.scalar(1).set(2 * ctx.scalar(0).get<double>());
  return vg::Status::ok;
}
}  // namespace

int main() {
  vg::Context ctx;
  vg::Module m("consumer");
  m.add(vg::KernelDecl("consumer.twice").input("in", vg::DataKind::scalar).output("out", vg::DataKind::scalar).validate(
      [](vg::ValidateContext& v) { v.set_meta(1, vg::DataMeta::scalar_of(vg::ElementType::f64)); }));
  m.implement("consumer.twice", "cpu", vg::KernelCallbacks{nullptr, &twice, nullptr, nullptr});
  ctx.load_module(std::move(m));
  vg::Graph g(ctx);
  auto in = g.add_data("in", vg::DataMeta::scalar_of(vg::ElementType::f64));
  auto out = g.add_virtual("out", vg::DataKind::scalar);
  g.bind(g.add_node("t", "consumer.twice"), "in", in).bind(g.find_node("t"), "out", out);
  g.verify();
  g.scalar(in).set(21.0);
  if (g.process() != vg::Status::ok) return 1;
  std::cout << "consumer result " << g.scalar(out).get<double>() << "\n";
  return g.scalar(out).get<double>() == 42.0 ? 0 : 1;
}
