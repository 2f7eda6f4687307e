// run_graph: every stream of a run set up (source, graph instance in the shared context, outputs,
// publishers), started, drained and reported; the control and metrics endpoints serve all of them.

#include "visiongraph/runner/run.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "connection_log.hpp"
#include "progress.hpp"
#include "run_outputs.hpp"
#include "run_params.hpp"
#include "stop_state.hpp"
#include "stop_watchdog.hpp"
#include "stream_run.hpp"
#include "visiongraph/core/clock.hpp"
#include "visiongraph/mqtt/command_channel.hpp"
#include "visiongraph/mqtt/endpoint.hpp"
#include "visiongraph/mqtt/publisher.hpp"
#include "visiongraph/service/control_protocol.hpp"
#include "visiongraph/service/control_server.hpp"
#include "visiongraph/service/crash_report.hpp"
#include "visiongraph/service/metrics_server.hpp"
#include "visiongraph/service/run_stats.hpp"

namespace vg::runner {

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

/// --publish and mqtt:// --control values are checked before anything starts: a malformed one is a
/// usage error (exit status 2), not a failure found after the graph has loaded.
void check_endpoints(const RunOptions& opt) {
  for (const std::string& spec : opt.publish) {
    if (spec == "-") continue;
    if (!is_mqtt_url(spec)) throw UsageError("--publish '" + spec + "': expected mqtt://HOST:PORT/TOPIC, mqtts://... or -");
    try {
      (void)mqtt::MqttEndpoint::parse(spec);
    } catch (const std::exception& e) {
      throw UsageError("--publish '" + spec + "': " + e.what());
    }
  }
  for (const std::string& spec : opt.control) {
    if (!is_mqtt_url(spec)) continue;
    try {
      (void)mqtt::MqttEndpoint::parse(spec);
    } catch (const std::exception& e) {
      throw UsageError("--control '" + spec + "': " + e.what());
    }
  }
}

/// Everything one stream of the run owns. Not movable: its StreamRun refers to its members.
struct Stream {
  StreamInput input;
  fs::path out_dir;
  yaml::GraphDesc desc;
  std::unique_ptr<io::Source> source;
  io::SourceInfo info;
  bool images = false;  // an image or a folder of images: annotated PNGs, no video
  std::unique_ptr<yaml::LoadedGraph> loaded;
  RunParams params;
  std::vector<std::unique_ptr<mqtt::MqttPublisher>> publishers;
  bool publish_stdout = false;
  std::unique_ptr<RunOutputs> outputs;
  std::unique_ptr<ConnectionLog> connection_log;
  std::unique_ptr<StreamRun> run;
  std::string start_error;  // the stream never started (its source could not be opened)
  int exit_code = 0;
  std::string outcome;  // why it failed, one line
};

/// The streams of the run: --input values (NAME=SPEC or SPEC), else the graph file's `streams:`.
std::vector<StreamInput> stream_inputs(const RunOptions& opt, const yaml::GraphDesc& desc, const yaml::BuildOptions& build,
                                       bool& several) {
  std::vector<StreamInput> inputs;
  if (!opt.inputs.empty()) {
    for (const std::string& text : opt.inputs) inputs.push_back(parse_stream_argument(text));
  } else {
    for (const yaml::StreamDesc& s : desc.streams)
      inputs.push_back({s.name, yaml::substitute(s.input, build, s.position, "input")});
  }
  if (inputs.empty())
    throw UsageError("no input: give --input SOURCE (a file, folder, rtsp://, /dev/videoN, gst:...), or list the "
                     "graph's inputs under 'streams:' in " + opt.graph);
  several = inputs.size() > 1 || (opt.inputs.empty() && !desc.streams.empty());
  if (!several) {
    inputs.front().name.clear();  // one --input runs as it always has, named or not: OUT/, TOPIC
    return inputs;
  }
  for (std::size_t i = 0; i < inputs.size(); ++i)
    if (inputs[i].name.empty()) inputs[i].name = "stream" + std::to_string(i);
  for (std::size_t i = 0; i < inputs.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (inputs[i].name == inputs[j].name)
        throw UsageError("stream name '" + inputs[i].name + "' is given twice (inputs " + std::to_string(j + 1) + " and " +
                         std::to_string(i + 1) + "): each stream writes its own folder and topic");
  return inputs;
}

/// mqtt://HOST:PORT/TOPIC -> mqtt://HOST:PORT/TOPIC/STREAM: each stream publishes under its own topic.
std::string stream_topic(const std::string& spec, const std::string& stream) {
  if (stream.empty()) return spec;
  return spec + (spec.ends_with('/') ? "" : "/") + stream;
}

/// trace.json is written beside and renamed into place: it is whole or absent, never 0 bytes.
/// Returns the failure ("" when written).
std::string write_trace(const Graph& graph, const fs::path& dir) {
  const fs::path trace_path = dir / "trace.json", partial = dir / "trace.json.partial";
  std::ofstream trace(partial);
  graph.write_trace(trace);
  trace.flush();
  const bool written = static_cast<bool>(trace);
  const int err = errno;
  trace.close();
  std::error_code ec;
  if (written) fs::rename(partial, trace_path, ec);
  if (written && !ec) return {};
  fs::remove(partial, ec);
  fs::remove(trace_path, ec);  // an older run's trace would be taken for this one's
  return "writing '" + trace_path.string() + "' failed: " + std::strerror(written ? ec.value() : err) +
         " (no trace.json written)";
}

/// The per-node table and the frame, source and output lines of one stream.
void report_stream(std::ostream& report, Stream& s, const StreamRun& run) {
  Graph& graph = s.loaded->graph();
  if (!s.input.name.empty()) report << "== stream " << s.input.name << " (" << s.info.spec << ") ==\n";
  report << graph.report_text();
  const GraphStats stats = graph.stats();
  const io::SourceStats src = s.source->stats();
  const RunCounts& counts = run.counts();
  report << "frames: " << counts.read.load() << " read, " << stats.frames_completed << " completed, "
         << counts.dropped.load() << " dropped, " << counts.aborted.load() << " aborted, " << counts.failed.load()
         << " failed";
  if (counts.skipped.load() > 0) report << ", " << counts.skipped.load() << " unreadable input(s) skipped";
  if (stats.wall_seconds > 0) report << "; " << static_cast<double>(stats.frames_completed) / stats.wall_seconds << " fps";
  report << "; latency p50 " << static_cast<double>(stats.latency_p50_ns) / 1e6 << " ms, p99 "
         << static_cast<double>(stats.latency_p99_ns) / 1e6 << " ms";
  if (stats.capture_latency_p50_ns > 0)
    report << "; capture -> done p50 " << static_cast<double>(stats.capture_latency_p50_ns) / 1e6 << " ms, p99 "
           << static_cast<double>(stats.capture_latency_p99_ns) / 1e6 << " ms";
  report << "\n";
  report << "source " << s.info.spec << ": " << std::string(io::to_string(s.info.kind)) << ", " << s.info.width << "x"
         << s.info.height << (s.info.dmabuf ? ", DMA-BUF" : "") << (src.converting ? ", converted by GStreamer" : "")
         << "; " << src.dropped << " dropped before the graph, " << src.reconnects << " reconnects; "
         << run.input_stats().imported << " frames imported without a copy, "
         << run.input_stats().converted << " converted\n";
  report << "outputs in " << s.out_dir.string() << ":" << s.outputs->describe() << "\n";
  for (auto& p : s.publishers) {  // what is still queued gets a moment to leave, then the counts
    (void)p->flush(2s);
    report << p->stats().summary(p->endpoint().url) << "\n";
  }
}

/// One stream's exit status, with its reasons on standard error (as a run of one stream has them).
int stream_exit_code(const RunOptions& opt, Stream& s, std::vector<std::string> output_errors,
                     const std::string& memory_exceeded) {
  const StreamRun& run = *s.run;
  const std::string who = s.input.name.empty() ? std::string() : "stream '" + s.input.name + "': ";
  auto fail = [&](const std::string& why) {
    std::cerr << "visiongraph run: " << who << why << '\n';
    if (s.outcome.empty()) s.outcome = why;
  };
  const std::string consumer_error = run.consumer_error();
  const std::uint64_t read = run.counts().read.load();
  if (!consumer_error.empty() || !output_errors.empty()) {
    // Every output that failed is named, each once (the first failure is also what stopped the stream).
    if (!consumer_error.empty() && std::find(output_errors.begin(), output_errors.end(), consumer_error) == output_errors.end())
      output_errors.insert(output_errors.begin(), consumer_error);
    for (const std::string& e : output_errors) fail(e);
    return 1;
  }
  if (!run.fault().empty()) {
    fail("stopped after " + std::to_string(read) + " frame(s): " + run.fault());
    return 1;
  }
  if (!memory_exceeded.empty()) {
    fail("stopped after " + std::to_string(read) + " frame(s): " + memory_exceeded);
    return 1;
  }
  if (run.abandoned()) {
    fail("stopped by a signal; " + std::to_string(s.loaded->graph().stats().frames_aborted) +
         " frame(s) in flight were abandoned (outputs hold every frame completed before)");
    return 1;
  }
  if (stop::interrupted())
    std::cerr << "visiongraph run: " << who << "stopped by a signal after " << read << " frame(s); all of them finished\n";
  if (!run.source_error().empty()) {
    const std::string why = "the input failed after " + std::to_string(read) + " frame(s): " + run.source_error();
    if (!opt.allow_partial) {
      fail(why);
      return 1;
    }
    std::cerr << "visiongraph run: " << who << why << " (accepted: --allow-partial)\n";
  }
  if (run.counts().failed.load() > 0) {
    fail(std::to_string(run.counts().failed.load()) + " frame(s) failed; last error: " +
         s.loaded->graph().last_error().describe());
    return 1;
  }
  if (read == 0) {
    fail("no frame was read from '" + s.input.spec + "'");
    return 1;
  }
  return 0;
}

/// OUTPUT_DIR/streams.json: each stream's name, input, exit status, reason and frame counts, so a
/// supervisor learns which stream failed without parsing standard error.
void write_streams_json(const fs::path& dir, const std::vector<std::unique_ptr<Stream>>& streams) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const auto& s : streams) {
    nlohmann::ordered_json j;
    j["name"] = s->input.name;
    j["input"] = s->input.spec;
    j["exit_code"] = s->exit_code;
    j["ok"] = s->exit_code == 0;
    if (!s->outcome.empty()) j["error"] = s->outcome;
    if (s->start_error.empty()) j["output_dir"] = s->out_dir.string();
    if (s->run) {
      const RunCounts& c = s->run->counts();
      j["frames"] = {{"read", c.read.load()},       {"completed", s->loaded->graph().stats().frames_completed},
                     {"dropped", c.dropped.load()}, {"aborted", c.aborted.load()},
                     {"failed", c.failed.load()}};
      j["reconnects"] = s->source->stats().reconnects;
    }
    list.push_back(std::move(j));
  }
  std::ofstream out(dir / "streams.json");
  out << nlohmann::ordered_json{{"streams", std::move(list)}}.dump(2) << '\n';
  if (!out) std::cerr << "visiongraph run: writing '" << (dir / "streams.json").string() << "' failed\n";
}

/// Trims spaces and a trailing CR from a control line.
std::string_view trimmed(std::string_view request) {
  while (!request.empty() && (request.front() == ' ' || request.front() == '\t')) request.remove_prefix(1);
  while (!request.empty() && (request.back() == ' ' || request.back() == '\t' || request.back() == '\r')) request.remove_suffix(1);
  return request;
}

}  // namespace

bool is_stream_name(const std::string& name) noexcept { return yaml::is_stream_name(name); }

StreamInput parse_stream_argument(const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq + 1 == text.size()) return {"", text};
  std::error_code ec;
  if (fs::exists(text, ec)) return {"", text};  // a file whose name holds '='
  const std::string name = text.substr(0, eq);
  if (!is_stream_name(name)) return {"", text};
  return {name, text.substr(eq + 1)};
}

void request_stop() noexcept { stop::request(); }

/// --no-plugins: a graph file that would load code is refused where it asks for it.
void refuse_code_loading(const yaml::GraphDesc& desc) {
  for (const auto& m : desc.modules)
    if (m.name.empty())
      throw yaml::LoadError(m.position, "modules",
                            "module library '" + m.library + "' refused: --no-plugins forbids loading code from a graph file");
  for (const auto& n : desc.nodes)
    for (const auto& a : n.attributes)
      if (a.key == "runtime_path")
        throw yaml::LoadError(a.position, "runtime_path",
                              "node '" + n.name + "': 'runtime_path' loads a library; refused by --no-plugins");
}

int run_graph(const RunOptions& opt) {
  stop::reset();
  check_endpoints(opt);
  // A crashing kernel still gets named: the node, its target and the frame on the crashing thread.
  service::install_crash_report("visiongraph run");
  // ---- the graph file, its streams, each source and graph instance adjusted to each other ----
  const yaml::GraphDesc file_desc = yaml::parse_file(opt.graph);
  if (opt.no_plugins) refuse_code_loading(file_desc);
  const yaml::BuildOptions first_build = build_options(opt);
  bool several = false;
  const std::vector<StreamInput> inputs = stream_inputs(opt, file_desc, first_build, several);
  {
    yaml::GraphDesc probe = file_desc;
    (void)input_parameter(probe);  // a graph without 'input' is refused before any source opens
  }
  const fs::path base_dir =
      opt.output_dir.empty() ? fs::path("out") / path_safe(file_desc.name) : fs::path(opt.output_dir);
  std::vector<std::unique_ptr<Stream>> streams;
  // The streams' graphs share the first built graph's context (its targets, modules, NPU memory): one
  // model load serves every stream, and frames of all streams queue at the same targets.
  yaml::LoadedGraph* context_owner = nullptr;
  // Destroys the graphs in reverse order, so the one owning the context goes last.
  struct ReleaseInReverse {
    std::vector<std::unique_ptr<Stream>>& streams;
    ~ReleaseInReverse() {
      while (!streams.empty()) streams.pop_back();
    }
  } release_in_reverse{streams};
  for (const StreamInput& in : inputs) {
    auto s = std::make_unique<Stream>();
    s->input = in;
    s->out_dir = several ? base_dir / in.name : base_dir;
    s->desc = file_desc;
    yaml::GraphParameterDesc& input_desc = input_parameter(s->desc);
    try {
      s->source = io::Source::open(in.spec, source_options(opt, data_of(s->desc, input_desc)));
    } catch (const std::exception& e) {
      if (!several) {
        std::cerr << "visiongraph run: " << e.what() << '\n';
        return 1;
      }
      // One camera that cannot be opened does not keep the others from running.
      std::cerr << "visiongraph run: stream '" << in.name << "': " << e.what() << '\n';
      s->start_error = e.what();
      s->outcome = e.what();
      s->exit_code = 1;
      streams.push_back(std::move(s));
      continue;
    }
    s->info = s->source->info();
    s->images = s->info.kind == io::SourceKind::image || s->info.kind == io::SourceKind::image_dir;
    if (s->images && !opt.serve_rtsp.empty())
      throw UsageError("--serve-rtsp serves the annotated video of a video, stream or camera input; '" + in.spec +
                       "' is " + (s->info.kind == io::SourceKind::image ? "an image" : "a folder of images") +
                       " (its annotated images are written as PNG files)");
    adapt_to_source(s->desc, input_desc, s->info, s->info.live || opt.realtime);
    yaml::BuildOptions build = first_build;
    if (context_owner != nullptr) {
      build.context = &context_owner->context();
      build.prepare_context = nullptr;  // done once, for the shared context
      s->desc.targets.clear();
    }
    s->loaded = yaml::build(s->desc, build);
    s->params = check_params(*s->loaded, s->desc, opt.write);
    if (context_owner == nullptr) {
      context_owner = s->loaded.get();
      // What each node chose at verify where it had a choice (RGA or the CPU, ...), so the log says it.
      for (const std::string& line : service::engine_report(s->loaded->graph(), s->loaded->context()))
        std::cerr << "visiongraph run: " << line << '\n';
    }
    std::error_code ec;
    fs::create_directories(s->out_dir, ec);
    if (ec) {
      std::cerr << "visiongraph run: cannot create output directory '" << s->out_dir.string() << "': " << ec.message() << '\n';
      return 1;
    }
    streams.push_back(std::move(s));
  }
  if (context_owner == nullptr) {
    std::cerr << "visiongraph run: no stream could be opened\n";
    std::error_code ec;
    fs::create_directories(base_dir, ec);
    if (!ec) write_streams_json(base_dir, streams);
    return 1;
  }
  Context& ctx = context_owner->context();

  // ---- the run's figures and endpoints (any thread) ----
  const std::int64_t run_started_ns = now_ns();
  std::atomic<std::int64_t> resident_at_start{0};
  auto running = [&] {
    std::vector<Stream*> out;
    for (auto& s : streams)
      if (s->run) out.push_back(s.get());
    return out;
  };
  auto figures = [&] {
    std::vector<service::StreamFigures> out;
    for (Stream* s : running()) out.push_back({s->loaded->graph().stats(), s->run->counters(run_started_ns, resident_at_start.load())});
    return out;
  };
  // One answer for every control transport: the kernels' commands, `help`, and `stats` (JSON). With
  // several streams a line starting with a stream's name goes to that stream; any other command goes to
  // every stream (a threshold set for all cameras), and `stats` lists them all.
  auto answer = [&](std::string_view line) -> std::string {
    std::string_view request = trimmed(line);
    std::vector<Stream*> live = running();
    if (live.empty()) return "error no stream is running";
    if (!several) {
      Stream& s = *live.front();
      if (request == "stats")
        return "ok " + service::stats_json(s.loaded->graph().stats(), s.run->counters(run_started_ns, resident_at_start.load()));
      return service::answer_control_request(s.loaded->graph(), ctx, line);
    }
    const std::string_view first = request.substr(0, request.find(' '));
    for (Stream* s : live) {
      if (first != s->input.name) continue;
      std::string_view rest = trimmed(request.substr(first.size()));
      if (rest == "stats")
        return "ok " + service::stats_json(s->loaded->graph().stats(), s->run->counters(run_started_ns, resident_at_start.load()));
      return service::answer_control_request(s->loaded->graph(), ctx, rest);
    }
    if (request == "stats") {
      std::string json = "{\"streams\":[";
      bool first_stream = true;
      for (const service::StreamFigures& f : figures()) {
        json += (first_stream ? "" : ",") + service::stats_json(f.graph, f.run);
        first_stream = false;
      }
      return "ok " + json + "]}";
    }
    if (request == "help")  // the same nodes and commands in every stream
      return service::answer_control_request(live.front()->loaded->graph(), ctx, line);
    if (request == "streams") {
      std::string names;
      for (Stream* s : live) names += (names.empty() ? "" : ", ") + s->input.name;
      return "ok streams: " + names;
    }
    std::string replies;
    bool ok = true;
    for (Stream* s : live) {
      const std::string reply = service::answer_control_request(s->loaded->graph(), ctx, line);
      ok = ok && reply.rfind("ok", 0) == 0;
      replies += (replies.empty() ? "" : "; ") + s->input.name + ": " + reply;
    }
    return (ok ? "ok " : "error ") + replies;
  };
  std::vector<std::unique_ptr<service::ControlServer>> sockets;
  std::vector<std::unique_ptr<mqtt::MqttCommandChannel>> channels;
  for (const std::string& spec : opt.control) {
    if (is_mqtt_url(spec)) {
      mqtt::MqttOptions o = opt.mqtt;
      if (!o.client_id.empty()) o.client_id += "-control" + (channels.empty() ? std::string() : std::to_string(channels.size()));
      channels.push_back(std::make_unique<mqtt::MqttCommandChannel>(spec, answer, o));
    } else {
      sockets.push_back(std::make_unique<service::ControlServer>(answer));
      sockets.back()->start(spec);
    }
  }
  // --metrics [ADDRESS:]PORT: the same figures for Prometheus (127.0.0.1 unless an address is given).
  std::unique_ptr<service::MetricsServer> metrics;
  if (!opt.metrics.empty()) {
    metrics = std::make_unique<service::MetricsServer>([&] { return service::prometheus_text(figures()); });
    std::string address = "127.0.0.1", port = opt.metrics;
    if (const auto colon = port.rfind(':'); colon != std::string::npos) {
      address = port.substr(0, colon);
      port = port.substr(colon + 1);
    }
    metrics->start(address, static_cast<std::uint16_t>(std::stoul(port)));
    std::cerr << "visiongraph run: metrics at " << metrics->url() << std::endl;
  }
  // Results out: MQTT publishers (never blocking the run; one per stream, topic TOPIC/STREAM) and
  // standard output.
  bool publish_stdout = false;
  for (auto& s : streams) {
    if (!s->loaded) continue;
    for (const std::string& spec : opt.publish) {
      if (spec == "-") {
        s->publish_stdout = publish_stdout = true;
        continue;
      }
      mqtt::MqttOptions o = opt.mqtt;
      if (!o.client_id.empty()) {
        if (several) o.client_id += "-" + s->input.name;
        if (!s->publishers.empty()) o.client_id += "-" + std::to_string(s->publishers.size());
      }
      s->publishers.push_back(std::make_unique<mqtt::MqttPublisher>(stream_topic(spec, s->input.name), o));
    }
  }
  // With --publish -, standard output carries only the JSON lines: the report goes to standard error.
  std::ostream& report = publish_stdout ? std::cerr : std::cout;

  // ---- outputs (only now are the previous run's replaced: a run that fails to start leaves them) ----
  std::int64_t total = 0;
  std::uint16_t rtsp_port_offset = 0;
  for (auto& s : streams) {
    if (!s->loaded) continue;
    std::vector<mqtt::MqttPublisher*> publisher_ptrs;
    for (auto& p : s->publishers) publisher_ptrs.push_back(p.get());
    // --serve-rtsp PORT with several streams: stream i at PORT + i, path /STREAM.
    std::string serve_rtsp = opt.serve_rtsp;
    if (several && !serve_rtsp.empty()) {
      std::string address, port = serve_rtsp;
      if (const auto colon = port.rfind(':'); colon != std::string::npos) {
        address = port.substr(0, colon + 1);
        port = port.substr(colon + 1);
      }
      const unsigned long first_port = std::stoul(port);
      serve_rtsp = address + std::to_string(first_port == 0 ? 0 : first_port + rtsp_port_offset++);
    }
    s->outputs = std::make_unique<RunOutputs>(s->loaded->graph(), s->params, s->out_dir, s->images, s->info.fps,
                                              publisher_ptrs, s->publish_stdout, serve_rtsp, opt.h264_encoder,
                                              several ? "/" + s->input.name : std::string("/annotated"));
    s->connection_log = std::make_unique<ConnectionLog>(*s->source, publisher_ptrs);
    const std::int64_t length = s->info.length;
    const std::int64_t n = opt.frames >= 0 && length >= 0 ? std::min<std::int64_t>(opt.frames, length)
                                                          : (opt.frames >= 0 ? opt.frames : length);
    total = (total < 0 || n < 0) ? -1 : total + n;
  }
  Progress progress(opt.progress && ::isatty(STDERR_FILENO), total);
  const std::int64_t base_ns = now_ns();
  for (auto& s : streams)
    if (s->loaded)
      s->run = std::make_unique<StreamRun>(s->input.name, s->loaded->graph(), s->params, *s->source, *s->outputs, opt,
                                           progress, base_ns);
  std::atomic<bool> any_stream_stopping{false};
  std::vector<StopWatchdog::Watched> watched;
  for (Stream* s : running()) watched.push_back({&s->loaded->graph(), s->outputs.get(), s->out_dir / "trace.json"});
  StopWatchdog watchdog(std::move(watched), any_stream_stopping, opt, [&] {
    for (Stream* s : running()) s->connection_log->poll();
  });
  if (opt.handle_signals) stop::install_signal_handlers();

  // ---- streaming: every stream's threads; this thread watches for the stop ----
  for (Stream* s : running()) s->run->start();
  resident_at_start.store(service::resident_memory_bytes());
  // Frames in flight finish. After a stop request they get at most --drain-timeout; a second request
  // abandons them at once. Either way the outputs below are written.
  std::optional<std::chrono::steady_clock::time_point> drain_until;
  bool abandoned = false;
  for (;;) {
    bool all_done = true, stopping = false;
    for (Stream* s : running()) {
      all_done = all_done && s->run->done();
      stopping = stopping || s->run->stopping();
    }
    if (stopping) any_stream_stopping.store(true);
    if (all_done) break;
    if (stop::interrupted() && !drain_until) drain_until = std::chrono::steady_clock::now() + opt.drain_timeout;
    const bool give_up = stop::requests() >= 2 || (drain_until && std::chrono::steady_clock::now() > *drain_until);
    if (give_up && !abandoned) {
      std::cerr << "visiongraph run: abandoning the frames in flight\n";
      for (Stream* s : running()) s->run->abandon();
      abandoned = true;
    }
    std::this_thread::sleep_for(20ms);
  }
  for (Stream* s : running()) s->run->finish();
  for (auto& socket : sockets) socket->stop();
  if (metrics) metrics->stop();
  for (auto& channel : channels) channel->close();
  progress.finish();

  // ---- outputs closed, reports, exit status ----
  const std::string memory_exceeded = watchdog.memory_exceeded();
  std::vector<std::vector<std::string>> output_errors;
  for (Stream* s : running()) {
    std::vector<std::string> errors = s->outputs->close();
    if (std::string e = write_trace(s->loaded->graph(), s->out_dir); !e.empty()) errors.push_back(std::move(e));
    report_stream(report, *s, *s->run);
    output_errors.push_back(std::move(errors));
  }
  watchdog.stop_polling();  // the connection logs read the sources, which go now
  std::size_t k = 0;
  for (Stream* s : running()) s->exit_code = stream_exit_code(opt, *s, output_errors[k++], memory_exceeded);
  if (!several) return streams.front()->exit_code;

  std::size_t failed = 0;
  std::string failed_names;
  for (const auto& s : streams) {
    if (s->exit_code == 0) continue;
    ++failed;
    failed_names += (failed_names.empty() ? "" : ", ") + s->input.name;
  }
  write_streams_json(base_dir, streams);
  if (failed == 0) return 0;
  std::cerr << "visiongraph run: " << failed << " of " << streams.size() << " streams failed: " << failed_names
            << " (each one's outcome: " << (base_dir / "streams.json").string() << ")\n";
  return failed == streams.size() ? 1 : kSomeStreamsFailed;
}

}  // namespace vg::runner
