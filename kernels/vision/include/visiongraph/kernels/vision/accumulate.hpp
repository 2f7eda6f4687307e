#pragma once
/// @file
/// @brief OpenVX's WeightedAverage and the accumulations (Accumulate, AccumulateSquare, AccumulateWeighted):
/// running sums and blends of frames, e.g. a background model.
#include "visiongraph/kernels/vision/pixels.hpp"

namespace vg::vision {

/// @brief out = trunc((1 - alpha) keep + alpha take), each product and the sum rounded to float as the
/// specification's reference computes them (no fused multiply-add), @p alpha in [0, 1]. @p out may be
/// @p keep (AccumulateWeighted updates its accumulator so). Output rows @p rows only.
void weighted_average(ConstPlane keep, ConstPlane take, float alpha, Plane out, Rows rows = {}) noexcept;

/// @brief S16 @p accum += U8 @p in, saturated. Rows @p rows only. False (nothing written) unless accum is S16.
bool accumulate(ConstPlane in, Pixels accum, Rows rows = {}) noexcept;

/// @brief S16 @p accum += (in * in) >> @p shift (0..15), saturated. False (nothing written) unless accum is
/// S16 and the shift in range.
bool accumulate_square(ConstPlane in, Pixels accum, unsigned shift, Rows rows = {}) noexcept;

}  // namespace vg::vision
