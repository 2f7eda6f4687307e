// A kernel module built as a shared library: exactly what a user ships as a plugin.
#include "visiongraph/visiongraph.hpp"

namespace {

vg::Status negate(vg::KernelContext& ctx) noexcept {
  ctx.scalar(1).set(-ctx.scalar(0).get<double>());
  return vg::Status::ok;
}

void fill(vg::Module& m) {
  m.set_name("plugin.negate");
  m.add(vg::KernelDecl("plugin.negate")
            .input("in", vg::DataKind::scalar)
            .output("out", vg::DataKind::scalar)
            .validate([](vg::ValidateContext& v) { v.set_meta(1, vg::DataMeta::scalar_of(vg::ElementType::f64)); }));
  m.implement("plugin.negate", "cpu", vg::KernelCallbacks{nullptr, &negate, nullptr, nullptr});
}

}  // namespace

VG_DEFINE_MODULE(fill)
