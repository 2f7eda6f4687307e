// The lanes of a mask that are true, in order, without a branch per lane: the mask's bits as 64-bit words,
// one step per set bit. Per Highway target (included inside each file's HWY_NAMESPACE pass, with the usual
// toggle guard), used by canny.cpp, fast_corners.cpp and harris.cpp.
#if defined(VG_VISION_TRUE_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef VG_VISION_TRUE_LANES_INL_H_
#undef VG_VISION_TRUE_LANES_INL_H_
#else
#define VG_VISION_TRUE_LANES_INL_H_
#endif

#include <hwy/highway.h>

#include <bit>
#include <cstddef>
#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {

/// Calls @p visit(i) for each lane i of @p mask that is true, lowest first.
template <class D, class M, class Visit>
HWY_INLINE void for_each_true_lane(D d, M mask, Visit&& visit) {
  constexpr std::size_t kWords = (HWY_MAX_BYTES / sizeof(hwy::HWY_NAMESPACE::TFromD<D>) + 63) / 64;
  std::uint8_t bits[kWords * 8 + 8] = {};
  const std::size_t words = (hwy::HWY_NAMESPACE::StoreMaskBits(d, mask, bits) + 7) / 8;
  for (std::size_t k = 0; k < words; ++k) {
    std::uint64_t word = 0;  // lane 8 j + i is bit i of byte j
    for (std::size_t j = 0; j < 8; ++j) word |= std::uint64_t{bits[8 * k + j]} << (8 * j);
    for (; word != 0; word &= word - 1) visit(64 * k + static_cast<std::size_t>(std::countr_zero(word)));
  }
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif
