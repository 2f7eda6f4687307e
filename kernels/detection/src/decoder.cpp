#include "visiongraph/kernels/detection/decoder.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include "visiongraph/kernels/detection/blazeface.hpp"
#include "visiongraph/kernels/detection/yolov5.hpp"
#include "visiongraph/kernels/detection/yolov8.hpp"

namespace vg::detection {
namespace {

LayoutCheck fail(int tensor, const char* fmt, ...) noexcept {
  LayoutCheck r;
  r.ok = false;
  r.tensor = tensor;
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(r.message, sizeof r.message, fmt, args);
  va_end(args);
  return r;
}

// Treats a leading batch dimension of 1 as optional so [512,1] and [1,512,1] are the same shape.
struct Shape {
  int rank = 0;
  std::int64_t d[kMaxRank] = {};
};
Shape squeeze_batch(const TensorRef& t) noexcept {
  Shape s;
  int first = (t.rank > 1 && t.dims[0] == 1) ? 1 : 0;
  for (int i = first; i < t.rank; ++i) s.d[s.rank++] = t.dims[i];
  return s;
}

LayoutCheck check_common(std::span<const TensorRef> tensors) noexcept {
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const TensorRef& t = tensors[i];
    if (t.rank <= 0 || t.num_elements() <= 0) return fail(static_cast<int>(i), "tensor %zu is empty", i);
    if (t.quantized() && !(t.scale > 0.0f))
      return fail(static_cast<int>(i), "tensor %zu is quantized but its scale %g is not positive", i,
                  static_cast<double>(t.scale));
    if (t.type != tensors[0].type)
      return fail(static_cast<int>(i), "tensor %zu has a different element type than tensor 0", i);
  }
  return {};
}

LayoutCheck check_blazeface(std::span<const TensorRef> t, int w, int h) noexcept {
  if (w <= 0 || w != h) return fail(-1, "blazeface needs a square model input size, got %dx%d", w, h);
  auto expect = [&](int i, std::int64_t n, std::int64_t c) -> LayoutCheck {
    const Shape s = squeeze_batch(t[i]);
    const bool ok = (s.rank == 2 && s.d[0] == n && s.d[1] == c) || (c == 1 && s.rank == 1 && s.d[0] == n);
    if (!ok)
      return fail(i, "blazeface tensor %d must be [1,%lld,%lld]", i, static_cast<long long>(n),
                  static_cast<long long>(c));
    return {};
  };
  if (t.size() == 4) {
    for (auto r : {expect(0, 512, 1), expect(1, 384, 1), expect(2, 512, 16), expect(3, 384, 16)})
      if (!r.ok) return r;
    return {};
  }
  if (t.size() == 2) {
    for (auto r : {expect(0, 896, 1), expect(1, 896, 16)})
      if (!r.ok) return r;
    return {};
  }
  return fail(-1,
              "blazeface needs 4 tensors (scores [1,512,1], [1,384,1], regressors [1,512,16], [1,384,16]) or 2 "
              "([1,896,1], [1,896,16]); got %zu",
              t.size());
}

int stride_of(int input, std::int64_t grid) noexcept {
  if (grid <= 0 || input % grid != 0) return 0;
  return static_cast<int>(input / grid);
}

LayoutCheck check_yolov5(std::span<const TensorRef> t, int w, int h) noexcept {
  if (t.size() == 1) {
    const Shape s = squeeze_batch(t[0]);
    if (s.rank != 2 || s.d[1] < 6) return fail(0, "yolov5 single output must be [1,N,5+classes]");
    return {};
  }
  if (t.size() != 3)
    return fail(-1, "yolov5 needs 3 heads [1,3*(5+C),H,W] or one tensor [1,N,5+C]; got %zu tensors", t.size());
  if (w <= 0 || h <= 0) return fail(-1, "yolov5 3-head layout needs the model input size, got %dx%d", w, h);
  std::int64_t channels = -1;
  bool seen[3] = {false, false, false};
  for (int i = 0; i < 3; ++i) {
    if (t[i].rank != 4 || t[i].dims[0] != 1) return fail(i, "yolov5 head %d must be NCHW [1,3*(5+C),H,W]", i);
    const std::int64_t c = t[i].dims[1];
    if (c % 3 != 0 || c / 3 < 6) return fail(i, "yolov5 head %d has %lld channels, not 3*(5+C)", i, static_cast<long long>(c));
    if (channels >= 0 && c != channels) return fail(i, "yolov5 heads disagree on the channel count");
    channels = c;
    const int sy = stride_of(h, t[i].dims[2]);
    const int sx = stride_of(w, t[i].dims[3]);
    if (sy == 0 || sx != sy || (sy != 8 && sy != 16 && sy != 32))
      return fail(i, "yolov5 head %d grid %lldx%lld does not give stride 8/16/32 for input %dx%d", i,
                  static_cast<long long>(t[i].dims[3]), static_cast<long long>(t[i].dims[2]), w, h);
    const int k = sy == 8 ? 0 : (sy == 16 ? 1 : 2);
    if (seen[k]) return fail(i, "yolov5 head %d repeats stride %d", i, sy);
    seen[k] = true;
  }
  return {};
}

LayoutCheck check_yolov8(std::span<const TensorRef> t, int w, int h) noexcept {
  if (t.size() == 1) {
    const Shape s = squeeze_batch(t[0]);
    if (s.rank != 2 || s.d[0] < 5) return fail(0, "yolov8 single output must be [1,4+classes,N]");
    return {};
  }
  if (t.size() != 6 && t.size() != 9)
    return fail(-1, "yolov8 needs 6 or 9 tensors (per branch box, cls[, score_sum]) or one [1,4+C,N]; got %zu",
                t.size());
  if (w <= 0 || h <= 0) return fail(-1, "yolov8 branch layout needs the model input size, got %dx%d", w, h);
  const std::size_t per = t.size() / 3;
  std::int64_t classes = -1;
  for (std::size_t b = 0; b < 3; ++b) {
    const int ib = static_cast<int>(per * b);
    const TensorRef& box = t[ib];
    const TensorRef& cls = t[ib + 1];
    if (box.rank != 4 || box.dims[0] != 1 || box.dims[1] % 4 != 0 || box.dims[1] < 4)
      return fail(ib, "yolov8 box tensor %d must be [1,4*R,H,W]", ib);
    if (cls.rank != 4 || cls.dims[0] != 1 || cls.dims[2] != box.dims[2] || cls.dims[3] != box.dims[3])
      return fail(ib + 1, "yolov8 class tensor %d must be [1,C,H,W] with the box tensor's H,W", ib + 1);
    if (classes >= 0 && cls.dims[1] != classes) return fail(ib + 1, "yolov8 branches disagree on the class count");
    classes = cls.dims[1];
    if (per == 3) {
      const TensorRef& ss = t[ib + 2];
      if (ss.rank != 4 || ss.dims[1] != 1 || ss.dims[2] != box.dims[2] || ss.dims[3] != box.dims[3])
        return fail(ib + 2, "yolov8 score_sum tensor %d must be [1,1,H,W]", ib + 2);
    }
    const int sy = stride_of(h, box.dims[2]);
    const int sx = stride_of(w, box.dims[3]);
    if (sy == 0 || sx != sy)
      return fail(ib, "yolov8 branch %zu grid %lldx%lld does not divide the input %dx%d", b,
                  static_cast<long long>(box.dims[3]), static_cast<long long>(box.dims[2]), w, h);
  }
  return {};
}

}  // namespace

bool parse_decoder(std::string_view text, DecoderKind& out) noexcept {
  if (text == "blazeface") {
    out = DecoderKind::blazeface;
  } else if (text == "yolov5") {
    out = DecoderKind::yolov5;
  } else if (text == "yolov8" || text == "yolo11") {
    out = DecoderKind::yolov8;
  } else {
    return false;
  }
  return true;
}

std::string_view to_string(DecoderKind kind) noexcept {
  switch (kind) {
    case DecoderKind::blazeface: return "blazeface";
    case DecoderKind::yolov5: return "yolov5";
    case DecoderKind::yolov8: return "yolov8";
  }
  return "?";
}

LayoutCheck check_layout(DecoderKind kind, std::span<const TensorRef> tensors, int input_w,
                         int input_h) noexcept {
  if (tensors.empty()) return fail(-1, "no tensors given");
  if (LayoutCheck c = check_common(tensors); !c.ok) return c;
  switch (kind) {
    case DecoderKind::blazeface: return check_blazeface(tensors, input_w, input_h);
    case DecoderKind::yolov5: return check_yolov5(tensors, input_w, input_h);
    case DecoderKind::yolov8: return check_yolov8(tensors, input_w, input_h);
  }
  return fail(-1, "unknown decoder");
}

DecodeScratch::DecodeScratch(DecoderKind kind, std::span<const TensorRef> tensors) {
  if (kind != DecoderKind::yolov8 || tensors.empty()) return;
  std::size_t cells = 0;
  if (tensors.size() == 1) {
    const TensorRef& t = tensors[0];
    cells = static_cast<std::size_t>(t.dims[t.rank - 1]);
  } else {
    for (const auto& t : tensors)
      if (t.rank == 4) cells = std::max(cells, static_cast<std::size_t>(t.dims[2] * t.dims[3]));
  }
  best_real.resize(cells);
  best_q.resize(cells);
}

void decode(DecoderKind kind, std::span<const TensorRef> tensors, const DecodeParams& params,
            DecodeScratch& scratch, CandidateBuffer& out) noexcept {
  switch (kind) {
    case DecoderKind::blazeface:
      decode_blazeface(tensors, params, out);
      break;
    case DecoderKind::yolov5:
      decode_yolov5(tensors, params, out);
      break;
    case DecoderKind::yolov8:
      decode_yolov8(tensors, params, scratch, out);
      break;
  }
}

}  // namespace vg::detection
