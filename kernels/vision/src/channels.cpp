// ChannelCombine and ChannelExtract for 3 and 4 channels (channels.hpp): Highway's interleaved loads and
// stores, compiled once per target as filter3x3.cpp is.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "channels.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "visiongraph/kernels/vision/channels.hpp"

HWY_BEFORE_NAMESPACE();
namespace vg::vision::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void CombineRows(const ConstPlane* planes, int count, Plane out, std::uint32_t begin, std::uint32_t end) {
  const hn::ScalableTag<std::uint8_t> d;
  const std::size_t lanes = hn::Lanes(d), width = out.width, n = static_cast<std::size_t>(count);
  for (std::uint32_t y = begin; y < end; ++y) {
    const std::uint8_t* p0 = planes[0].row(y);
    const std::uint8_t* p1 = planes[1].row(y);
    const std::uint8_t* p2 = planes[2].row(y);
    const std::uint8_t* p3 = count == 4 ? planes[3].row(y) : nullptr;
    std::uint8_t* o = out.row(y);
    std::size_t x = 0;
    for (; x + lanes <= width; x += lanes) {
      if (count == 4) {
        hn::StoreInterleaved4(hn::LoadU(d, p0 + x), hn::LoadU(d, p1 + x), hn::LoadU(d, p2 + x), hn::LoadU(d, p3 + x), d, o + x * 4);
      } else {
        hn::StoreInterleaved3(hn::LoadU(d, p0 + x), hn::LoadU(d, p1 + x), hn::LoadU(d, p2 + x), d, o + x * 3);
      }
    }
    for (; x < width; ++x) {
      o[x * n] = p0[x];
      o[x * n + 1] = p1[x];
      o[x * n + 2] = p2[x];
      if (count == 4) o[x * n + 3] = p3[x];
    }
  }
}

void ExtractRows(ConstPlane in, int count, int channel, Plane out, std::uint32_t begin, std::uint32_t end) {
  const hn::ScalableTag<std::uint8_t> d;
  const std::size_t lanes = hn::Lanes(d), width = out.width, n = static_cast<std::size_t>(count);
  const auto c = static_cast<std::size_t>(channel);
  for (std::uint32_t y = begin; y < end; ++y) {
    const std::uint8_t* src = in.row(y);
    std::uint8_t* o = out.row(y);
    std::size_t x = 0;
    // No arrays of vectors (SVE's are sizeless): one store per channel case.
    for (; x + lanes <= width; x += lanes) {
      auto v0 = hn::Zero(d), v1 = hn::Zero(d), v2 = hn::Zero(d), v3 = hn::Zero(d);
      if (count == 4) {
        hn::LoadInterleaved4(d, src + x * 4, v0, v1, v2, v3);
      } else {
        hn::LoadInterleaved3(d, src + x * 3, v0, v1, v2);
      }
      switch (c) {
        case 0: hn::StoreU(v0, d, o + x); break;
        case 1: hn::StoreU(v1, d, o + x); break;
        case 2: hn::StoreU(v2, d, o + x); break;
        default: hn::StoreU(v3, d, o + x); break;
      }
    }
    for (; x < width; ++x) o[x] = src[x * n + c];
  }
}

}  // namespace vg::vision::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vg::vision {

HWY_EXPORT(CombineRows);
HWY_EXPORT(ExtractRows);

void combine_channels(const ConstPlane* planes, int count, Plane out, Rows rows) noexcept {
  const std::uint32_t end = std::min(rows.end, out.height);
  if ((count != 3 && count != 4) || out.width == 0 || rows.begin >= end) return;
  HWY_DYNAMIC_DISPATCH(CombineRows)(planes, count, out, rows.begin, end);
}

void extract_channel(ConstPlane in, int count, int channel, Plane out, Rows rows) noexcept {
  const std::uint32_t end = std::min(rows.end, out.height);
  if ((count != 3 && count != 4) || channel < 0 || channel >= count || out.width == 0 || rows.begin >= end) return;
  HWY_DYNAMIC_DISPATCH(ExtractRows)(in, count, channel, out, rows.begin, end);
}

}  // namespace vg::vision
#endif
