#include "fuzz_one.hpp"

#include <string>

#include "visiongraph/kernels/examples/module.hpp"
#include "visiongraph/visiongraph.hpp"
#include "visiongraph/yaml/yaml.hpp"

namespace vg::yaml::fuzz {

namespace {
Context& shared_context() {
  // One context for every iteration (starting target threads per input would dominate the run).
  static Context* context = [] {
    auto* c = new Context();
    c->load_module(vg::examples::make_module());
    return c;
  }();
  return *context;
}
}  // namespace

bool load_one(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    GraphDesc desc = parse_string(text, "fuzz.yaml");
    desc.set_auto_size(32, 24);
    desc.targets.clear();  // the shared context has the default targets
    BuildOptions options;
    options.modules["vg.example"] = [] { return vg::examples::make_module(); };
    options.use_environment = false;
    options.allow_module_libraries = false;
    options.context = &shared_context();
    options.variables["VG_ASSETS_DIR"] = "/nonexistent";
    auto loaded = build(desc, options);
    // Kernels that sleep or spin for an attribute-given time could stall the run: build those only.
    bool timed = false;
    for (const auto& n : desc.nodes) timed = timed || n.kernel == "vg.example.wait" || n.kernel == "vg.example.spin";
    if (desc.graph_parameters.empty() && !timed) (void)loaded->graph().process(std::chrono::seconds(5));
    return true;
  } catch (const vg::Error&) {
    return false;
  }
}

}  // namespace vg::yaml::fuzz
