// The same module as a shared library: `modules: [{library: .../libvg_example_bright_spot.so}]`.
#include "bright_spot.hpp"

namespace {
void fill(vg::Module& module) { module = example::make_bright_spot_module(); }
}  // namespace

VG_DEFINE_MODULE(fill)
