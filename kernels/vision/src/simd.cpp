#include "visiongraph/kernels/vision/simd.hpp"

#include <hwy/highway.h>
#include <hwy/targets.h>

namespace vg::vision {

std::vector<SimdTarget> simd_targets() {
  std::vector<SimdTarget> out;
  for (const std::int64_t t : hwy::SupportedAndGeneratedTargets()) out.push_back({t, hwy::TargetName(t)});
  return out;
}

std::string current_simd_target() {
  // The best target the CPU supports among those compiled in (what dynamic dispatch chooses).
  const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
  return targets.empty() ? std::string("none") : std::string(hwy::TargetName(targets.front()));
}

void force_simd_target(std::int64_t target_id) noexcept { hwy::SetSupportedTargetsForTest(target_id); }

}  // namespace vg::vision
