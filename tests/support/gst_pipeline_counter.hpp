#pragma once
/// @file
/// @brief How many GStreamer pipelines are alive in the process, for tests that check nothing of a
/// pipeline outlives its owner. Counted through GStreamer's tracing hooks (object created / destroyed),
/// from the first call on.

namespace vg::test {

/// Pipelines created and not yet finalized since the first call (which starts counting: call it once
/// before creating what is checked).
int live_gst_pipelines();

}  // namespace vg::test
