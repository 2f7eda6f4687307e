#pragma once
/// @file
/// @brief OpenVX's MatchTemplate: how well a U8 template matches every placement in a U8 source, as S16.
#include <cstdint>

#include "visiongraph/kernels/vision/pixels.hpp"
#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

/// @brief The comparisons of OpenVX's MatchTemplate (VX_COMPARE_*), over the template's pixels t and the
/// source's pixels s under them:
///   hamming     the number of differing bits,   l1  sum |s - t|,   l2  sum (s - t)^2,   ccorr  sum s t,
///   l2_norm     sum (s - t)^2 / sqrt(sum s^2 * sum t^2),   ccorr_norm  sum s t / sqrt(sum s^2 * sum t^2).
/// The normalised ones are in Q7.8 (1.0 is 256), rounded to nearest (halves away from zero) in double, and
/// 0 where sum s^2 * sum t^2 is 0. Every value is saturated to S16.
enum class CompareMethod : std::uint8_t { hamming, l1, l2, ccorr, l2_norm, ccorr_norm };

/// @brief Writes into @p out (S16, (W - w + 1) x (H - h + 1) for a W x H @p source and a w x h @p templ) the
/// comparison of @p templ with the source pixels at each placement of its top-left corner: out(x, y)
/// compares templ with the source's w x h pixels from (x, y). Returns false (writing nothing) for an
/// empty template, one larger than the source, an output of another size or type, or an unknown method.
/// Allocates nothing.
bool match_template(ConstPlane source, ConstPlane templ, CompareMethod method, Pixels out) noexcept;

}  // namespace vg::vision
