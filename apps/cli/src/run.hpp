#pragma once
/// @file
/// @brief `visiongraph run GRAPH.yaml --input SRC`.

#include <chrono>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "visiongraph/mqtt/options.hpp"
#include "visiongraph/yaml/yaml.hpp"

namespace vg::cli {

/// @brief Options of `visiongraph run`.
struct RunOptions {
  std::string graph;       ///< graph file
  std::string input;       ///< a source spec (docs/sources.md): file, directory, rtsp://, http(s)://, /dev/videoN, gst:...
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
  std::int64_t frames = -1;  ///< stop after N frames; -1 = all
  bool realtime = false;     ///< pace file input at its fps (latest wins)
  bool stage_times = false;  ///< each frame's stage times in detections.jsonl, the newest in `stats`
  bool progress = true;      ///< progress line when stderr is a terminal
  bool reconnect = false;    ///< live sources: reconnect with backoff instead of ending
  bool allow_partial = false;  ///< exit 0 when the input failed part-way
  bool dmabuf = false;       ///< allocate npu0's buffers from DMA-BUF memory (zero-copy NPU input)
  bool no_dmabuf = false;    ///< never do so (default: only when an rknpu device is present)
  bool no_plugins = false;   ///< refuse graph files that load code (module libraries, runtime_path)
  std::chrono::milliseconds drain_timeout{10000};  ///< after SIGINT/SIGTERM: frames in flight get this long
  /// After the first SIGINT/SIGTERM: the whole stop (drain, abandon, outputs) gets drain_timeout plus
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

/// @brief --no-plugins: throws vg::yaml::LoadError at the first place @p desc would load code (a module
/// library, the `runtime_path` attribute).
void refuse_code_loading(const yaml::GraphDesc& desc);

/// @brief Run the graph over the source. Returns the process exit code: 0 ok (also after one SIGINT or
/// SIGTERM once the frames in flight finished); 1 failure (a frame failed, the input failed part-way
/// without --allow-partial, nothing was read, an output could not be written, frames in flight were
/// abandoned by a second signal or the drain timeout, a target faulted by a kernel past its deadline).
/// A third signal, or a stop that outlasts drain_timeout + stop_timeout, ends the process at once with
/// exit status 1 after naming the node still running and writing trace.json.
/// Throws UsageError for arguments the graph cannot take (--write NAME, --publish SPEC).
/// Throws vg::yaml::LoadError / vg::Error for graph file problems.
int run_graph(const RunOptions& options);

}  // namespace vg::cli
