#include "builtin_modules.hpp"

#include "visiongraph/yaml/assets_dir.hpp"

#include <cstdlib>

#include "visiongraph/kernels/examples/module.hpp"
#include "visiongraph/kernels/vision/module.hpp"
#if VG_CLI_HAVE_DETECTION
#include "visiongraph/kernels/detection/module.hpp"
#endif
#if VG_CLI_HAVE_INFERENCE
#include "visiongraph/kernels/inference/module.hpp"
#endif
#if VG_CLI_HAVE_RGA
#include "visiongraph/kernels/rga/module.hpp"
#endif

namespace vg::cli {

std::string default_assets_dir() { return yaml::default_assets_dir(); }

yaml::BuildOptions default_build_options() {
  yaml::BuildOptions options;
  options.modules["vg.example"] = [] { return vg::examples::make_module(); };
  options.modules["vg.vision"] = [] { return vg::vision::make_vision_module(); };
#if VG_CLI_HAVE_DETECTION
  options.modules["vg.detection"] = [] { return vg::detection::make_detection_module(); };
#endif
#if VG_CLI_HAVE_INFERENCE
  options.modules["vg.inference"] = [] { return vg::inference::make_inference_module(); };
#endif
#if VG_CLI_HAVE_RGA
  options.modules["vg.rga"] = [] { return vg::rga::make_rga_module(); };
#endif
  options.variables["VG_ASSETS_DIR"] = default_assets_dir();
  return options;
}

}  // namespace vg::cli
