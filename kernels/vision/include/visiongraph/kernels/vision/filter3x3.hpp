#pragma once
/// @file
/// @brief The 3x3 filters of OpenVX (Gaussian3x3, Box3x3, Median3x3, Erode3x3, Dilate3x3) on 8-bit planes,
/// exact as the Khronos conformance suite checks them, vectorised with Highway (run-time dispatch: the
/// widest instruction set the CPU has among those compiled in).
#include <string_view>

#include "visiongraph/kernels/vision/border.hpp"
#include "visiongraph/kernels/vision/plane.hpp"

namespace vg::vision {

/// Each output pixel from the 3x3 neighbourhood of the input pixel at the same place:
/// - gaussian: (corners + 2 * edge neighbours + 4 * centre) >> 4 (truncated, as the conformance
///   reference computes it; OpenCV's GaussianBlur rounds instead);
/// - box: sum / 9, truncated;
/// - median: the 5th of the 9 sorted values;
/// - erode / dilate: the minimum / maximum.
enum class Filter3x3 : std::uint8_t { gaussian, box, median, erode, dilate };

/// @brief "gaussian", "box", "median", "erode", "dilate"; false on another name.
bool parse_filter3x3(std::string_view text, Filter3x3& filter) noexcept;
std::string_view to_string(Filter3x3 filter) noexcept;

/// @brief Filters @p in into @p out (same size, different memory), output rows @p rows only.
void filter3x3(Filter3x3 filter, ConstPlane in, Plane out, Border border = {}, Rows rows = {}) noexcept;

}  // namespace vg::vision
