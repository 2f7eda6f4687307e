#pragma once
/// @file
/// @brief The GStreamer elements visiongraph's sources and outputs use, the Debian package each comes
/// from, and whether this machine has it: for `visiongraph doctor` and for messages about a missing one.

#include <string>
#include <string_view>
#include <vector>

namespace vg::io {

/// @brief One element and what it is for.
struct GstElementCheck {
  std::string element;   ///< factory name, e.g. "x264enc"
  std::string package;   ///< the Debian package that installs it
  std::string used_for;  ///< what needs it, e.g. "annotated.mp4 and --serve-rtsp (H.264 encoder)"
  bool present = false;  ///< the factory is registered on this machine
  bool optional = false; ///< used when present (a hardware encoder), not missed when absent
};

/// @brief Every element the built-in sources and outputs may use, checked now (initialises GStreamer).
std::vector<GstElementCheck> check_gstreamer_elements();

/// @brief The Debian package of a known element, or "" (e.g. "gstreamer1.0-plugins-ugly" for x264enc).
std::string_view gstreamer_package_of(std::string_view element) noexcept;

/// @brief The H.264 encoder "auto" picks here (mpph264enc, v4l2h264enc, else x264enc); "" when none exists.
std::string h264_encoder_choice();

/// @brief "GStreamer 1.22.0" (the library's own version string).
std::string gstreamer_version();

}  // namespace vg::io
