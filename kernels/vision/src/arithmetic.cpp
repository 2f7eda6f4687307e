// Add, Subtract, AbsDiff, Multiply and the bitwise functions (arithmetic.hpp). Compiled once per Highway target as
// filter3x3.cpp is.
//
// U8 x U8 -> U8 works on byte vectors (Highway's wrapping and saturating byte arithmetic). Every other
// combination works on 16-bit lanes: a U8 input is widened to int16 (0..255), and int16 arithmetic then
// gives exactly OpenVX's results: wrapping Add/Sub keeps the low 16 bits, the saturating forms clamp to
// -32768..32767, and |a - b| saturated is max(sat(a - b), sat(b - a)).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "arithmetic.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cmath>
#include <cstdlib>
#include <type_traits>

#include "visiongraph/kernels/vision/arithmetic.hpp"
#include "visiongraph/kernels/vision/rounding.hpp"

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <Arithmetic Op, bool Saturate, class D, class V>
HWY_INLINE V apply(D, V a, V b) {
  if constexpr (Op == Arithmetic::add) {
    return Saturate ? hn::SaturatedAdd(a, b) : hn::Add(a, b);
  } else if constexpr (Op == Arithmetic::subtract) {
    return Saturate ? hn::SaturatedSub(a, b) : hn::Sub(a, b);
  } else if constexpr (hwy::IsSigned<hn::TFromV<V>>()) {
    return hn::Max(hn::SaturatedSub(a, b), hn::SaturatedSub(b, a));
  } else {
    return hn::Or(hn::SaturatedSub(a, b), hn::SaturatedSub(b, a));  // one of the two is 0
  }
}

// The scalar forms, for row tails: the same results, from int.
template <Arithmetic Op>
HWY_INLINE int exact(int a, int b) {
  return Op == Arithmetic::add ? a + b : Op == Arithmetic::subtract ? a - b : std::abs(a - b);
}
template <class Out>
HWY_INLINE Out narrow(int v, bool saturate) {
  if (saturate) {
    constexpr int lo = std::is_same_v<Out, std::uint8_t> ? 0 : -32768, hi = std::is_same_v<Out, std::uint8_t> ? 255 : 32767;
    return static_cast<Out>(std::clamp(v, lo, hi));
  }
  return static_cast<Out>(static_cast<std::make_unsigned_t<Out>>(v));
}

template <Arithmetic Op, bool Saturate>
void bytes_rows(ConstPixels a, ConstPixels b, Pixels out, std::uint32_t begin, std::uint32_t end) {
  const hn::ScalableTag<std::uint8_t> d;
  const std::size_t lanes = hn::Lanes(d), width = a.width;
  for (std::uint32_t y = begin; y < end; ++y) {
    const std::uint8_t* pa = a.row<std::uint8_t>(y);
    const std::uint8_t* pb = b.row<std::uint8_t>(y);
    std::uint8_t* po = out.row<std::uint8_t>(y);
    std::size_t x = 0;
    for (; x + lanes <= width; x += lanes) hn::StoreU(apply<Op, Saturate>(d, hn::LoadU(d, pa + x), hn::LoadU(d, pb + x)), d, po + x);
    for (; x < width; ++x) po[x] = narrow<std::uint8_t>(exact<Op>(pa[x], pb[x]), Saturate || Op == Arithmetic::absdiff);
  }
}

/// A row of A (U8 or S16) as int16 lanes.
template <class In, class D>
HWY_INLINE hn::Vec<D> load_i16(D d, const In* p) {
  if constexpr (std::is_same_v<In, std::uint8_t>) {
    return hn::PromoteTo(d, hn::LoadU(hn::Rebind<std::uint8_t, D>(), p));
  } else {
    return hn::LoadU(d, p);
  }
}

template <Arithmetic Op, bool Saturate, class A, class B>
void words_rows(ConstPixels a, ConstPixels b, Pixels out, std::uint32_t begin, std::uint32_t end) {
  const hn::ScalableTag<std::int16_t> d;
  const std::size_t lanes = hn::Lanes(d), width = a.width;
  for (std::uint32_t y = begin; y < end; ++y) {
    const A* pa = a.row<A>(y);
    const B* pb = b.row<B>(y);
    std::int16_t* po = out.row<std::int16_t>(y);
    std::size_t x = 0;
    for (; x + lanes <= width; x += lanes) hn::StoreU(apply<Op, Saturate>(d, load_i16(d, pa + x), load_i16(d, pb + x)), d, po + x);
    for (; x < width; ++x) po[x] = narrow<std::int16_t>(exact<Op>(pa[x], pb[x]), Saturate || Op == Arithmetic::absdiff);
  }
}

template <Arithmetic Op, bool Saturate>
bool typed_rows(ConstPixels a, ConstPixels b, Pixels out, std::uint32_t begin, std::uint32_t end) {
  using U8 = std::uint8_t;
  using S16 = std::int16_t;
  const PixelType ta = a.type, tb = b.type, to = out.type;
  if (ta == PixelType::u8 && tb == PixelType::u8) {
    if (to == PixelType::u8) {
      bytes_rows<Op, Saturate>(a, b, out, begin, end);
    } else {
      words_rows<Op, Saturate, U8, U8>(a, b, out, begin, end);
    }
    return true;
  }
  if (to != PixelType::s16) return false;
  if (ta == PixelType::u8) {
    words_rows<Op, Saturate, U8, S16>(a, b, out, begin, end);
  } else if (tb == PixelType::u8) {
    words_rows<Op, Saturate, S16, U8>(a, b, out, begin, end);
  } else {
    words_rows<Op, Saturate, S16, S16>(a, b, out, begin, end);
  }
  return true;
}

bool ArithmeticRows(Arithmetic op, ConstPixels a, ConstPixels b, Pixels out, Overflow overflow, std::uint32_t begin, std::uint32_t end) {
  const bool saturate = overflow == Overflow::saturate;
  switch (op) {
    case Arithmetic::add:
      return saturate ? typed_rows<Arithmetic::add, true>(a, b, out, begin, end) : typed_rows<Arithmetic::add, false>(a, b, out, begin, end);
    case Arithmetic::subtract:
      return saturate ? typed_rows<Arithmetic::subtract, true>(a, b, out, begin, end)
                      : typed_rows<Arithmetic::subtract, false>(a, b, out, begin, end);
    case Arithmetic::absdiff: return typed_rows<Arithmetic::absdiff, true>(a, b, out, begin, end);
  }
  return false;
}

// --- Multiply: double lanes, operation for operation the definition -----------------------------------

/// One pixel: the scalar form, also for blocks whose results do not fit int32 under wrap.
template <class Out>
inline Out multiply_one(int a, int b, double scale, bool saturate, bool nearest_even) noexcept {
  const double scaled = static_cast<double>(a * b) * scale;
  const double r = nearest_even ? round_half_even(scaled) : std::trunc(scaled);
  constexpr double lo = std::is_same_v<Out, std::uint8_t> ? 0.0 : -32768.0, hi = std::is_same_v<Out, std::uint8_t> ? 255.0 : 32767.0;
  if (saturate) return static_cast<Out>(r < lo ? lo : r > hi ? hi : r);
  // Wrap: the low bits; beyond int64 the low 16 bits through fmod (exact), 2^16 being a multiple of 2^8.
  const double low = std::fabs(r) < 0x1p62 ? r : std::fmod(r, 0x1p16);
  return static_cast<Out>(static_cast<std::make_unsigned_t<Out>>(static_cast<std::int64_t>(low)));
}

#if HWY_HAVE_FLOAT64
template <class In, class D>
HWY_INLINE auto load_i32(D /*d64*/, const In* p) {
  const hn::Rebind<std::int32_t, D> d32;
  return hn::PromoteTo(d32, hn::LoadU(hn::Rebind<In, D>(), p));
}
#endif

template <class A, class B, class Out>
void multiply_rows(ConstPixels a, ConstPixels b, Pixels out, double scale, bool saturate, bool nearest_even, std::uint32_t begin,
                   std::uint32_t end) {
  const std::size_t width = a.width;
  for (std::uint32_t y = begin; y < end; ++y) {
    const A* pa = a.row<A>(y);
    const B* pb = b.row<B>(y);
    Out* po = out.row<Out>(y);
    std::size_t x = 0;
#if HWY_HAVE_FLOAT64
    const hn::ScalableTag<double> d;
    const hn::Rebind<std::int32_t, decltype(d)> d32;
    const hn::Rebind<std::uint32_t, decltype(d)> du32;
    const hn::Rebind<Out, decltype(d)> dout;
    const std::size_t lanes = hn::Lanes(d);
    constexpr double lo = std::is_same_v<Out, std::uint8_t> ? 0.0 : -32768.0, hi = std::is_same_v<Out, std::uint8_t> ? 255.0 : 32767.0;
    const auto vscale = hn::Set(d, scale), vlo = hn::Set(d, lo), vhi = hn::Set(d, hi), int32_span = hn::Set(d, 0x1p31);
    for (; x + lanes <= width; x += lanes) {
      const auto product = hn::Mul(load_i32(d, pa + x), load_i32(d, pb + x));  // exact: at most 2^30
      const auto scaled = hn::Mul(hn::PromoteTo(d, product), vscale);
      const auto r = nearest_even ? hn::Round(scaled) : hn::Trunc(scaled);
      if (saturate) {
        hn::StoreU(hn::DemoteTo(dout, hn::DemoteTo(d32, hn::Min(hn::Max(r, vlo), vhi))), dout, po + x);
      } else if (hn::AllTrue(d, hn::Lt(hn::Abs(r), int32_span))) {
        // The low bits of the int32: truncating narrowing of the unsigned view.
        const auto bits = hn::BitCast(du32, hn::DemoteTo(d32, r));
        const hn::Rebind<hwy::MakeUnsigned<Out>, decltype(d)> dnarrow;
        hn::StoreU(hn::BitCast(dout, hn::TruncateTo(dnarrow, bits)), dout, po + x);
      } else {
        for (std::size_t i = x; i < x + lanes; ++i) po[i] = multiply_one<Out>(pa[i], pb[i], scale, false, nearest_even);
      }
    }
#endif
    for (; x < width; ++x) po[x] = multiply_one<Out>(pa[x], pb[x], scale, saturate, nearest_even);
  }
}

// --- Multiply's exact integer forms -------------------------------------------------------------------
// Where double(a * b) * scale rounds to a value integer arithmetic gives exactly, the definition is
// computed without doubles: scale 1 (the product itself), scale 2^-n (a shift with the rounding mode) and,
// for two U8 inputs, scale 1/255 (division by 255; p / 255 is never a half, and the double error stays far
// from every rounding boundary over 0..65025, checked product by product in the tests).

/// What a scale lets the integer forms do.
enum class IntegerScale : std::uint8_t { none, shift, divide_255 };

/// U8 x U8: the product in uint16 lanes (at most 65025), then the scale, then out's type.
template <class Out, IntegerScale Kind>
void multiply_u8_rows(ConstPixels a, ConstPixels b, Pixels out, double scale, int shift, bool saturate, bool nearest_even, std::uint32_t begin,
                      std::uint32_t end) {
  const hn::ScalableTag<std::uint16_t> d;
  const hn::Rebind<std::uint8_t, decltype(d)> d8;
  const hn::Rebind<std::int16_t, decltype(d)> di;
  const std::size_t lanes = hn::Lanes(d), width = a.width;
  const auto mask = hn::Set(d, static_cast<std::uint16_t>((1u << shift) - 1u)), half = hn::Set(d, static_cast<std::uint16_t>((1u << shift) >> 1));
  const auto one = hn::Set(d, std::uint16_t{1}), bias = hn::Set(d, std::uint16_t{127}), magic = hn::Set(d, std::uint16_t{0x8081});
  const auto top = hn::Set(d, static_cast<std::uint16_t>(std::is_same_v<Out, std::uint8_t> ? 255 : 32767));
  const auto low = hn::Set(d, static_cast<std::uint16_t>(std::is_same_v<Out, std::uint8_t> ? 0xFF : 0xFFFF));
  for (std::uint32_t y = begin; y < end; ++y) {
    const std::uint8_t* pa = a.row<std::uint8_t>(y);
    const std::uint8_t* pb = b.row<std::uint8_t>(y);
    Out* po = out.row<Out>(y);
    std::size_t x = 0;
    for (; x + lanes <= width; x += lanes) {
      auto p = hn::Mul(hn::PromoteTo(d, hn::LoadU(d8, pa + x)), hn::PromoteTo(d, hn::LoadU(d8, pb + x)));
      if constexpr (Kind == IntegerScale::shift) {
        // q = floor(p / 2^n); to nearest even it goes up when the remainder is above half, or half and q odd.
        const auto q = hn::ShiftRightSame(p, shift);
        p = nearest_even ? hn::Add(q, hn::IfThenElseZero(hn::Gt(hn::Add(hn::And(p, mask), hn::And(q, one)), half), one)) : q;
      } else if constexpr (Kind == IntegerScale::divide_255) {
        // floor(x / 255) = (x * 0x8081) >> 23 for every x below 66052; rounding to nearest adds 127 first.
        p = hn::ShiftRight<7>(hn::MulHigh(nearest_even ? hn::Add(p, bias) : p, magic));
      }
      p = saturate ? hn::Min(p, top) : hn::And(p, low);
      if constexpr (std::is_same_v<Out, std::uint8_t>) {
        hn::StoreU(hn::DemoteTo(d8, hn::BitCast(di, p)), d8, po + x);  // at most 255: the demotion keeps it
      } else {
        hn::StoreU(hn::BitCast(di, p), di, po + x);
      }
    }
    for (; x < width; ++x) po[x] = multiply_one<Out>(pa[x], pb[x], scale, saturate, nearest_even);
  }
}

/// Inputs with an S16: the product in int32 lanes (|p| at most 2^30), then the shift, then out's type.
template <class A, class B, IntegerScale Kind>
void multiply_s16_rows(ConstPixels a, ConstPixels b, Pixels out, double scale, int shift, bool saturate, bool nearest_even, std::uint32_t begin,
                       std::uint32_t end) {
  static_assert(Kind != IntegerScale::divide_255, "division by 255 is for two U8 inputs");
  const hn::ScalableTag<std::int32_t> d;
  const hn::Rebind<std::int16_t, decltype(d)> d16;
  const hn::Rebind<std::uint16_t, decltype(d)> du16;
  const hn::Rebind<std::uint32_t, decltype(d)> du32;
  const std::size_t lanes = hn::Lanes(d), width = a.width;
  const auto mask = hn::Set(d, (std::int32_t{1} << shift) - 1), half = hn::Set(d, (std::int32_t{1} << shift) >> 1);
  const auto one = hn::Set(d, 1);
  for (std::uint32_t y = begin; y < end; ++y) {
    const A* pa = a.row<A>(y);
    const B* pb = b.row<B>(y);
    std::int16_t* po = out.row<std::int16_t>(y);
    std::size_t x = 0;
    for (; x + lanes <= width; x += lanes) {
      auto p = hn::Mul(hn::PromoteTo(d, hn::LoadU(hn::Rebind<A, decltype(d)>(), pa + x)),
                       hn::PromoteTo(d, hn::LoadU(hn::Rebind<B, decltype(d)>(), pb + x)));
      if constexpr (Kind == IntegerScale::shift) {
        const auto q = hn::ShiftRightSame(p, shift), r = hn::And(p, mask);  // q = floor(p / 2^n), r >= 0
        // To nearest even: up when r is above half, or half and q odd. Toward zero: up when p < 0 and r != 0.
        const auto up = nearest_even ? hn::Gt(hn::Add(r, hn::And(q, one)), half)
                                     : hn::And(hn::Lt(p, hn::Zero(d)), hn::Ne(r, hn::Zero(d)));
        p = hn::Add(q, hn::IfThenElseZero(up, one));
      }
      const auto narrowed = saturate ? hn::DemoteTo(d16, p) : hn::BitCast(d16, hn::TruncateTo(du16, hn::BitCast(du32, p)));
      hn::StoreU(narrowed, d16, po + x);
    }
    for (; x < width; ++x) po[x] = multiply_one<std::int16_t>(pa[x], pb[x], scale, saturate, nearest_even);
  }
}

/// The integer form @p scale allows for these types (@p shift set for IntegerScale::shift), or none.
IntegerScale integer_scale(double scale, bool two_u8, int& shift) {
  for (shift = 0; shift <= 15; ++shift) {
    if (scale == std::ldexp(1.0, -shift)) return IntegerScale::shift;
  }
  shift = 0;
  // 1/255 as a double and as the float an OpenVX scalar holds (its scale is VX_TYPE_FLOAT32).
  if (two_u8 && (scale == 1.0 / 255 || scale == static_cast<double>(1.0f / 255.0f))) return IntegerScale::divide_255;
  return IntegerScale::none;
}

template <class Out>
void multiply_u8_integer(IntegerScale kind, ConstPixels a, ConstPixels b, Pixels out, double scale, int shift, bool saturate, bool nearest_even,
                         std::uint32_t begin, std::uint32_t end) {
  if (kind == IntegerScale::divide_255) {
    multiply_u8_rows<Out, IntegerScale::divide_255>(a, b, out, scale, 0, saturate, nearest_even, begin, end);
  } else if (shift == 0) {
    multiply_u8_rows<Out, IntegerScale::none>(a, b, out, scale, 0, saturate, nearest_even, begin, end);
  } else {
    multiply_u8_rows<Out, IntegerScale::shift>(a, b, out, scale, shift, saturate, nearest_even, begin, end);
  }
}

template <class A, class B>
void multiply_s16_integer(ConstPixels a, ConstPixels b, Pixels out, double scale, int shift, bool saturate, bool nearest_even, std::uint32_t begin,
                          std::uint32_t end) {
  if (shift == 0) {
    multiply_s16_rows<A, B, IntegerScale::none>(a, b, out, scale, 0, saturate, nearest_even, begin, end);
  } else {
    multiply_s16_rows<A, B, IntegerScale::shift>(a, b, out, scale, shift, saturate, nearest_even, begin, end);
  }
}

bool MultiplyRows(ConstPixels a, ConstPixels b, Pixels out, double scale, Overflow overflow, bool nearest_even, std::uint32_t begin,
                  std::uint32_t end) {
  using U8 = std::uint8_t;
  using S16 = std::int16_t;
  const bool saturate = overflow == Overflow::saturate;
  const PixelType ta = a.type, tb = b.type, to = out.type;
  int shift = 0;
  const IntegerScale kind = integer_scale(scale, ta == PixelType::u8 && tb == PixelType::u8, shift);
  if (kind != IntegerScale::none) {
    if (ta == PixelType::u8 && tb == PixelType::u8) {
      if (to == PixelType::u8) {
        multiply_u8_integer<U8>(kind, a, b, out, scale, shift, saturate, nearest_even, begin, end);
      } else {
        multiply_u8_integer<S16>(kind, a, b, out, scale, shift, saturate, nearest_even, begin, end);
      }
      return true;
    }
    if (to != PixelType::s16) return false;
    if (ta == PixelType::u8) {
      multiply_s16_integer<U8, S16>(a, b, out, scale, shift, saturate, nearest_even, begin, end);
    } else if (tb == PixelType::u8) {
      multiply_s16_integer<S16, U8>(a, b, out, scale, shift, saturate, nearest_even, begin, end);
    } else {
      multiply_s16_integer<S16, S16>(a, b, out, scale, shift, saturate, nearest_even, begin, end);
    }
    return true;
  }
  if (ta == PixelType::u8 && tb == PixelType::u8) {
    if (to == PixelType::u8) {
      multiply_rows<U8, U8, U8>(a, b, out, scale, saturate, nearest_even, begin, end);
    } else {
      multiply_rows<U8, U8, S16>(a, b, out, scale, saturate, nearest_even, begin, end);
    }
    return true;
  }
  if (to != PixelType::s16) return false;
  if (ta == PixelType::u8) {
    multiply_rows<U8, S16, S16>(a, b, out, scale, saturate, nearest_even, begin, end);
  } else if (tb == PixelType::u8) {
    multiply_rows<S16, U8, S16>(a, b, out, scale, saturate, nearest_even, begin, end);
  } else {
    multiply_rows<S16, S16, S16>(a, b, out, scale, saturate, nearest_even, begin, end);
  }
  return true;
}

template <class T>
void min_max_rows(bool take_min, ConstPixels a, ConstPixels b, Pixels out, std::uint32_t begin, std::uint32_t end) {
  const hn::ScalableTag<T> d;
  const std::size_t lanes = hn::Lanes(d), width = out.width;
  for (std::uint32_t y = begin; y < end; ++y) {
    const T* pa = a.row<T>(y);
    const T* pb = b.row<T>(y);
    T* po = out.row<T>(y);
    std::size_t x = 0;
    for (; x + lanes <= width; x += lanes) {
      const auto va = hn::LoadU(d, pa + x), vb = hn::LoadU(d, pb + x);
      hn::StoreU(take_min ? hn::Min(va, vb) : hn::Max(va, vb), d, po + x);
    }
    for (; x < width; ++x) po[x] = take_min ? std::min(pa[x], pb[x]) : std::max(pa[x], pb[x]);
  }
}

bool MinMaxRows(bool take_min, ConstPixels a, ConstPixels b, Pixels out, std::uint32_t begin, std::uint32_t end) {
  if (a.type != b.type || a.type != out.type) return false;
  if (a.type == PixelType::u8) {
    min_max_rows<std::uint8_t>(take_min, a, b, out, begin, end);
  } else {
    min_max_rows<std::int16_t>(take_min, a, b, out, begin, end);
  }
  return true;
}

template <Bitwise Op>
void bitwise_rows(ConstPlane a, ConstPlane b, Plane out, std::uint32_t begin, std::uint32_t end) {
  const hn::ScalableTag<std::uint8_t> d;
  const std::size_t lanes = hn::Lanes(d), width = a.width;
  for (std::uint32_t y = begin; y < end; ++y) {
    const std::uint8_t* pa = a.row(y);
    const std::uint8_t* pb = Op == Bitwise::not_ ? pa : b.row(y);
    std::uint8_t* po = out.row(y);
    std::size_t x = 0;
    for (; x + lanes <= width; x += lanes) {
      const auto va = hn::LoadU(d, pa + x);
      if constexpr (Op == Bitwise::not_) {
        hn::StoreU(hn::Not(va), d, po + x);
      } else {
        const auto vb = hn::LoadU(d, pb + x);
        hn::StoreU(Op == Bitwise::and_ ? hn::And(va, vb) : Op == Bitwise::or_ ? hn::Or(va, vb) : hn::Xor(va, vb), d, po + x);
      }
    }
    for (; x < width; ++x) {
      const unsigned va = pa[x], vb = pb[x];
      po[x] = static_cast<std::uint8_t>(Op == Bitwise::not_ ? ~va : Op == Bitwise::and_ ? va & vb : Op == Bitwise::or_ ? va | vb : va ^ vb);
    }
  }
}

void BitwiseRows(Bitwise op, ConstPlane a, ConstPlane b, Plane out, std::uint32_t begin, std::uint32_t end) {
  switch (op) {
    case Bitwise::not_: return bitwise_rows<Bitwise::not_>(a, b, out, begin, end);
    case Bitwise::and_: return bitwise_rows<Bitwise::and_>(a, b, out, begin, end);
    case Bitwise::or_: return bitwise_rows<Bitwise::or_>(a, b, out, begin, end);
    case Bitwise::xor_: return bitwise_rows<Bitwise::xor_>(a, b, out, begin, end);
  }
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(ArithmeticRows);
HWY_EXPORT(MultiplyRows);
HWY_EXPORT(BitwiseRows);
HWY_EXPORT(MinMaxRows);

bool min_max(bool take_min, ConstPixels a, ConstPixels b, Pixels out, Rows rows) noexcept {
  if (a.type != b.type || a.type != out.type) return false;
  const std::uint32_t end = std::min(rows.end, out.height);
  if (rows.begin >= end || out.width == 0) return true;
  return HWY_DYNAMIC_DISPATCH(MinMaxRows)(take_min, a, b, out, rows.begin, end);
}

bool multiply(ConstPixels a, ConstPixels b, Pixels out, double scale, Overflow overflow, bool nearest_even, Rows rows) noexcept {
  const std::uint32_t end = std::min(rows.end, out.height);
  if (rows.begin >= end || a.width == 0) return true;
  return HWY_DYNAMIC_DISPATCH(MultiplyRows)(a, b, out, scale, overflow, nearest_even, rows.begin, end);
}

bool arithmetic(Arithmetic op, ConstPixels a, ConstPixels b, Pixels out, Overflow overflow, Rows rows) noexcept {
  const std::uint32_t end = std::min(rows.end, out.height);
  if (rows.begin >= end || a.width == 0) return true;
  return HWY_DYNAMIC_DISPATCH(ArithmeticRows)(op, a, b, out, overflow, rows.begin, end);
}

void bitwise(Bitwise op, ConstPlane a, ConstPlane b, Plane out, Rows rows) noexcept {
  const std::uint32_t end = std::min(rows.end, out.height);
  if (rows.begin >= end || a.width == 0) return;
  HWY_DYNAMIC_DISPATCH(BitwiseRows)(op, a, b, out, rows.begin, end);
}

}  // namespace vg::vision
#endif
