#include "visiongraph/runner/builtin_modules.hpp"

#include "visiongraph/kernels/examples/module.hpp"
#include "visiongraph/kernels/vision/module.hpp"
#include "visiongraph/yaml/assets_dir.hpp"
#if VG_RUNNER_HAVE_DETECTION
#include "visiongraph/kernels/detection/module.hpp"
#endif
#if VG_RUNNER_HAVE_INFERENCE
#include "visiongraph/kernels/inference/module.hpp"
#endif
#if VG_RUNNER_HAVE_RGA
#include "visiongraph/kernels/rga/module.hpp"
#endif

namespace vg::runner {

const std::map<std::string, yaml::ModuleFactory, std::less<>>& builtin_modules() {
  // Built once, never destroyed: module factories may be called until the process ends.
  static const auto* modules = [] {
    auto* m = new std::map<std::string, yaml::ModuleFactory, std::less<>>;
    (*m)["vg.example"] = [] { return vg::examples::make_module(); };
    (*m)["vg.vision"] = [] { return vg::vision::make_vision_module(); };
#if VG_RUNNER_HAVE_DETECTION
    (*m)["vg.detection"] = [] { return vg::detection::make_detection_module(); };
#endif
#if VG_RUNNER_HAVE_INFERENCE
    (*m)["vg.inference"] = [] { return vg::inference::make_inference_module(); };
#endif
#if VG_RUNNER_HAVE_RGA
    (*m)["vg.rga"] = [] { return vg::rga::make_rga_module(); };
#endif
    return m;
  }();
  return *modules;
}

std::vector<std::string> builtin_module_names() {
  std::vector<std::string> names;
  for (const auto& [name, factory] : builtin_modules()) names.push_back(name);
  return names;
}

std::string default_assets_dir() { return yaml::default_assets_dir(); }

yaml::BuildOptions default_build_options() {
  yaml::BuildOptions options;
  for (const auto& [name, factory] : builtin_modules()) options.modules[name] = factory;
  options.variables["VG_ASSETS_DIR"] = default_assets_dir();
  return options;
}

}  // namespace vg::runner
