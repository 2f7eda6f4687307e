#pragma once
// Checked size arithmetic: every byte count, stride and offset the library computes from sizes it was given
// goes through these, so a product that wraps (easily reached where vx_size is 32 bits) is refused instead
// of allocating too little and writing past it.
#include <VX/vx.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace vg::openvx {

/// The most bytes one object's memory may take. Offsets into it are std::ptrdiff_t, so never more than
/// PTRDIFF_MAX; on 64-bit hosts 1 TiB, far beyond any real request (larger ones are refused before an
/// allocator sees them, which some allocators, the sanitizers' among them, treat as a fatal error).
inline constexpr vx_size kMaxObjectBytes =
    sizeof(std::ptrdiff_t) >= 8 ? (vx_size{1} << 40) : static_cast<vx_size>(PTRDIFF_MAX);

/// The most items a container (object array, pyramid, delay) may hold: each item is a whole object, so a
/// count beyond this is a mistake, refused before any item is made.
inline constexpr vx_size kMaxContainerItems = 65536;

/// @p a * @p b into @p out; false (and @p out untouched) when the exact result does not fit in T.
template <typename T, typename A, typename B>
[[nodiscard]] constexpr bool checked_mul(A a, B b, T& out) noexcept {
  static_assert(std::is_integral_v<T> && std::is_integral_v<A> && std::is_integral_v<B>);
  T result{};
  if (__builtin_mul_overflow(a, b, &result)) return false;
  out = result;
  return true;
}

/// @p a + @p b into @p out; false (and @p out untouched) when the exact result does not fit in T.
template <typename T, typename A, typename B>
[[nodiscard]] constexpr bool checked_add(A a, B b, T& out) noexcept {
  static_assert(std::is_integral_v<T> && std::is_integral_v<A> && std::is_integral_v<B>);
  T result{};
  if (__builtin_add_overflow(a, b, &result)) return false;
  out = result;
  return true;
}

/// The product of @p factors as a byte count of one object: false when it wraps or exceeds kMaxObjectBytes.
template <typename... Factors>
[[nodiscard]] constexpr bool checked_bytes(vx_size& out, Factors... factors) noexcept {
  vx_size product = 1;
  const bool fits = (checked_mul(product, factors, product) && ...);
  if (!fits || product > kMaxObjectBytes) return false;
  out = product;
  return true;
}

/// @p total + @p more as a byte count of one object (the running total of several planes or levels).
[[nodiscard]] constexpr bool checked_grow(vx_size& total, vx_size more) noexcept {
  vx_size sum = 0;
  if (!checked_add(total, more, sum) || sum > kMaxObjectBytes) return false;
  total = sum;
  return true;
}

/// Whether @p count steps of @p stride bytes from a pointer stay addressable (the application's memory is
/// reached as std::ptrdiff_t offsets from its pointer; whether it is that large is the application's part).
[[nodiscard]] constexpr bool addressable(vx_size count, vx_size stride) noexcept {
  vx_size span = 0;
  return checked_mul(count, stride, span) && span <= static_cast<vx_size>(PTRDIFF_MAX);
}

}  // namespace vg::openvx
