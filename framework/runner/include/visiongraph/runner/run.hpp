#pragma once
/// @file
/// @brief Run a graph file over one or several sources until they end or a stop is requested: the run
/// loop behind `visiongraph run` and visiongraph.run (Python).

#include "visiongraph/runner/run_options.hpp"
#include "visiongraph/yaml/graph_desc.hpp"

namespace vg::runner {

/// @brief Exit status of a run with several streams where some streams failed and others did not
/// (each one's outcome is in OUTPUT_DIR/streams.json and on standard error).
inline constexpr int kSomeStreamsFailed = 3;

/// @brief Runs the graph over every stream. Returns the process exit code:
/// - 0: every stream ran to its end (also after one stop request once the frames in flight finished);
/// - 1: the run failed (a frame failed, an input failed part-way without allow_partial, nothing was
///   read, an output could not be written, frames in flight were abandoned by a second stop request or
///   the drain timeout, a target faulted by a kernel past its deadline) - with several streams: every
///   stream failed;
/// - kSomeStreamsFailed (3): several streams, some failed and the others ran to their end.
/// A third stop request, or a stop that outlasts drain_timeout + stop_timeout, ends the process at once
/// with exit status 1 after naming the node still running and writing trace.json.
/// Throws UsageError for arguments the graph cannot take (--write NAME, --publish SPEC, stream names).
/// Throws vg::yaml::LoadError / vg::Error for graph file problems.
int run_graph(const RunOptions& options);

/// @brief Asks the running run_graph to stop, as SIGINT does: the first call stops reading and drains,
/// the second abandons the frames in flight, the third ends the process. Async-signal-safe.
void request_stop() noexcept;

/// @brief --no-plugins: throws vg::yaml::LoadError at the first place @p desc would load code (a module
/// library, the `runtime_path` attribute).
void refuse_code_loading(const yaml::GraphDesc& desc);

}  // namespace vg::runner
