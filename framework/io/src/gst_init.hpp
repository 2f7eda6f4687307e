#pragma once
// GStreamer is initialised once per process, by the first source that needs it.

namespace vg::io::detail {

/// Calls gst_init once (thread-safe). Throws vg::Error when GStreamer cannot start.
void ensure_gstreamer();

}  // namespace vg::io::detail
