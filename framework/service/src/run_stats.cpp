#include "visiongraph/service/run_stats.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

namespace vg::service {

namespace {

double ms(std::int64_t ns) { return std::round(static_cast<double>(ns) / 1e3) / 1e3; }
double seconds(std::int64_t ns) { return static_cast<double>(ns) / 1e9; }

double fps_of(const GraphStats& g) {
  return g.wall_seconds > 0 ? static_cast<double>(g.frames_completed) / g.wall_seconds : 0.0;
}

// Prometheus label values: backslash, double quote and newline escaped.
std::string label(const std::string& value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

// A number as Prometheus reads it (no locale, NaN and infinities spelled as it spells them).
std::string number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char text[40];
  std::snprintf(text, sizeof text, "%.10g", v);
  return text;
}

class Exposition {
 public:
  void family(const char* name, const char* type, const char* help) {
    out_ << "# HELP " << name << ' ' << help << '\n' << "# TYPE " << name << ' ' << type << '\n';
  }
  void sample(const char* name, const std::string& labels, double value) {
    out_ << name;
    if (!labels.empty()) out_ << '{' << labels << '}';
    out_ << ' ' << number(value) << '\n';
  }
  std::string text() const { return out_.str(); }

 private:
  std::ostringstream out_;
};

}  // namespace

std::int64_t resident_memory_bytes() noexcept {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  long long pages_total = 0, pages_resident = 0;
  const int got = std::fscanf(f, "%lld %lld", &pages_total, &pages_resident);
  std::fclose(f);
  if (got != 2) return 0;
  return static_cast<std::int64_t>(pages_resident) * static_cast<std::int64_t>(::sysconf(_SC_PAGESIZE));
}

namespace {
nlohmann::ordered_json stage_times_object(const StageTimes& t) {
  const auto since = [&](std::int64_t ns) { return ns > 0 ? std::round(static_cast<double>(ns - t.origin_ns) / 1e3) / 1e3 : 0.0; };
  nlohmann::ordered_json j;
  j["frame"] = t.sample.sequence;
  j["from"] = t.from_capture ? "capture" : "first_stage";
  nlohmann::ordered_json stages = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < t.sample.count; ++i) {
    const StageSample& s = t.sample.stages[i];
    nlohmann::ordered_json stage;
    stage["node"] = s.name != nullptr ? s.name : "";
    stage["start_ms"] = since(s.start_ns);
    stage["ms"] = std::round(static_cast<double>(s.end_ns - s.start_ns) / 1e3) / 1e3;
    stage["status"] = std::string(to_string(s.status));
    if (s.code != 0) stage["code"] = s.code;
    stages.push_back(std::move(stage));
  }
  j["stages"] = std::move(stages);
  if (t.done_ns > 0) j["done_ms"] = since(t.done_ns);
  if (t.written_ns > 0) j["written_ms"] = since(t.written_ns);
  j["failed_mask"] = t.sample.failed_mask;
  j["runtime_code"] = t.sample.runtime_code;
  return j;
}
}  // namespace

std::string stage_times_json(const StageTimes& times) { return stage_times_object(times).dump(); }

std::string stats_json(const GraphStats& g, const RunCounters& r) {
  nlohmann::ordered_json j;
  j["graph"] = g.name;
  if (!r.stream.empty()) j["stream"] = r.stream;
  j["uptime_s"] = std::round(r.uptime_seconds * 1e3) / 1e3;
  j["fps"] = std::round(fps_of(g) * 100) / 100;
  j["frames"] = {{"read", r.frames_read},          {"completed", g.frames_completed}, {"failed", r.frames_failed},
                 {"dropped", r.frames_dropped},    {"aborted", g.frames_aborted},     {"in_flight", g.frames_in_flight},
                 {"resolved", r.frames_resolved}};
  j["latency_ms"] = {{"p50", ms(g.latency_p50_ns)}, {"p99", ms(g.latency_p99_ns)}, {"max", ms(g.latency_max_ns)}};
  j["capture_latency_ms"] = {{"p50", ms(g.capture_latency_p50_ns)},
                             {"p99", ms(g.capture_latency_p99_ns)},
                             {"max", ms(g.capture_latency_max_ns)}};
  j["source"] = {{"spec", r.source}, {"live", r.live}, {"dropped", r.source_dropped}, {"reconnects", r.reconnects}};
  j["memory"] = {{"resident_bytes", r.resident_bytes},
                 {"growth_bytes", r.resident_bytes_start > 0 ? r.resident_bytes - r.resident_bytes_start : 0}};
  nlohmann::ordered_json nodes = nlohmann::ordered_json::array();
  for (const NodeStats& n : g.nodes) {
    nlohmann::ordered_json node;
    node["name"] = n.name;
    node["kernel"] = n.kernel;
    node["target"] = n.target;
    if (!n.replica_of.empty()) node["replica_of"] = n.replica_of;
    node["executions"] = n.executions;
    node["failures"] = n.failures;
    node["avg_ms"] = std::round(n.avg_ns / 1e3) / 1e3;
    node["p50_ms"] = ms(n.p50_ns);
    node["p99_ms"] = ms(n.p99_ns);
    node["max_ms"] = ms(n.max_ns);
    node["deadline_ms"] = ms(n.deadline_ns);
    node["deadline_misses"] = n.deadline_misses;
    node["stuck"] = n.stuck;
    node["running_ms"] = ms(n.running_ns);
    nodes.push_back(std::move(node));
  }
  j["nodes"] = std::move(nodes);
  nlohmann::ordered_json queues = nlohmann::ordered_json::array();
  for (const QueueStats& q : g.queues)
    queues.push_back({{"name", q.name}, {"input", q.is_input}, {"waiting", q.waiting}, {"capacity", q.capacity},
                      {"done", q.done}});
  j["queues"] = std::move(queues);
  if (r.last_frame) j["last_frame"] = stage_times_object(*r.last_frame);
  return j.dump();
}

std::string prometheus_text(const GraphStats& g, const RunCounters& r) { return prometheus_text({StreamFigures{g, r}}); }

std::string prometheus_text(const std::vector<StreamFigures>& streams) {
  Exposition e;
  // Each family once (HELP, TYPE), then its series for every stream.
  auto each = [&](auto&& emit) {
    for (const StreamFigures& s : streams) {
      std::string base = "graph=\"" + label(s.graph.name) + "\"";
      if (!s.run.stream.empty()) base += ",stream=\"" + label(s.run.stream) + "\"";
      emit(s.graph, s.run, base);
    }
  };
  e.family("visiongraph_frames_total", "counter", "Frames by outcome since the run started.");
  each([&](const GraphStats& g, const RunCounters& r, const std::string& graph) {
    e.sample("visiongraph_frames_total", graph + ",outcome=\"read\"", static_cast<double>(r.frames_read));
    e.sample("visiongraph_frames_total", graph + ",outcome=\"completed\"", static_cast<double>(g.frames_completed));
    e.sample("visiongraph_frames_total", graph + ",outcome=\"failed\"", static_cast<double>(r.frames_failed));
    e.sample("visiongraph_frames_total", graph + ",outcome=\"dropped\"", static_cast<double>(r.frames_dropped));
    e.sample("visiongraph_frames_total", graph + ",outcome=\"aborted\"", static_cast<double>(g.frames_aborted));
  });
  e.family("visiongraph_frames_in_flight", "gauge", "Frames inside the graph now.");
  each([&](const GraphStats& g, const RunCounters&, const std::string& graph) {
    e.sample("visiongraph_frames_in_flight", graph, g.frames_in_flight);
  });
  e.family("visiongraph_frames_per_second", "gauge", "Completed frames per second since the first frame started.");
  each([&](const GraphStats& g, const RunCounters&, const std::string& graph) {
    e.sample("visiongraph_frames_per_second", graph, fps_of(g));
  });
  e.family("visiongraph_frame_latency_seconds", "gauge",
           "Enqueue to completion of recent frames, by statistic (p50, p99, max).");
  each([&](const GraphStats& g, const RunCounters&, const std::string& graph) {
    e.sample("visiongraph_frame_latency_seconds", graph + ",stat=\"p50\"", seconds(g.latency_p50_ns));
    e.sample("visiongraph_frame_latency_seconds", graph + ",stat=\"p99\"", seconds(g.latency_p99_ns));
    e.sample("visiongraph_frame_latency_seconds", graph + ",stat=\"max\"", seconds(g.latency_max_ns));
  });
  e.family("visiongraph_capture_latency_seconds", "gauge",
           "Capture to results of recent frames, by statistic (p50, p99, max; 0 when the source gives no capture time).");
  each([&](const GraphStats& g, const RunCounters&, const std::string& graph) {
    e.sample("visiongraph_capture_latency_seconds", graph + ",stat=\"p50\"", seconds(g.capture_latency_p50_ns));
    e.sample("visiongraph_capture_latency_seconds", graph + ",stat=\"p99\"", seconds(g.capture_latency_p99_ns));
    e.sample("visiongraph_capture_latency_seconds", graph + ",stat=\"max\"", seconds(g.capture_latency_max_ns));
  });
  auto source = [](const RunCounters& r, const std::string& graph) { return graph + ",source=\"" + label(r.source) + "\""; };
  e.family("visiongraph_source_dropped_total", "counter", "Frames the source dropped before they reached the graph.");
  each([&](const GraphStats&, const RunCounters& r, const std::string& graph) {
    e.sample("visiongraph_source_dropped_total", source(r, graph), static_cast<double>(r.source_dropped));
  });
  e.family("visiongraph_source_reconnects_total", "counter", "Times the live source reconnected.");
  each([&](const GraphStats&, const RunCounters& r, const std::string& graph) {
    e.sample("visiongraph_source_reconnects_total", source(r, graph), static_cast<double>(r.reconnects));
  });
  e.family("visiongraph_uptime_seconds", "gauge", "Seconds since the run started.");
  each([&](const GraphStats&, const RunCounters& r, const std::string& graph) {
    e.sample("visiongraph_uptime_seconds", graph, r.uptime_seconds);
  });
  e.family("visiongraph_resident_memory_bytes", "gauge", "Resident memory of the process.");
  each([&](const GraphStats&, const RunCounters& r, const std::string& graph) {
    e.sample("visiongraph_resident_memory_bytes", graph, static_cast<double>(r.resident_bytes));
  });
  e.family("visiongraph_resident_memory_growth_bytes", "gauge", "Resident memory now less when the graph started.");
  each([&](const GraphStats&, const RunCounters& r, const std::string& graph) {
    e.sample("visiongraph_resident_memory_growth_bytes", graph,
             static_cast<double>(r.resident_bytes_start > 0 ? r.resident_bytes - r.resident_bytes_start : 0));
  });

  auto node_labels = [](const NodeStats& n, const std::string& graph) {
    return graph + ",node=\"" + label(n.name) + "\",kernel=\"" + label(n.kernel) + "\",target=\"" + label(n.target) + "\"";
  };
  e.family("visiongraph_node_executions_total", "counter", "Executions of each node (each replica on its own line).");
  each([&](const GraphStats& g, const RunCounters&, const std::string& graph) {
    for (const NodeStats& n : g.nodes) e.sample("visiongraph_node_executions_total", node_labels(n, graph), static_cast<double>(n.executions));
  });
  e.family("visiongraph_node_failures_total", "counter", "Executions of each node that failed.");
  each([&](const GraphStats& g, const RunCounters&, const std::string& graph) {
    for (const NodeStats& n : g.nodes) e.sample("visiongraph_node_failures_total", node_labels(n, graph), static_cast<double>(n.failures));
  });
  e.family("visiongraph_node_deadline_misses_total", "counter", "Calls of each node that ran past its deadline.");
  each([&](const GraphStats& g, const RunCounters&, const std::string& graph) {
    for (const NodeStats& n : g.nodes)
      e.sample("visiongraph_node_deadline_misses_total", node_labels(n, graph), static_cast<double>(n.deadline_misses));
  });
  e.family("visiongraph_node_execution_seconds", "gauge", "Execution time of recent calls of each node, by statistic (p50, p99, max).");
  each([&](const GraphStats& g, const RunCounters&, const std::string& graph) {
    for (const NodeStats& n : g.nodes) {
      e.sample("visiongraph_node_execution_seconds", node_labels(n, graph) + ",stat=\"p50\"", seconds(n.p50_ns));
      e.sample("visiongraph_node_execution_seconds", node_labels(n, graph) + ",stat=\"p99\"", seconds(n.p99_ns));
      e.sample("visiongraph_node_execution_seconds", node_labels(n, graph) + ",stat=\"max\"", seconds(n.max_ns));
    }
  });
  e.family("visiongraph_node_stuck", "gauge", "1 when a call of the node was given up on (its target is faulted).");
  each([&](const GraphStats& g, const RunCounters&, const std::string& graph) {
    for (const NodeStats& n : g.nodes) e.sample("visiongraph_node_stuck", node_labels(n, graph), n.stuck ? 1 : 0);
  });
  return e.text();
}

}  // namespace vg::service
