#pragma once
// Letting go of a stopped GStreamer pipeline so that everything it held is given back before the caller
// goes on. Dropping our reference is not enough: GStreamer itself may hold the last one for a moment (a
// bin continues an asynchronous state change on its own thread pool), and the pipeline is then disposed
// on that thread, after us. Its elements' queued buffers would be given back late, to an owner (a
// producer's buffer pool, a writer's frame ring) that may be gone by then.

#include <gst/gst.h>

#include <chrono>

namespace vg::io::detail {

/// Drops the caller's reference to @p pipeline (already set to GST_STATE_NULL) and waits, at most
/// @p limit, until GStreamer has finalized it. True when it was finalized in time (at once when the
/// caller held the last reference); false when someone still holds it after @p limit (it is then
/// finalized whenever they let go, safely). Null: nothing to do, true.
bool release_stopped_pipeline(GstElement* pipeline, std::chrono::milliseconds limit) noexcept;

}  // namespace vg::io::detail
