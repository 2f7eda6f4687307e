#pragma once
// The concrete sources behind Source::open (private to vg_io).

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "container_probe.hpp"
#include "visiongraph/io/source.hpp"

namespace vg::io::detail {

/// What a GStreamer-backed source runs.
struct GstSourceConfig {
  std::string spec;     // as the user gave it, for messages
  SourceKind kind = SourceKind::video_file;
  std::string launch;   // gst_parse_launch description
  std::string uri;      // uridecodebin's "uri" (set as a property: no quoting issues)
  std::string device;   // v4l2src's "device"
  ContainerExtent extent;  // video files: what the header declares (truncation check at the end)
};

/// Throws vg::Error naming the spec when the pipeline cannot be built or delivers nothing usable.
std::unique_ptr<Source> open_gst_source(GstSourceConfig config, const SourceOptions& options);

/// One image (files.size() == 1, kind image) or the images of a directory (kind image_dir).
std::unique_ptr<Source> open_image_source(std::string spec, SourceKind kind,
                                          std::vector<std::filesystem::path> files, const SourceOptions& options);

}  // namespace vg::io::detail
