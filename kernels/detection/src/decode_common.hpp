#pragma once
// Private helpers shared by the decoders (not installed).

#include <cstdint>
#include <limits>
#include <type_traits>

#include "visiongraph/kernels/detection/tensor_ref.hpp"

namespace vg::detection::detail {

/// A threshold expressed in the storage domain of one tensor, so the hot loops compare raw values.
template <class T>
struct Gate {
  using Value = std::conditional_t<std::is_same_v<T, float>, float, std::int32_t>;
  Value threshold{};

  Gate() = default;
  Gate(const TensorRef& t, float real_threshold) noexcept {
    if constexpr (std::is_same_v<T, float>) {
      threshold = real_threshold;
    } else {
      threshold = quantize_threshold(real_threshold, t.scale, t.zero_point);
    }
  }
  bool pass(T v) const noexcept { return static_cast<Value>(v) >= threshold; }
};

template <class T>
inline float dequantize(const TensorRef& t, T v) noexcept {
  if constexpr (std::is_same_v<T, float>) {
    return v;
  } else {
    return static_cast<float>(static_cast<std::int32_t>(v) - t.zero_point) * t.scale;
  }
}

template <class T>
inline const T* typed(const TensorRef& t) noexcept {
  return static_cast<const T*>(t.data);
}

inline constexpr int kScanBlock = 32;

/// Calls f(i) for every i < n with p[i] >= threshold, in increasing i. Mostly-background tensors make this
/// the hot loop: each block is first tested with a fixed-length branch-free OR (vectorized even at -O2),
/// and only blocks holding a candidate are walked element by element.
template <class T, class Th, class F>
inline void for_each_at_least(const T* p, std::int64_t n, Th threshold, F&& f) {
  std::int64_t i = 0;
  for (; i + kScanBlock <= n; i += kScanBlock) {
    int any = 0;
    for (int k = 0; k < kScanBlock; ++k) any |= static_cast<Th>(p[i + k]) >= threshold ? 1 : 0;
    if (any == 0) continue;
    for (int k = 0; k < kScanBlock; ++k)
      if (static_cast<Th>(p[i + k]) >= threshold) f(i + k);
  }
  for (; i < n; ++i)
    if (static_cast<Th>(p[i]) >= threshold) f(i);
}

/// Number of i < n with p[i] >= threshold (branch-free, vectorized).
template <class T, class Th>
inline std::int64_t count_at_least(const T* __restrict p, std::int64_t n, Th threshold) noexcept {
  std::int64_t count = 0;
  for (std::int64_t i = 0; i < n; ++i) count += static_cast<Th>(p[i]) >= threshold ? 1 : 0;
  return count;
}

/// best[i] = max(best[i], plane[i]) for i < n, in fixed-length blocks so the compiler vectorizes it
/// (__restrict: the -O2 cost model will not vectorize when it would need a runtime alias check).
template <class T, class B>
inline void max_into(const T* __restrict plane, std::int64_t n, B* __restrict best) noexcept {
  std::int64_t i = 0;
  for (; i + kScanBlock <= n; i += kScanBlock)
    for (int k = 0; k < kScanBlock; ++k) {
      const B v = static_cast<B>(plane[i + k]);
      best[i + k] = best[i + k] < v ? v : best[i + k];
    }
  for (; i < n; ++i) {
    const B v = static_cast<B>(plane[i]);
    best[i] = best[i] < v ? v : best[i];
  }
}

/// Calls f operator()<T>() with T matching the tensor's element type.
template <class F>
inline void dispatch_type(ElemType type, F&& f) {
  switch (type) {
    case ElemType::f32:
      f.template operator()<float>();
      break;
    case ElemType::i8:
      f.template operator()<std::int8_t>();
      break;
    case ElemType::u8:
      f.template operator()<std::uint8_t>();
      break;
  }
}

}  // namespace vg::detection::detail
