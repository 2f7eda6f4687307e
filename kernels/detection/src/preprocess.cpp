#include "visiongraph/kernels/detection/preprocess.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace vg::detection {
namespace {

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

  auto make_tap = [](double s, int size) {
    s = std::clamp(s, 0.0, static_cast<double>(size - 1));
    Tap t;
    t.i0 = static_cast<std::int32_t>(std::floor(s));
    t.i1 = std::min(t.i0 + 1, size - 1);
    t.w1 = static_cast<std::int32_t>(std::lround((s - t.i0) * 256.0));
    return t;
  };
  const int cw = (g.src_w + 1) / 2;
  const int ch = (g.src_h + 1) / 2;
  for (int x = x_begin_; x < x_end_; ++x) {
    const double sx = (x + 0.5 - g.pad_x) / g.scale - 0.5;
    xtaps_.push_back(make_tap(sx, g.src_w));
    uv_xtaps_.push_back(make_tap((sx + 0.5) * 0.5 - 0.5, cw));
  }
  for (int y = y_begin_; y < y_end_; ++y) {
    const double sy = (y + 0.5 - g.pad_y) / g.scale - 0.5;
    ytaps_.push_back(make_tap(sy, g.src_h));
    uv_ytaps_.push_back(make_tap((sy + 0.5) * 0.5 - 0.5, ch));
  }
  vrow_.assign(static_cast<std::size_t>(g.src_w) * 3, 0);
  vuv_.assign(static_cast<std::size_t>(cw) * 2, 0);
  line_.assign(static_cast<std::size_t>(x_end_ - x_begin_) * 3, 0.0f);
}

std::size_t Preprocessor::tensor_bytes() const noexcept {
  const std::size_t elems = static_cast<std::size_t>(geometry_.dst_w) * static_cast<std::size_t>(geometry_.dst_h) * 3;
  return config_.format == TensorFormat::u8_nhwc ? elems : elems * sizeof(float);
}

bool Preprocessor::run(const ImageRef& image, void* tensor) noexcept {
  const LetterboxGeometry& g = geometry_;
  if (tensor == nullptr || image.plane[0] == nullptr || image.width != g.src_w || image.height != g.src_h)
    return false;
  const bool nv12 = image.format == PixelFormat::nv12;
  if (nv12 && image.plane[1] == nullptr) return false;
  const int cw = x_end_ - x_begin_;  // content columns
  const bool swap = (image.format == PixelFormat::rgb24) != config_.rgb;

  // Vertical first: blending two whole source rows is a contiguous u16 loop the compiler vectorizes, and the
  // (gathering) horizontal pass then runs once per output row. a*(256-w) + b*w <= 255*256 fits u16.
  auto blend = [](const std::uint8_t* __restrict a, const std::uint8_t* __restrict b, int w, int n,
                  std::uint16_t* __restrict out) {
    const auto w1 = static_cast<std::uint16_t>(w);
    const auto w0 = static_cast<std::uint16_t>(256 - w);
    for (int k = 0; k < n; ++k) out[k] = static_cast<std::uint16_t>(a[k] * w0 + b[k] * w1);
  };
  std::uint16_t* __restrict vrow = vrow_.data();
  std::uint16_t* __restrict vuv = vuv_.data();
  float* __restrict line = line_.data();
  const Tap* xt = xtaps_.data();
  const Tap* uvt = uv_xtaps_.data();
  const int chroma_w = (g.src_w + 1) / 2;
  constexpr float kInv = 1.0f / 65536.0f;  // two 8-bit weights

  auto body = [&]<TensorFormat F>() {
    const Writer<F> out{tensor, g.dst_w, g.dst_h, config_.mapping};
    const float pad = static_cast<float>(config_.pad_value);
    for (int y = 0; y < g.dst_h; ++y) {
      if (y < y_begin_ || y >= y_end_) {
        out.put_pad(0, y, g.dst_w, pad);
        continue;
      }
      const Tap& ty = ytaps_[static_cast<std::size_t>(y - y_begin_)];
      out.put_pad(0, y, x_begin_, pad);
      if (!nv12) {
        blend(image.plane[0] + static_cast<std::size_t>(ty.i0) * image.stride[0],
              image.plane[0] + static_cast<std::size_t>(ty.i1) * image.stride[0], ty.w1, g.src_w * 3, vrow);
        // Channel order as a template parameter: fixed offsets let the compiler schedule the gather loop.
        auto horizontal = [&]<int C0, int C2>() {
          if constexpr (F == TensorFormat::u8_nhwc) {
            // Integer all the way: the weights sum to 65536, so no clamp is needed after rounding.
            std::uint8_t* __restrict o = static_cast<std::uint8_t*>(tensor) +
                                         (static_cast<std::size_t>(y) * static_cast<std::size_t>(g.dst_w) +
                                          static_cast<std::size_t>(x_begin_)) * 3;
            for (int x = 0; x < cw; ++x) {
              const Tap t = xt[x];
              const std::uint16_t* p = vrow + t.i0 * 3;
              const std::uint16_t* q = vrow + t.i1 * 3;
              const int w0 = 256 - t.w1;
              o[3 * x] = static_cast<std::uint8_t>((p[C0] * w0 + q[C0] * t.w1 + 32768) >> 16);
              o[3 * x + 1] = static_cast<std::uint8_t>((p[1] * w0 + q[1] * t.w1 + 32768) >> 16);
              o[3 * x + 2] = static_cast<std::uint8_t>((p[C2] * w0 + q[C2] * t.w1 + 32768) >> 16);
            }
          } else {
            for (int x = 0; x < cw; ++x) {
              const Tap t = xt[x];
              const std::uint16_t* p = vrow + t.i0 * 3;
              const std::uint16_t* q = vrow + t.i1 * 3;
              const int w0 = 256 - t.w1;
              line[3 * x] = static_cast<float>(p[C0] * w0 + q[C0] * t.w1) * kInv;
              line[3 * x + 1] = static_cast<float>(p[1] * w0 + q[1] * t.w1) * kInv;
              line[3 * x + 2] = static_cast<float>(p[C2] * w0 + q[C2] * t.w1) * kInv;
            }
            out.put_line(x_begin_, y, line, cw);
          }
        };
        if (swap) {
          horizontal.template operator()<2, 0>();
        } else {
          horizontal.template operator()<0, 2>();
        }
      } else {
        const Tap& tc = uv_ytaps_[static_cast<std::size_t>(y - y_begin_)];
        blend(image.plane[0] + static_cast<std::size_t>(ty.i0) * image.stride[0],
              image.plane[0] + static_cast<std::size_t>(ty.i1) * image.stride[0], ty.w1, g.src_w, vrow);
        blend(image.plane[1] + static_cast<std::size_t>(tc.i0) * image.stride[1],
              image.plane[1] + static_cast<std::size_t>(tc.i1) * image.stride[1], tc.w1, chroma_w * 2, vuv);
        for (int x = 0; x < cw; ++x) {
          const Tap t = xt[x];
          const Tap c = uvt[x];
          const float luma = static_cast<float>(vrow[t.i0] * (256 - t.w1) + vrow[t.i1] * t.w1) * kInv;
          const std::uint16_t* p = vuv + c.i0 * 2;
          const std::uint16_t* q = vuv + c.i1 * 2;
          const float u = static_cast<float>(p[0] * (256 - c.w1) + q[0] * c.w1) * kInv - 128.0f;
          const float v = static_cast<float>(p[1] * (256 - c.w1) + q[1] * c.w1) * kInv - 128.0f;
          // BT.601 limited range, the convention of cv::COLOR_YUV2RGB_NV12.
          const float yy = 1.164f * (luma - 16.0f);
          const float r = clamp255(yy + 1.596f * v);
          const float gg = clamp255(yy - 0.391f * u - 0.813f * v);
          const float b = clamp255(yy + 2.018f * u);
          line[3 * x] = config_.rgb ? r : b;
          line[3 * x + 1] = gg;
          line[3 * x + 2] = config_.rgb ? b : r;
        }
        out.put_line(x_begin_, y, line, cw);
      }
      out.put_pad(x_end_, y, g.dst_w - x_end_, pad);
    }
  };
  switch (config_.format) {
    case TensorFormat::u8_nhwc:
      body.template operator()<TensorFormat::u8_nhwc>();
      break;
    case TensorFormat::f32_nhwc:
      body.template operator()<TensorFormat::f32_nhwc>();
      break;
    case TensorFormat::f32_nchw:
      body.template operator()<TensorFormat::f32_nchw>();
      break;
  }
  return true;
}

}  // namespace vg::detection
