#pragma once
/// @file
/// @brief What a neighbourhood function reads outside the image.
#include <cstdint>
#include <string_view>

namespace vg::vision {

/// @brief replicate: the nearest edge pixel; constant: a fixed value. (OpenVX's UNDEFINED border is
/// computed as replicate: the specification leaves those pixels open.)
enum class BorderMode : std::uint8_t { replicate, constant };

struct Border {
  BorderMode mode = BorderMode::replicate;
  std::uint8_t constant = 0;  ///< read outside the image when mode is constant
};

/// @brief "replicate" / "constant" (also "undefined", computed as replicate); false on another name.
bool parse_border_mode(std::string_view text, BorderMode& mode) noexcept;

}  // namespace vg::vision
