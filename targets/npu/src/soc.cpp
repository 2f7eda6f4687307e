#include "visiongraph/npu/soc.hpp"

#include <array>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace vg::npu {
namespace {

struct SocCores {
  std::string_view name;
  unsigned cores;
};

// The rknpu driver's per-SoC core masks (0x7, 0x3, 0x1) as core counts. Device trees name the RK3588S
// "rk3588s" and the RV1103 "rv1103"; both share their sibling's NPU.
constexpr std::array<SocCores, 10> kSocs{{{"rk3588", 3},
                                          {"rk3588s", 3},
                                          {"rk3576", 2},
                                          {"rk3583", 2},
                                          {"rk3568", 1},
                                          {"rk3566", 1},
                                          {"rk3562", 1},
                                          {"rv1106", 1},
                                          {"rv1103", 1},
                                          {"rv1103b", 1}}};

}  // namespace

unsigned npu_cores_of(std::string_view soc) noexcept {
  for (const SocCores& s : kSocs)
    if (s.name == soc) return s.cores;
  return 0;
}

NpuSoc detect_npu_soc(const std::string& compatible_path) {
  NpuSoc soc;
  std::ifstream in(compatible_path, std::ios::binary);
  if (in) {
    const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::size_t start = 0;
    while (start < all.size()) {
      std::size_t end = all.find('\0', start);
      if (end == std::string::npos) end = all.size();
      const std::string_view entry(all.data() + start, end - start);
      constexpr std::string_view kVendor = "rockchip,";
      if (entry.substr(0, kVendor.size()) == kVendor) {
        const std::string_view name = entry.substr(kVendor.size());
        if (const unsigned cores = npu_cores_of(name); cores > 0) {
          soc.name = std::string(name);
          soc.cores = cores;
          soc.source = "device tree (" + compatible_path + ")";
          break;
        }
      }
      start = end + 1;
    }
    if (soc.cores == 0) soc.source = "no known Rockchip SoC in " + compatible_path;
  } else {
    soc.source = "no " + compatible_path + " (not a device-tree board)";
  }
  if (const char* env = std::getenv("VG_NPU_CORES"); env != nullptr && *env != '\0') {
    char* end = nullptr;
    const long n = std::strtol(env, &end, 10);
    if (end == nullptr || *end != '\0' || n < 1 || n > 3)
      throw std::invalid_argument("VG_NPU_CORES='" + std::string(env) + "': must be 1, 2 or 3 (the SoC's NPU cores)");
    soc.cores = static_cast<unsigned>(n);
    soc.source = "VG_NPU_CORES";
  }
  return soc;
}

}  // namespace vg::npu
