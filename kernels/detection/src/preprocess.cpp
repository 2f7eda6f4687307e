#include "visiongraph/kernels/detection/preprocess.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define VG_PREPROCESS_X86 1
#else
#define VG_PREPROCESS_X86 0
#endif

namespace vg::detection {
namespace {

using u8 = std::uint8_t;
using u16 = std::uint16_t;
using u32 = std::uint32_t;

// Written as the select form that maps onto maxss/minss, so the store loops vectorize (std::fmin is a libm
// call because of its NaN rules; std::min/max compile to branches here).
float clamp255(float v) noexcept {
  v = v > 0.0f ? v : 0.0f;
  return v < 255.0f ? v : 255.0f;
}

// Output channel values are produced in tensor channel order; the writer only applies mapping + layout.
template <TensorFormat F>
struct Writer {
  void* base;
  int w;
  int h;
  PixelMapping m;

  // n pad pixels from column x0 of row y.
  void put_pad(int x0, int y, int n, float pad) const noexcept {
    if (n <= 0) return;
    const std::size_t px = static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x0);
    if constexpr (F == TensorFormat::u8_nhwc) {
      std::memset(static_cast<std::uint8_t*>(base) + px * 3, static_cast<int>(clamp255(pad) + 0.5f),
                  static_cast<std::size_t>(n) * 3);
    } else if constexpr (F == TensorFormat::f32_nhwc) {
      float* __restrict o = static_cast<float*>(base) + px * 3;
      const float v[3] = {pad * m.mul[0] + m.add[0], pad * m.mul[1] + m.add[1], pad * m.mul[2] + m.add[2]};
      for (int x = 0; x < n; ++x)
        for (int c = 0; c < 3; ++c) o[3 * x + c] = v[c];
    } else {
      const std::size_t plane = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
      for (int c = 0; c < 3; ++c) {
        float* o = static_cast<float*>(base) + c * plane + px;
        std::fill(o, o + n, pad * m.mul[c] + m.add[c]);
      }
    }
  }

  // One content line (n pixels, 3 floats each in tensor order) starting at column x0: flat loops the
  // compiler vectorizes, instead of put() per pixel.
  void put_line(int x0, int y, const float* __restrict line, int n) const noexcept {
    const std::size_t px = static_cast<std::size_t>(y) * static_cast<std::size_t>(w) + static_cast<std::size_t>(x0);
    const int count = 3 * n;
    if constexpr (F == TensorFormat::u8_nhwc) {
      // __restrict: u8 stores may alias anything, which would otherwise block vectorization.
      // Round in float, clamp in int: GCC turns a float clamp + u8 conversion into branches here.
      std::uint8_t* __restrict o = static_cast<std::uint8_t*>(base) + px * 3;
      for (int k = 0; k < count; ++k) {
        int q = static_cast<int>(line[k] + 0.5f);
        q = q < 0 ? 0 : q;
        o[k] = static_cast<std::uint8_t>(q > 255 ? 255 : q);
      }
    } else if constexpr (F == TensorFormat::f32_nhwc) {
      float* __restrict o = static_cast<float*>(base) + px * 3;
      if (m.mul[0] == m.mul[1] && m.mul[1] == m.mul[2] && m.add[0] == m.add[1] && m.add[1] == m.add[2]) {
        const float a = m.mul[0], b = m.add[0];
        for (int k = 0; k < count; ++k) o[k] = line[k] * a + b;
      } else {
        for (int x = 0; x < n; ++x)
          for (int c = 0; c < 3; ++c) o[3 * x + c] = line[3 * x + c] * m.mul[c] + m.add[c];
      }
    } else {
      const std::size_t plane = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
      for (int c = 0; c < 3; ++c) {
        float* __restrict o = static_cast<float*>(base) + c * plane + px;
        const float a = m.mul[c], b = m.add[c];
        for (int x = 0; x < n; ++x) o[x] = line[3 * x + c] * a + b;
      }
    }
  }
};

// ------------------------------------------------------------------------------------------ row loops
// Plain loops over contiguous arrays (__restrict), written for the auto-vectorizer; both drivers inline them.

// Pixels i0 and i1 of every column of a packed 3-byte row into a and b, in tensor channel order. Columns
// before word_end (where i1 = i0 + 1 and 8 bytes from pixel i0 stay inside the row) take both pixels from
// one 8-byte load and store 4-byte words (the 4th byte is overwritten by the next column; a and b have a
// spare byte at the end); the last columns go bytewise.
template <bool Swap>
inline void split_pair(const u8* p, u8* a, u8* b) noexcept {
  std::uint64_t q;  // bytes: a0 a1 a2 b0 b1 b2 . .
  std::memcpy(&q, p, 8);
  u32 first, second;
  if constexpr (Swap) {
    q = __builtin_bswap64(q);  // bytes: . . b2 b1 b0 a2 a1 a0
    first = static_cast<u32>(q >> 40);
    second = static_cast<u32>(q >> 16);
  } else {
    first = static_cast<u32>(q);
    second = static_cast<u32>(q >> 24);
  }
  std::memcpy(a, &first, 4);
  std::memcpy(b, &second, 4);
}

// Rows gathered: row0 into a0/b0 and, when row1 is not null, row1 into a1/b1 in the same pass (the column
// offsets are loaded once).
template <bool Swap>
void gather_packed(const u8* __restrict row0, const u8* __restrict row1, const std::size_t* __restrict off,
                   const std::int32_t* __restrict i0, const std::int32_t* __restrict i1, int n, int word_end,
                   u8* __restrict a0, u8* __restrict b0, u8* __restrict a1, u8* __restrict b1) noexcept {
  int x = 0;
  if constexpr (std::endian::native == std::endian::little) {
    if (row1 != nullptr) {
      for (; x < word_end; ++x) {
        split_pair<Swap>(row0 + off[x], a0 + 3 * x, b0 + 3 * x);
        split_pair<Swap>(row1 + off[x], a1 + 3 * x, b1 + 3 * x);
      }
    } else {
      for (; x < word_end; ++x) split_pair<Swap>(row0 + off[x], a0 + 3 * x, b0 + 3 * x);
    }
  }
  for (; x < n; ++x) {
    for (int c = 0; c < 3; ++c) {
      const int sc = Swap ? 2 - c : c;
      a0[3 * x + c] = row0[3 * i0[x] + sc];
      b0[3 * x + c] = row0[3 * i1[x] + sc];
      if (row1 != nullptr) {
        a1[3 * x + c] = row1[3 * i0[x] + sc];
        b1[3 * x + c] = row1[3 * i1[x] + sc];
      }
    }
  }
}

// NV12 luma: one byte per column.
void gather_luma(const u8* __restrict row, const std::int32_t* __restrict i0, const std::int32_t* __restrict i1, int n,
                 u8* __restrict a, u8* __restrict b) noexcept {
  for (int x = 0; x < n; ++x) {
    a[x] = row[i0[x]];
    b[x] = row[i1[x]];
  }
}

// NV12 chroma: the U, V pair of each chroma column.
void gather_chroma(const u8* __restrict row, const std::int32_t* __restrict i0, const std::int32_t* __restrict i1,
                   int n, u8* __restrict a, u8* __restrict b) noexcept {
  for (int x = 0; x < n; ++x) {
    std::memcpy(a + 2 * x, row + 2 * i0[x], 2);
    std::memcpy(b + 2 * x, row + 2 * i1[x], 2);
  }
}

// Horizontal blend: h = a * w0 + b * w1 per value, exact in u16 (255 * 256 at most).
void blend_pairs(const u8* __restrict a, const u8* __restrict b, const u16* __restrict w0, const u16* __restrict w1,
                 int n, u16* __restrict h) noexcept {
  for (int k = 0; k < n; ++k) h[k] = static_cast<u16>(a[k] * w0[k] + b[k] * w1[k]);
}

// Vertical blend of two horizontal rows: value x 65536, exact (< 2^24, so int and float hold it exactly).
inline std::int32_t vblend(u16 h0, u16 h1, u32 w0, u32 w1) noexcept {
  return static_cast<std::int32_t>(h0 * w0 + h1 * w1);
}

void store_u8(const u16* __restrict h0, const u16* __restrict h1, u32 w0, u32 w1, int n, u8* __restrict o) noexcept {
  // Round to nearest; the weights sum to 65536, so no clamp is needed.
  for (int k = 0; k < n; ++k) o[k] = static_cast<u8>((h0[k] * w0 + h1[k] * w1 + 32768u) >> 16);
}

// f32, one mapping for all channels; mul already divided by 65536.
void store_f32(const u16* __restrict h0, const u16* __restrict h1, u32 w0, u32 w1, int n, float mul, float add,
               float* __restrict o) noexcept {
  for (int k = 0; k < n; ++k) o[k] = static_cast<float>(vblend(h0[k], h1[k], w0, w1)) * mul + add;
}

// f32 NHWC, a mapping per channel: mul and add given per stored value.
void store_f32_each(const u16* __restrict h0, const u16* __restrict h1, u32 w0, u32 w1, int n,
                    const float* __restrict mul, const float* __restrict add, float* __restrict o) noexcept {
  for (int k = 0; k < n; ++k) o[k] = static_cast<float>(vblend(h0[k], h1[k], w0, w1)) * mul[k] + add[k];
}

// f32 NCHW: channel c of n columns into plane c.
void store_f32_planar(const u16* __restrict h0, const u16* __restrict h1, u32 w0, u32 w1, int n, std::size_t plane,
                      const float* mul, const float* add, float* __restrict o) noexcept {
  for (int c = 0; c < 3; ++c) {
    float* __restrict p = o + static_cast<std::size_t>(c) * plane;
    const float m = mul[c], a = add[c];
    for (int x = 0; x < n; ++x) p[x] = static_cast<float>(vblend(h0[3 * x + c], h1[3 * x + c], w0, w1)) * m + a;
  }
}

// Exact 2:1 box, portable: sums of the 2x2 pixels of every tensor column, then compacted to 3 values per
// column. sums[k] = r0[k] + r0[k+3] + r1[k] + r1[k+3] for all k (contiguous, vectorized); the ones at
// k = 6x + c are the column sums. The compaction runs in place front to back (it writes behind what it
// reads); sums needs 6 * n values.
void box2_sums(const u8* __restrict r0, const u8* __restrict r1, int count, u16* __restrict sums) noexcept {
  for (int k = 0; k < count; ++k) sums[k] = static_cast<u16>(r0[k] + r0[k + 3] + r1[k] + r1[k + 3]);
}

template <bool Swap>
void box2_compact(const u16* __restrict sums, int n, u16* __restrict out) noexcept {
  for (int x = 0; x < n; ++x) {
    if constexpr (std::endian::native == std::endian::little) {
      std::uint64_t w;  // c0 c1 c2 (next column's first sum)
      std::memcpy(&w, sums + 6 * x, 8);
      if constexpr (Swap) w = ((w >> 32) & 0xffffu) | (w & 0xffff0000u) | ((w & 0xffffu) << 32);
      std::memcpy(out + 3 * x, &w, 8);
    } else {
      const u16 c0 = sums[6 * x], c1 = sums[6 * x + 1], c2 = sums[6 * x + 2];
      out[3 * x] = Swap ? c2 : c0;
      out[3 * x + 1] = c1;
      out[3 * x + 2] = Swap ? c0 : c2;
    }
  }
}

// Exact 2:1 box, the scalar form: value = (sum of the 2x2 pixels + 2) / 4 for u8, sum * mul + add for f32
// (mul already divided by 4). The same integers as the separable path with all weights 128.
template <bool Swap, bool F32>
void box2_scalar(const u8* r0, const u8* r1, int x, int n, void* out, const float* mul, const float* add) noexcept {
  for (; x < n; ++x) {
    for (int c = 0; c < 3; ++c) {
      const int k = 6 * x + (Swap ? 2 - c : c);
      const int sum = r0[k] + r0[k + 3] + r1[k] + r1[k + 3];
      if constexpr (F32) {
        static_cast<float*>(out)[3 * x + c] = static_cast<float>(sum) * mul[c] + add[c];
      } else {
        static_cast<u8*>(out)[3 * x + c] = static_cast<u8>((sum + 2) >> 2);
      }
    }
  }
}

#if VG_PREPROCESS_X86
#define VG_AVX2 __attribute__((target("avx2"), always_inline)) inline

// Sums of the (c, c + 3) byte pairs that `pairs` selects, after lane 0 takes source bytes 0..15 (tensor
// pixels 0, 1) and lane 1 bytes 12..27 (pixels 2, 3).
VG_AVX2 __m256i box2_pair_sums(const u8* p, __m256i pairs) noexcept {
  const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i spread = _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 1, 2, 3, 3, 4, 5, 6));
  return _mm256_maddubs_epi16(_mm256_shuffle_epi8(spread, pairs), _mm256_set1_epi8(1));
}

VG_AVX2 __m256 box2_mapped(__m128i sums, __m256 mul, __m256 add) noexcept {
  return _mm256_add_ps(_mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepu16_epi32(sums)), mul), add);
}

// Exact 2:1 box with AVX2: 4 tensor pixels per step from 24 bytes of each source row. The pixel pairs are
// shuffled next to each other and summed by maddubs (x 1); the two rows are added. Stops where a 32-byte
// load would pass `avail` bytes or a store would pass the row's content (stores write 2 values beyond the
// 12 they produce; the next step or box2_scalar overwrites them). Returns the pixels done.
template <bool Swap, bool F32>
__attribute__((target("avx2"))) int box2_avx2(const u8* r0, const u8* r1, int n, int avail, void* out, const float* mul,
                                              const float* add) noexcept {
  const __m256i pairs =
      Swap ? _mm256_setr_epi8(2, 5, 1, 4, 0, 3, 8, 11, 7, 10, 6, 9, -1, -1, -1, -1, 2, 5, 1, 4, 0, 3, 8, 11, 7, 10, 6,
                              9, -1, -1, -1, -1)
           : _mm256_setr_epi8(0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8, 11, -1, -1, -1, -1, 0, 3, 1, 4, 2, 5, 6, 9, 7, 10, 8,
                              11, -1, -1, -1, -1);
  // Per 128-bit lane: two pixels' 3 channels, then 2 unused values.
  const __m256 vmul = _mm256_setr_ps(mul[0], mul[1], mul[2], mul[0], mul[1], mul[2], 0.0f, 0.0f);
  const __m256 vadd = _mm256_setr_ps(add[0], add[1], add[2], add[0], add[1], add[2], 0.0f, 0.0f);
  int j = 0;
  for (; 4 * j + 5 <= n && 24 * j + 32 <= avail; ++j) {
    const __m256i sum = _mm256_add_epi16(box2_pair_sums(r0 + 24 * j, pairs), box2_pair_sums(r1 + 24 * j, pairs));
    if constexpr (F32) {
      float* o = static_cast<float*>(out) + 12 * j;
      _mm256_storeu_ps(o, box2_mapped(_mm256_castsi256_si128(sum), vmul, vadd));
      _mm256_storeu_ps(o + 6, box2_mapped(_mm256_extracti128_si256(sum, 1), vmul, vadd));
    } else {
      u8* o = static_cast<u8*>(out) + 12 * j;
      const __m256i rounded = _mm256_srli_epi16(_mm256_add_epi16(sum, _mm256_set1_epi16(2)), 2);
      const __m256i bytes = _mm256_packus_epi16(rounded, rounded);
      _mm_storel_epi64(reinterpret_cast<__m128i*>(o), _mm256_castsi256_si128(bytes));
      _mm_storel_epi64(reinterpret_cast<__m128i*>(o + 6), _mm256_extracti128_si256(bytes, 1));
    }
  }
  return 4 * j;
}
#undef VG_AVX2
#endif

}  // namespace

PixelMapping PixelMapping::unit() noexcept {
  PixelMapping m;
  for (float& v : m.mul) v = 1.0f / 255.0f;
  return m;
}

PixelMapping PixelMapping::blazeface() noexcept {
  PixelMapping m;
  for (int c = 0; c < 3; ++c) {
    m.mul[c] = 1.0f / 127.5f;
    m.add[c] = -1.0f;
  }
  return m;
}

PixelMapping PixelMapping::mean_std(const float mean[3], const float stddev[3]) noexcept {
  PixelMapping m;
  for (int c = 0; c < 3; ++c) {
    m.mul[c] = 1.0f / stddev[c];
    m.add[c] = -mean[c] / stddev[c];
  }
  return m;
}

bool parse_mapping(std::string_view text, PixelMapping& out) noexcept {
  if (text == "blazeface") {
    out = PixelMapping::blazeface();
  } else if (text == "unit") {
    out = PixelMapping::unit();
  } else if (text == "none") {
    out = PixelMapping::none();
  } else {
    return false;
  }
  return true;
}

// ------------------------------------------------------------------------------------------ drivers

struct Preprocessor::Impl {
  // The blended rows a tensor row needs, computing only the ones the two cached slots lack (consecutive
  // tensor rows share source rows when upscaling). fill(slot0, row0, slot1, row1) computes one slot, or two
  // in one pass when slot1 >= 0.
  template <class Fill>
  static void fetch(int (&held)[2], int r0, int r1, int& s0, int& s1, Fill&& fill) noexcept {
    s0 = held[0] == r0 ? 0 : held[1] == r0 ? 1 : -1;
    s1 = held[0] == r1 ? 0 : held[1] == r1 ? 1 : -1;
    if (s0 < 0 && s1 < 0 && r0 != r1) {
      s0 = 0;
      s1 = 1;
      fill(s0, r0, s1, r1);
      held[0] = r0;
      held[1] = r1;
      return;
    }
    if (s0 < 0) {
      s0 = s1 == 0 ? 1 : 0;
      fill(s0, r0, -1, -1);
      held[s0] = r0;
      if (r1 == r0) s1 = s0;
    }
    if (s1 < 0) {
      s1 = 1 - s0;
      fill(s1, r1, -1, -1);
      held[s1] = r1;
    }
  }

  template <bool Avx2, TensorFormat F, bool Swap>
  static void packed(Preprocessor& p, const ImageRef& image, void* tensor) noexcept {
    const LetterboxGeometry& g = p.geometry_;
    const PixelMapping& m = p.config_.mapping;
    const Writer<F> out{tensor, g.dst_w, g.dst_h, m};
    const float pad = static_cast<float>(p.config_.pad_value);
    const int cw = p.x_end_ - p.x_begin_;
    const int n = 3 * cw;
    const bool uniform = m.mul[0] == m.mul[1] && m.mul[1] == m.mul[2] && m.add[0] == m.add[1] && m.add[1] == m.add[2];
    const float mul16[3] = {m.mul[0] / 65536.0f, m.mul[1] / 65536.0f, m.mul[2] / 65536.0f};
    const std::size_t plane = static_cast<std::size_t>(g.dst_w) * static_cast<std::size_t>(g.dst_h);
    u16* const hrow[2] = {p.hrows_.data(), p.hrows_.data() + n};
    u8* const a[2] = {p.pair0_.data(), p.pair0_.data() + n + 1};
    u8* const b[2] = {p.pair1_.data(), p.pair1_.data() + n + 1};
    auto src_row = [&](int row) { return image.plane[0] + static_cast<std::size_t>(row) * image.stride[0]; };
    // Blended rows for one or (slot1 >= 0) two source rows.
    auto fill = [&](int slot0, int row0, int slot1, int row1) {
      gather_packed<Swap>(src_row(row0), slot1 >= 0 ? src_row(row1) : nullptr, p.x_off_.data(), p.x_.i0.data(),
                          p.x_.i1.data(), cw, p.x_word_end_, a[0], b[0], a[1], b[1]);
      blend_pairs(a[0], b[0], p.w0_rgb_.data(), p.w1_rgb_.data(), n, hrow[slot0]);
      if (slot1 >= 0) blend_pairs(a[1], b[1], p.w0_rgb_.data(), p.w1_rgb_.data(), n, hrow[slot1]);
    };
    // Vertical blend of two horizontal rows into the content of one tensor row (first: its first pixel).
    auto store = [&](const u16* h0, const u16* h1, u32 w0, u32 w1, std::size_t first) {
      if constexpr (F == TensorFormat::u8_nhwc) {
        store_u8(h0, h1, w0, w1, n, static_cast<u8*>(tensor) + first * 3);
      } else if constexpr (F == TensorFormat::f32_nhwc) {
        float* o = static_cast<float*>(tensor) + first * 3;
        if (uniform) {
          store_f32(h0, h1, w0, w1, n, mul16[0], m.add[0], o);
        } else {
          store_f32_each(h0, h1, w0, w1, n, p.mul_rgb_.data(), p.add_rgb_.data(), o);
        }
      } else {
        store_f32_planar(h0, h1, w0, w1, cw, plane, mul16, m.add, static_cast<float*>(tensor) + first);
      }
    };
    p.hrow_src_[0] = p.hrow_src_[1] = -1;
    for (int y = 0; y < g.dst_h; ++y) {
      if (y < p.y_begin_ || y >= p.y_end_) {
        out.put_pad(0, y, g.dst_w, pad);
        continue;
      }
      out.put_pad(0, y, p.x_begin_, pad);
      const std::size_t j = static_cast<std::size_t>(y - p.y_begin_);
      const std::size_t first = static_cast<std::size_t>(y) * static_cast<std::size_t>(g.dst_w) +
                                static_cast<std::size_t>(p.x_begin_);  // first content pixel of the row
      const int r0 = p.y_.i0[j], r1 = p.y_.i1[j];
      const u8* const row0 = image.plane[0] + static_cast<std::size_t>(r0) * image.stride[0];
      const u8* const row1 = image.plane[0] + static_cast<std::size_t>(r1) * image.stride[0];
      if (p.box2_) {
        const std::size_t x0 = p.x_off_[0];  // first byte of the first column's pixel pair
        bool fused = false;
#if VG_PREPROCESS_X86
        if constexpr (Avx2 && F != TensorFormat::f32_nchw) {
          constexpr bool kF32 = F == TensorFormat::f32_nhwc;
          const float mul4[3] = {m.mul[0] * 0.25f, m.mul[1] * 0.25f, m.mul[2] * 0.25f};  // 4-pixel sums
          void* o = kF32 ? static_cast<void*>(static_cast<float*>(tensor) + first * 3)
                         : static_cast<void*>(static_cast<u8*>(tensor) + first * 3);
          const int vec = box2_avx2<Swap, kF32>(row0 + x0, row1 + x0, cw, 3 * g.src_w - static_cast<int>(x0), o,
                                                mul4, m.add);
          box2_scalar<Swap, kF32>(row0 + x0, row1 + x0, vec, cw, o, mul4, m.add);
          fused = true;
        }
#endif
        if (!fused) {
          // Sums of 4 pixels: x 16384 makes them the usual value x 65536.
          u16* const compact = p.hrows_.data() + 2 * n;
          box2_sums(row0 + x0, row1 + x0, 2 * n - 3, hrow[0]);
          box2_compact<Swap>(hrow[0], cw, compact);
          store(compact, compact, 16384, 0, first);
        }
      } else {
        int s0 = 0, s1 = 0;
        fetch(p.hrow_src_, r0, r1, s0, s1, fill);
        const u32 w1 = p.y_.w1[j];
        store(hrow[s0], hrow[s1], 256 - w1, w1, first);
      }
      out.put_pad(p.x_end_, y, g.dst_w - p.x_end_, pad);
    }
  }

  template <bool Avx2, TensorFormat F>
  static void nv12(Preprocessor& p, const ImageRef& image, void* tensor) noexcept {
    const LetterboxGeometry& g = p.geometry_;
    const Writer<F> out{tensor, g.dst_w, g.dst_h, p.config_.mapping};
    const float pad = static_cast<float>(p.config_.pad_value);
    const int cw = p.x_end_ - p.x_begin_;
    const bool rgb = p.config_.rgb;
    constexpr float kInv = 1.0f / 65536.0f;  // two 8-bit weights
    u16* const hrow[2] = {p.hrows_.data(), p.hrows_.data() + 3 * cw};
    auto luma = [&](int slot, int row) {
      gather_luma(image.plane[0] + static_cast<std::size_t>(row) * image.stride[0], p.x_.i0.data(), p.x_.i1.data(),
                  cw, p.pair0_.data(), p.pair1_.data());
      blend_pairs(p.pair0_.data(), p.pair1_.data(), p.w0_y_.data(), p.w1_y_.data(), cw, hrow[slot]);
    };
    auto chroma = [&](int slot, int row) {
      gather_chroma(image.plane[1] + static_cast<std::size_t>(row) * image.stride[1], p.uv_x_.i0.data(),
                    p.uv_x_.i1.data(), cw, p.pair0_.data(), p.pair1_.data());
      blend_pairs(p.pair0_.data(), p.pair1_.data(), p.w0_uv_.data(), p.w1_uv_.data(), 2 * cw, p.huv_[slot].data());
    };
    auto fill_luma = [&](int slot0, int row0, int slot1, int row1) {
      luma(slot0, row0);
      if (slot1 >= 0) luma(slot1, row1);
    };
    auto fill_chroma = [&](int slot0, int row0, int slot1, int row1) {
      chroma(slot0, row0);
      if (slot1 >= 0) chroma(slot1, row1);
    };
    p.hrow_src_[0] = p.hrow_src_[1] = -1;
    p.huv_src_[0] = p.huv_src_[1] = -1;
    float* __restrict line = p.line_.data();
    for (int y = 0; y < g.dst_h; ++y) {
      if (y < p.y_begin_ || y >= p.y_end_) {
        out.put_pad(0, y, g.dst_w, pad);
        continue;
      }
      out.put_pad(0, y, p.x_begin_, pad);
      const std::size_t j = static_cast<std::size_t>(y - p.y_begin_);
      int s0 = 0, s1 = 0, c0 = 0, c1 = 0;
      fetch(p.hrow_src_, p.y_.i0[j], p.y_.i1[j], s0, s1, fill_luma);
      fetch(p.huv_src_, p.uv_y_.i0[j], p.uv_y_.i1[j], c0, c1, fill_chroma);
      const u16* __restrict l0 = hrow[s0];
      const u16* __restrict l1 = hrow[s1];
      const u16* __restrict uv0 = p.huv_[c0].data();
      const u16* __restrict uv1 = p.huv_[c1].data();
      const u32 wl1 = p.y_.w1[j], wl0 = 256 - wl1;
      const u32 wc1 = p.uv_y_.w1[j], wc0 = 256 - wc1;
      for (int x = 0; x < cw; ++x) {
        const float luma = static_cast<float>(vblend(l0[x], l1[x], wl0, wl1)) * kInv;
        const float u = static_cast<float>(vblend(uv0[2 * x], uv1[2 * x], wc0, wc1)) * kInv - 128.0f;
        const float v = static_cast<float>(vblend(uv0[2 * x + 1], uv1[2 * x + 1], wc0, wc1)) * kInv - 128.0f;
        // BT.601 limited range, the convention of cv::COLOR_YUV2RGB_NV12.
        const float yy = 1.164f * (luma - 16.0f);
        const float r = clamp255(yy + 1.596f * v);
        const float gg = clamp255(yy - 0.391f * u - 0.813f * v);
        const float b = clamp255(yy + 2.018f * u);
        line[3 * x] = rgb ? r : b;
        line[3 * x + 1] = gg;
        line[3 * x + 2] = rgb ? b : r;
      }
      out.put_line(p.x_begin_, y, line, cw);
      out.put_pad(p.x_end_, y, g.dst_w - p.x_end_, pad);
    }
  }

  template <bool Avx2>
  static void dispatch(Preprocessor& p, const ImageRef& image, void* tensor) noexcept {
    auto by_format = [&]<TensorFormat F>() {
      if (image.format == PixelFormat::nv12) {
        nv12<Avx2, F>(p, image, tensor);
      } else if ((image.format == PixelFormat::rgb24) != p.config_.rgb) {
        packed<Avx2, F, true>(p, image, tensor);
      } else {
        packed<Avx2, F, false>(p, image, tensor);
      }
    };
    switch (p.config_.format) {
      case TensorFormat::u8_nhwc:
        by_format.template operator()<TensorFormat::u8_nhwc>();
        break;
      case TensorFormat::f32_nhwc:
        by_format.template operator()<TensorFormat::f32_nhwc>();
        break;
      case TensorFormat::f32_nchw:
        by_format.template operator()<TensorFormat::f32_nchw>();
        break;
    }
  }

  static void run_portable(Preprocessor& p, const ImageRef& image, void* tensor) noexcept {
    dispatch<false>(p, image, tensor);
  }
#if VG_PREPROCESS_X86
  // The same loops compiled for AVX2 (flatten inlines them here, so the vectorizer uses 256-bit registers),
  // plus the 2:1 box kernel. Chosen at construction when the CPU has AVX2. No FMA: results stay identical.
  __attribute__((target("avx2"), flatten)) static void run_avx2(Preprocessor& p, const ImageRef& image,
                                                                 void* tensor) noexcept {
    dispatch<true>(p, image, tensor);
  }
#endif
};

Preprocessor::Preprocessor(const LetterboxGeometry& geometry, const PreprocessConfig& config)
    : geometry_(geometry), config_(config) {
  if (!geometry.valid()) throw std::invalid_argument("preprocess: invalid letterbox geometry");
  const LetterboxGeometry& g = geometry_;
  // Tensor pixels whose centre falls inside the fitted image are content; the rest are padding.
  auto range = [](float pad, float extent, int dst, int& begin, int& end) {
    constexpr float kEps = 1e-3f;
    begin = std::clamp(static_cast<int>(std::ceil(pad - 0.5f - kEps)), 0, dst);
    end = std::clamp(static_cast<int>(std::floor(pad + extent - 0.5f + kEps)) + 1, begin, dst);
  };
  range(g.pad_x, static_cast<float>(g.src_w) * g.scale, g.dst_w, x_begin_, x_end_);
  range(g.pad_y, static_cast<float>(g.src_h) * g.scale, g.dst_h, y_begin_, y_end_);

  // Source position s (edge-clamped) -> two pixels and the 8-bit weight of the second. At the far edge the
  // pair is (size-2, size-1) with all weight on size-1, so i1 = i0 + 1 whenever size > 1.
  auto add_tap = [](Taps& t, double s, int size) {
    s = std::clamp(s, 0.0, static_cast<double>(size - 1));
    int i0 = static_cast<int>(std::floor(s));
    int w1 = static_cast<int>(std::lround((s - i0) * 256.0));
    if (i0 == size - 1 && size > 1) {
      i0 = size - 2;
      w1 = 256;
    }
    t.i0.push_back(i0);
    t.i1.push_back(std::min(i0 + 1, size - 1));
    t.w1.push_back(static_cast<std::uint16_t>(w1));
  };
  const int chroma_w = (g.src_w + 1) / 2;
  const int chroma_h = (g.src_h + 1) / 2;
  for (int x = x_begin_; x < x_end_; ++x) {
    const double sx = (x + 0.5 - g.pad_x) / g.scale - 0.5;
    add_tap(x_, sx, g.src_w);
    add_tap(uv_x_, (sx + 0.5) * 0.5 - 0.5, chroma_w);
  }
  for (int y = y_begin_; y < y_end_; ++y) {
    const double sy = (y + 0.5 - g.pad_y) / g.scale - 0.5;
    add_tap(y_, sy, g.src_h);
    add_tap(uv_y_, (sy + 0.5) * 0.5 - 0.5, chroma_h);
  }
  const int cw = x_end_ - x_begin_;
  const std::size_t n = static_cast<std::size_t>(cw);
  for (std::int32_t i : x_.i0) x_off_.push_back(3 * static_cast<std::size_t>(i));
  // 8 bytes from pixel i0 stay inside the row while i0 <= src_w - 3 (i0 is non-decreasing); a 1-pixel-wide
  // source has i1 = i0 and no such column.
  if (g.src_w > 1) {
    x_word_end_ = static_cast<int>(std::partition_point(x_.i0.begin(), x_.i0.end(),
                                                        [&](std::int32_t i) { return i <= g.src_w - 3; }) -
                                   x_.i0.begin());
  }
  // Exact 2:1 box: every pair is (2k, 2k+1) + a fixed start, weighted 128/128, on both axes.
  auto is_box2 = [](const Taps& t) {
    if (t.i0.empty()) return false;
    for (std::size_t k = 0; k < t.i0.size(); ++k)
      if (t.w1[k] != 128 || t.i1[k] != t.i0[k] + 1 || t.i0[k] != t.i0[0] + 2 * static_cast<std::int32_t>(k))
        return false;
    return true;
  };
  box2_ = is_box2(x_) && is_box2(y_);

  for (std::size_t x = 0; x < n; ++x) {
    const auto w1 = x_.w1[x];
    const auto w0 = static_cast<std::uint16_t>(256 - w1);
    w0_y_.push_back(w0);
    w1_y_.push_back(w1);
    for (int c = 0; c < 3; ++c) {
      w0_rgb_.push_back(w0);
      w1_rgb_.push_back(w1);
      mul_rgb_.push_back(config_.mapping.mul[c] / 65536.0f);
      add_rgb_.push_back(config_.mapping.add[c]);
    }
    for (int c = 0; c < 2; ++c) {
      w0_uv_.push_back(static_cast<std::uint16_t>(256 - uv_x_.w1[x]));
      w1_uv_.push_back(uv_x_.w1[x]);
    }
  }
  pair0_.assign(2 * (3 * n + 1), 0);  // two rows, each with the spare byte of its last 4-byte word
  pair1_.assign(2 * (3 * n + 1), 0);
  hrows_.assign(9 * n + 1, 0);
  for (auto& h : huv_) h.assign(2 * n, 0);
  line_.assign(3 * n, 0.0f);
#if VG_PREPROCESS_X86
  avx2_ = config_.simd && __builtin_cpu_supports("avx2");
#endif
}

std::size_t Preprocessor::tensor_bytes() const noexcept {
  const std::size_t elems = static_cast<std::size_t>(geometry_.dst_w) * static_cast<std::size_t>(geometry_.dst_h) * 3;
  return config_.format == TensorFormat::u8_nhwc ? elems : elems * sizeof(float);
}

bool Preprocessor::run(const ImageRef& image, void* tensor) noexcept {
  const LetterboxGeometry& g = geometry_;
  if (tensor == nullptr || image.plane[0] == nullptr || image.width != g.src_w || image.height != g.src_h)
    return false;
  if (image.format == PixelFormat::nv12 && image.plane[1] == nullptr) return false;
#if VG_PREPROCESS_X86
  if (avx2_) {
    Impl::run_avx2(*this, image, tensor);
    return true;
  }
#endif
  Impl::run_portable(*this, image, tensor);
  return true;
}

}  // namespace vg::detection
