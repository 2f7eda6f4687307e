#pragma once
/// @file
/// @brief What a run of a graph file over one or several sources is asked to do (`visiongraph run`,
/// visiongraph.run in Python): the options of vg::runner::run_graph.

#include <chrono>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "visiongraph/mqtt/options.hpp"

namespace vg::runner {

/// @brief Options of one run. One input runs as before (outputs in OUTPUT_DIR/); several inputs, or a
/// graph file with `streams:`, run one graph instance per stream in one context (outputs in
/// OUTPUT_DIR/<stream>/, MQTT topics TOPIC/<stream>; docs/service.md).
struct RunOptions {
  std::string graph;  ///< graph file
  /// Source specs (docs/sources.md): file, directory, rtsp://, http(s)://, /dev/videoN, gst:...; each may
  /// be NAME=SPEC to name its stream. Empty: the graph file's `streams:`.
  std::vector<std::string> inputs;
  std::string output_dir;  ///< default out/<graph name>/
  std::vector<std::string> control;  ///< live control: Unix socket paths and mqtt(s):// topics
  std::vector<std::string> publish;  ///< results out: mqtt(s)://HOST:PORT/TOPIC, or - (standard output)
  mqtt::MqttOptions mqtt;            ///< credentials, TLS, QoS for every MQTT endpoint
  std::string serve_rtsp;            ///< [ADDRESS:]PORT: serve the annotated video over RTSP; empty = no
  std::string h264_encoder = "auto";  ///< annotated video and RTSP: auto (hardware when present, else x264enc) or an element
  std::string metrics;               ///< [ADDRESS:]PORT: Prometheus text at http://.../metrics; empty = no
  std::vector<std::string> write;    ///< output graph parameters written to files per frame (io::DataWriter)
  std::string assets;      ///< VG_ASSETS_DIR for ${VG_ASSETS_DIR} in the graph file
  std::map<std::string, std::string> variables;  ///< --set NAME=VALUE
  std::int64_t frames = -1;  ///< stop after N frames (per stream); -1 = all
  bool realtime = false;     ///< pace file input at its fps (latest wins)
  bool stage_times = false;  ///< each frame's stage times in detections.jsonl, the newest in `stats`
  bool progress = true;      ///< progress line when stderr is a terminal
  bool reconnect = false;    ///< live sources: reconnect with backoff instead of ending
  bool allow_partial = false;  ///< exit 0 when the input failed part-way
  bool dmabuf = false;       ///< allocate npu0's buffers from DMA-BUF memory (zero-copy NPU input)
  bool no_dmabuf = false;    ///< never do so (default: only when an rknpu device is present)
  bool no_plugins = false;   ///< refuse graph files that load code (module libraries, runtime_path)
  /// SIGINT/SIGTERM stop the run (the command line); off in an embedding process (Python), which calls
  /// request_stop() instead.
  bool handle_signals = true;
  std::chrono::milliseconds drain_timeout{10000};  ///< after a stop request: frames in flight get this long
  /// After the first stop request: the whole stop (drain, abandon, outputs) gets drain_timeout plus
  /// this long; then the process ends at once, naming the node still running (a kernel that never returns).
  std::chrono::milliseconds stop_timeout{20000};
  /// Ends the run (stop reading, outputs written, exit status 1) when the process's resident memory passes
  /// this many bytes (a kernel that leaks). 0 = no limit.
  std::int64_t max_rss_bytes = 0;
};

/// @brief A malformed or inconsistent argument found while the run is set up (exit status 2).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// @brief One stream of a run: its name ("" when the run has one unnamed input) and its source spec.
struct StreamInput {
  std::string name;
  std::string spec;
};

/// @brief A stream name is a path component and an MQTT topic level: 1..64 of letters, digits, '-', '_'.
/// (The graph file's rule, vg::yaml::is_stream_name.)
bool is_stream_name(const std::string& name) noexcept;

/// @brief "NAME=SPEC" -> {NAME, SPEC} when NAME is a stream name and the whole text is not an existing
/// file; otherwise {"", text} (a URL's query "?a=b" is not a name).
StreamInput parse_stream_argument(const std::string& text);

}  // namespace vg::runner
