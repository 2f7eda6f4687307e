// Telemetry snapshots and exports (reports, Chrome trace, Graphviz DOT). These allocate: off the hot path.

#include <algorithm>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "graph/graph_core.hpp"
#include "visiongraph/core/clock.hpp"

namespace vg {
namespace detail {

namespace {
std::int64_t percentile(std::vector<std::int64_t> v, double q) {
  if (v.empty()) return 0;
  const std::size_t k = std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

const char* kTargetColours[] = {"#8dd3c7", "#fdb462", "#bebada", "#fb8072", "#80b1d3", "#b3de69", "#fccde5", "#ffffb3"};

std::string dot_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string html_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

/// DataMeta::describe() without the layout when it says nothing ("tensor f32 [1,512,1]").
std::string compact_describe(const DataMeta& meta) {
  std::string text = meta.describe();
  if (const auto at = text.find(" unspecified"); at != std::string::npos) text.erase(at, 12);
  return text;
}
}  // namespace

namespace {
// One node state's executions still in its ring, oldest first.
std::vector<ExecutionRecord> ring_records(const NodeState& n) {
  std::vector<ExecutionRecord> out;
  if (!n.ring) return out;
  const std::uint64_t total = n.executions.load(std::memory_order_acquire);
  const std::uint64_t kept = std::min<std::uint64_t>(total, n.ring_capacity);
  for (std::uint64_t k = total - kept; k < total; ++k) {
    const ExecSlot& s = n.ring[k % n.ring_capacity];
    out.push_back({s.frame.load(std::memory_order_relaxed), s.start.load(std::memory_order_relaxed),
                   s.end.load(std::memory_order_relaxed), s.status.load(std::memory_order_relaxed)});
  }
  return out;
}

NodeStats state_stats(const NodeState& n, const std::string& name) {
  NodeStats s;
  s.name = name;
  s.kernel = n.kernel_name;
  s.target = n.target_name;
  s.executions = n.executions.load(std::memory_order_relaxed);
  s.failures = n.failures.load(std::memory_order_relaxed);
  s.min_ns = n.min_ns.load(std::memory_order_relaxed);
  s.max_ns = n.max_ns.load(std::memory_order_relaxed);
  s.avg_ns = s.executions ? static_cast<double>(n.sum_ns.load(std::memory_order_relaxed)) / static_cast<double>(s.executions) : 0;
  std::vector<std::int64_t> durations;
  for (const auto& r : ring_records(n)) durations.push_back(r.end_ns - r.start_ns);
  s.p50_ns = percentile(durations, 0.50);
  s.p99_ns = percentile(durations, 0.99);
  s.conversions = n.conversions.load(std::memory_order_relaxed);
  s.deadline_ns = n.deadline_ns;
  s.deadline_misses = n.deadline_misses.load(std::memory_order_relaxed);
  s.stuck = n.stuck.load(std::memory_order_acquire);
  const std::int64_t since = s.stuck ? n.stuck_since.load(std::memory_order_acquire)
                                     : n.running_since.load(std::memory_order_acquire);
  s.running_ns = since != 0 ? now_ns() - since : 0;
  return s;
}
}  // namespace

std::vector<ExecutionRecord> GraphCore::executions(std::uint32_t node_index) const {
  if (node_index >= num_user_nodes_) return {};
  const NodeState& n = *nodes_[node_index];
  if (n.replicas.empty()) return ring_records(n);
  std::vector<ExecutionRecord> out;
  for (auto r : n.replicas) {
    auto part = ring_records(*nodes_[r]);
    out.insert(out.end(), part.begin(), part.end());
  }
  std::sort(out.begin(), out.end(), [](const ExecutionRecord& a, const ExecutionRecord& b) { return a.start_ns < b.start_ns; });
  return out;
}

Status GraphCore::frame_sample(std::uint64_t sequence, FrameSample& out) const noexcept {
  out.sequence = sequence;
  out.count = 0;
  out.failed_mask = 0;
  out.runtime_code = 0;
  if (!verified_) return Status::not_verified;
  // A frame handed back was recorded by each node before it finished, so its record is among the node's
  // newest: look at most this far back (frames in flight at once are far fewer).
  constexpr std::uint64_t kLookBack = 512;
  for (const auto& state : nodes_) {
    const NodeState& n = *state;
    if (!n.ring) continue;
    const std::uint64_t total = n.executions.load(std::memory_order_acquire);
    const std::uint64_t window = std::min<std::uint64_t>({total, n.ring_capacity, kLookBack});
    for (std::uint64_t back = 1; back <= window; ++back) {
      const ExecSlot& slot = n.ring[(total - back) % n.ring_capacity];
      if (slot.frame.load(std::memory_order_relaxed) != sequence) continue;
      StageSample stage;
      stage.name = n.label.c_str();
      stage.start_ns = slot.start.load(std::memory_order_relaxed);
      stage.end_ns = slot.end.load(std::memory_order_relaxed);
      stage.status = static_cast<Status>(slot.status.load(std::memory_order_relaxed));
      stage.code = slot.code.load(std::memory_order_relaxed);
      if (slot.frame.load(std::memory_order_relaxed) != sequence) break;  // overwritten meanwhile
      // Insert by start time (a handful of stages: insertion keeps it allocation-free).
      std::size_t at = std::min(out.count, kMaxSampleStages);
      while (at > 0 && out.stages[at - 1].start_ns > stage.start_ns) {
        if (at < kMaxSampleStages) out.stages[at] = out.stages[at - 1];
        --at;
      }
      if (at < kMaxSampleStages) {
        out.stages[at] = stage;
        out.count = std::min(out.count + 1, kMaxSampleStages);
      }
      break;
    }
  }
  for (std::size_t i = 0; i < out.count; ++i) {
    if (out.stages[i].status == Status::ok) continue;
    out.failed_mask |= std::uint64_t{1} << i;
    if (out.runtime_code == 0) out.runtime_code = out.stages[i].code;
  }
  return out.count > 0 ? Status::ok : Status::no_data;
}

GraphStats GraphCore::stats() const {
  GraphStats g;
  g.name = name_;
  {
    std::lock_guard lock(mu_);
    g.frames_in = frames_in_;
    g.frames_started = frames_started_;
    g.frames_completed = frames_completed_;
    g.frames_failed = frames_failed_;
    g.frames_dropped = frames_dropped_;
    g.frames_rejected = frames_rejected_;
    g.frames_aborted = frames_aborted_;
    g.pipeline_depth = static_cast<std::uint32_t>(depth_);
    g.frames_in_flight = in_flight_;
    const std::size_t kept = std::min(latency_count_, latency_ring_.size());
    std::vector<std::int64_t> lat(latency_ring_.begin(), latency_ring_.begin() + static_cast<std::ptrdiff_t>(kept));
    g.latency_p50_ns = percentile(lat, 0.50);
    g.latency_p99_ns = percentile(lat, 0.99);
    g.latency_max_ns = lat.empty() ? 0 : *std::max_element(lat.begin(), lat.end());
    const std::size_t kept_capture = std::min(capture_latency_count_, capture_latency_ring_.size());
    std::vector<std::int64_t> cap(capture_latency_ring_.begin(),
                                  capture_latency_ring_.begin() + static_cast<std::ptrdiff_t>(kept_capture));
    g.capture_latency_p50_ns = percentile(cap, 0.50);
    g.capture_latency_p99_ns = percentile(cap, 0.99);
    g.capture_latency_max_ns = cap.empty() ? 0 : *std::max_element(cap.begin(), cap.end());
    for (const auto& gp : params_)
      g.queues.push_back({data_[gp->data]->name, gp->is_input, static_cast<std::uint32_t>(gp->waiting.size()),
                          static_cast<std::uint32_t>(gp->waiting.capacity()), static_cast<std::uint32_t>(gp->done.size()),
                          gp->conversions.load(std::memory_order_relaxed)});
    if (last_complete_ns_ > first_start_ns_) g.wall_seconds = static_cast<double>(last_complete_ns_ - first_start_ns_) * 1e-9;
  }
  for (std::uint32_t ni : order_) {
    const NodeState& n = *nodes_[ni];
    if (n.replicas.empty()) {
      g.nodes.push_back(state_stats(n, n.name));
      continue;
    }
    // A replicated node: first the node as a whole, then each replica ("name[target]").
    std::vector<NodeStats> parts;
    for (auto r : n.replicas) {
      parts.push_back(state_stats(*nodes_[r], nodes_[r]->label));
      parts.back().replica_of = n.name;
    }
    NodeStats whole = parts.front();
    whole.name = n.name;
    whole.replica_of.clear();
    double sum_ns = parts.front().avg_ns * static_cast<double>(parts.front().executions);
    for (std::size_t r = 1; r < parts.size(); ++r) {
      const NodeStats& p = parts[r];
      whole.target += "," + p.target;
      if (p.executions && (whole.executions == 0 || p.min_ns < whole.min_ns)) whole.min_ns = p.min_ns;
      whole.max_ns = std::max(whole.max_ns, p.max_ns);
      whole.executions += p.executions;
      whole.failures += p.failures;
      sum_ns += p.avg_ns * static_cast<double>(p.executions);
      whole.conversions += p.conversions;
      whole.deadline_misses += p.deadline_misses;
      whole.stuck = whole.stuck || p.stuck;
      whole.running_ns = std::max(whole.running_ns, p.running_ns);
    }
    whole.avg_ns = whole.executions ? sum_ns / static_cast<double>(whole.executions) : 0;
    std::vector<std::int64_t> durations;
    for (const auto& r : executions(ni)) durations.push_back(r.end_ns - r.start_ns);
    whole.p50_ns = percentile(durations, 0.50);
    whole.p99_ns = percentile(durations, 0.99);
    g.nodes.push_back(std::move(whole));
    for (auto& p : parts) g.nodes.push_back(std::move(p));
  }
  return g;
}

void GraphCore::reset_stats() noexcept {
  std::lock_guard lock(mu_);
  frames_in_ = frames_started_ = frames_completed_ = frames_failed_ = 0;
  frames_dropped_ = frames_rejected_ = frames_aborted_ = 0;
  latency_count_ = 0;
  capture_latency_count_ = 0;
  first_start_ns_ = last_complete_ns_ = 0;
  for (auto& gp : params_) gp->conversions.store(0, std::memory_order_relaxed);
  // Node counters are owned by target threads; only reset them while idle.
  if (in_flight_ == 0)
    for (auto& np : nodes_) {
      np->executions.store(0);
      np->failures.store(0);
      np->sum_ns.store(0);
      np->min_ns.store(0);
      np->max_ns.store(0);
      np->conversions.store(0);
    }
}

RunError GraphCore::to_run_error(const ErrorRecord& r) const {
  RunError e;
  e.status = r.status;
  e.frame = r.frame;
  if (r.node < nodes_.size()) {
    const NodeState& n = *nodes_[r.node];
    e.node = n.name;
    e.kernel = n.kernel_name;
    e.target = n.target_name;
  }
  e.message = r.message.data();
  return e;
}

RunError GraphCore::last_error() const {
  std::lock_guard lock(err_mu_);
  if (err_next_ == 0) return RunError{};
  return to_run_error(errors_[(err_next_ - 1) % kErrorRing]);
}

RunError GraphCore::frame_error(std::uint64_t frame) const {
  std::lock_guard lock(err_mu_);
  // Oldest first: a frame's first failure is its cause (nodes after it may fail for want of its output).
  const std::uint64_t kept = std::min<std::uint64_t>(err_next_, kErrorRing);
  for (std::uint64_t k = kept; k >= 1; --k) {
    const ErrorRecord& r = errors_[(err_next_ - k) % kErrorRing];
    if (r.frame == frame) return to_run_error(r);
  }
  return RunError{};
}

void GraphCore::write_trace(std::ostream& out) const {
  nlohmann::json events = nlohmann::json::array();
  std::int64_t origin = INT64_MAX;
  std::vector<std::vector<ExecutionRecord>> all(nodes_.size());
  for (std::uint32_t i = 0; i < nodes_.size(); ++i) {
    all[i] = ring_records(*nodes_[i]);  // each replica on its own target's track
    for (const auto& r : all[i]) origin = std::min(origin, r.start_ns);
  }
  if (origin == INT64_MAX) origin = 0;
  events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 1}, {"args", {{"name", "visiongraph: " + name_}}}});
  for (std::size_t t = 0; t < context_.num_targets(); ++t) {
    const auto& target = context_.target(t);
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", t + 1}, {"args", {{"name", target.name()}}}});
    events.push_back({{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", 1}, {"tid", t + 1}, {"args", {{"sort_index", t}}}});
  }
  for (std::uint32_t i = 0; i < nodes_.size(); ++i) {
    const NodeState& n = *nodes_[i];
    if (!n.target) continue;
    for (const auto& r : all[i]) {
      events.push_back({{"name", n.label},
                        {"cat", n.kernel_name},
                        {"ph", "X"},
                        {"pid", 1},
                        {"tid", n.target->index() + 1},
                        {"ts", static_cast<double>(r.start_ns - origin) / 1000.0},
                        {"dur", static_cast<double>(r.end_ns - r.start_ns) / 1000.0},
                        {"args", {{"frame", r.frame}, {"status", std::string(to_string(static_cast<Status>(r.status)))}}}});
      if (n.replica_count > 1) {  // the node as a whole: every replica's slices carry the node and replica
        events.back()["args"]["node"] = n.name;
        events.back()["args"]["replica"] = n.replica_index;
      }
    }
  }
  nlohmann::json doc = {{"traceEvents", events}, {"displayTimeUnit", "ms"}};
  out << doc.dump() << '\n';
}

void GraphCore::write_dot(std::ostream& out) const {
  std::map<std::string, std::string> colour;
  for (std::size_t t = 0; t < context_.num_targets(); ++t)
    colour[context_.target(t).name()] = kTargetColours[t % (sizeof(kTargetColours) / sizeof(*kTargetColours))];
  auto target_of = [](const NodeState& n) { return n.target_name.empty() ? n.requested_target : n.target_name; };
  // Top to bottom with compact labels: a pipeline stays about as wide as it is tall, and `size` scales a
  // larger drawing down to a 16:9 slide (13.33 x 7.5 in); left to right made one long, unreadable strip.
  out << "digraph \"" << dot_escape(name_) << "\" {\n"
      << "  graph [rankdir=TB, size=\"13.33,7.5\", nodesep=0.25, ranksep=0.3, fontname=\"Helvetica\", fontsize=12, "
         "labelloc=t, label=\""
      << dot_escape(name_) << "\"];\n"
      << "  node [fontname=\"Helvetica\", fontsize=10, margin=\"0.08,0.03\", height=0.3];\n"
      << "  edge [fontname=\"Helvetica\", fontsize=8, arrowsize=0.6];\n";
  bool any_graph_parameter = false;
  for (std::size_t i = 0; i < data_.size(); ++i) {
    const DataObject& d = *data_[i];
    std::string label = dot_escape(d.name) + "\\n" + dot_escape(compact_describe(d.meta));
    if (verified_) label += ", " + std::to_string(d.buffers.size()) + (d.buffers.size() == 1 ? " buffer" : " buffers");
    std::string flags, extra;
    if (d.graph_param != kInvalidIndex) {
      flags += params_[d.graph_param]->is_input ? " [graph input]" : " [graph output]";
      extra = ", peripheries=2, penwidth=2";
      any_graph_parameter = true;
    }
    if (d.is_static) flags += " [static]";
    if (d.device_only) flags += " [device memory]";
    if (!flags.empty()) label += "\\n" + flags.substr(1);
    out << "  d" << i << " [shape=box, style=filled, fillcolor=\"#f0f0f0\", color=\"#666666\", fontsize=9, label=\"" << label
        << "\"" << extra << "];\n";
  }
  for (std::size_t i = 0; i < num_user_nodes_; ++i) {
    const NodeState& n = *nodes_[i];
    const std::string target = target_of(n);
    const std::string fill = colour.count(target) ? colour[target] : "#ffffff";
    out << "  n" << i << " [shape=box, style=\"rounded,filled,bold\", fillcolor=\"" << fill << "\", label=\""
        << dot_escape(n.name) << "\\n" << dot_escape(n.kernel_name) << " @" << dot_escape(target.empty() ? "auto" : target)
        << "\"];\n";
    const auto& params = n.kernel->decl.params();
    for (std::size_t p = 0; p < params.size(); ++p) {
      if (n.bindings[p] == kInvalidIndex) continue;
      if (params[p].direction == Direction::input)
        out << "  d" << n.bindings[p] << " -> n" << i << " [label=\"" << dot_escape(params[p].name) << "\"];\n";
      else
        out << "  n" << i << " -> d" << n.bindings[p] << " [label=\"" << dot_escape(params[p].name) << "\"];\n";
    }
  }
  // Legend: the colour of each target the nodes use, in the context's order, then any other placement.
  std::vector<std::pair<std::string, std::string>> rows;  // swatch colour, text
  for (std::size_t t = 0; t < context_.num_targets(); ++t) {
    const Target& target = context_.target(t);
    const bool used = std::any_of(nodes_.begin(), nodes_.end(), [&](const auto& n) { return target_of(*n) == target.name(); });
    if (used) rows.emplace_back(colour[target.name()], target.name() + " (" + target.kind() + ")");
  }
  for (const auto& n : nodes_) {
    const std::string target = target_of(*n);
    const std::string text = target.empty() ? "auto (not verified yet)" : target + " (unknown target)";
    if (colour.count(target) == 0 && std::none_of(rows.begin(), rows.end(), [&](const auto& r) { return r.second == text; }))
      rows.emplace_back("#ffffff", text);
  }
  out << "  legend [shape=plaintext, fontsize=9, label=<<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" "
         "cellpadding=\"3\"><tr><td colspan=\"2\"><b>targets</b></td></tr>";
  for (const auto& [fill, text] : rows)
    out << "<tr><td bgcolor=\"" << fill << "\" width=\"16\"></td><td align=\"left\">" << html_escape(text) << "</td></tr>";
  if (any_graph_parameter) out << "<tr><td></td><td align=\"left\">double border: graph input/output</td></tr>";
  out << "</table>>];\n}\n";
}

}  // namespace detail

std::string Graph::report_text() const {
  const GraphStats s = stats();
  std::ostringstream out;
  out << "graph '" << s.name << "': " << s.frames_completed << " frames completed, " << s.frames_failed << " failed, "
      << s.frames_dropped << " dropped, " << s.frames_rejected << " rejected, " << s.frames_aborted
      << " aborted; pipeline depth " << s.pipeline_depth << "\n";
  if (s.frames_completed)
    out << std::fixed << std::setprecision(3) << "latency (enqueue -> done): p50 " << s.latency_p50_ns / 1e6 << " ms, p99 "
        << s.latency_p99_ns / 1e6 << " ms, max " << s.latency_max_ns / 1e6 << " ms"
        << (s.wall_seconds > 0 ? ", throughput " : "");
  if (s.frames_completed && s.wall_seconds > 0) out << std::setprecision(1) << s.frames_completed / s.wall_seconds << " frames/s";
  if (s.frames_completed) out << "\n";
  if (s.capture_latency_p50_ns > 0)
    out << std::fixed << std::setprecision(3) << "latency (capture -> done): p50 " << s.capture_latency_p50_ns / 1e6
        << " ms, p99 " << s.capture_latency_p99_ns / 1e6 << " ms, max " << s.capture_latency_max_ns / 1e6 << " ms\n";
  for (const auto& q : s.queues)
    if (q.conversions) out << "input '" << q.name << "': " << q.conversions << " frame(s) copied or converted on the way in\n";
  for (const auto& n : s.nodes)
    if (n.conversions) out << "node '" << n.name << "': " << n.conversions << " input(s) copied or converted (not zero-copy)\n";
  for (const auto& n : s.nodes) {
    if (n.stuck)
      out << "node '" << n.name << "' (kernel '" << n.kernel << "' on " << n.target << "): STUCK for "
          << n.running_ns / 1'000'000 << " ms, past its " << n.deadline_ns / 1'000'000 << " ms deadline; target '"
          << n.target << "' is faulted\n";
    else if (n.deadline_misses)
      out << "node '" << n.name << "': " << n.deadline_misses << " call(s) past its " << n.deadline_ns / 1'000'000
          << " ms deadline\n";
  }
  // The text columns are as wide as their longest entry (plus a space), so a long name never runs into the next.
  std::size_t name_width = 20, kernel_width = 26, target_width = 7;
  for (const auto& n : s.nodes) {
    name_width = std::max(name_width, n.name.size() + 1);
    kernel_width = std::max(kernel_width, n.kernel.size() + 1);
    target_width = std::max(target_width, n.target.size() + 1);
  }
  const auto name_w = static_cast<int>(name_width), kernel_w = static_cast<int>(kernel_width), target_w = static_cast<int>(target_width);
  out << std::left << std::setw(name_w) << "node" << std::setw(kernel_w) << "kernel" << std::setw(target_w) << "target" << std::right
      << std::setw(8) << "execs" << std::setw(6) << "fail" << std::setw(10) << "avg ms" << std::setw(10) << "min ms"
      << std::setw(10) << "max ms" << std::setw(10) << "p50 ms" << std::setw(10) << "p99 ms" << "\n";
  out << std::fixed << std::setprecision(3);
  for (const auto& n : s.nodes) {
    out << std::left << std::setw(name_w) << n.name << std::setw(kernel_w) << n.kernel << std::setw(target_w) << n.target << std::right
        << std::setw(8) << n.executions << std::setw(6) << n.failures << std::setw(10) << n.avg_ns / 1e6 << std::setw(10)
        << n.min_ns / 1e6 << std::setw(10) << n.max_ns / 1e6 << std::setw(10) << n.p50_ns / 1e6 << std::setw(10)
        << n.p99_ns / 1e6 << "\n";
  }
  return out.str();
}

std::string Graph::report_json() const {
  const GraphStats s = stats();
  nlohmann::json nodes = nlohmann::json::array();
  for (const auto& n : s.nodes)
    nodes.push_back({{"name", n.name}, {"kernel", n.kernel}, {"target", n.target}, {"executions", n.executions},
                     {"failures", n.failures}, {"avg_ns", n.avg_ns}, {"min_ns", n.min_ns}, {"max_ns", n.max_ns},
                     {"p50_ns", n.p50_ns}, {"p99_ns", n.p99_ns}, {"conversions", n.conversions},
                     {"deadline_ns", n.deadline_ns}, {"deadline_misses", n.deadline_misses}, {"stuck", n.stuck},
                     {"running_ns", n.running_ns}});
  nlohmann::json doc = {{"graph", s.name},
                        {"frames", {{"in", s.frames_in}, {"started", s.frames_started}, {"completed", s.frames_completed},
                                    {"failed", s.frames_failed}, {"dropped", s.frames_dropped},
                                    {"rejected", s.frames_rejected}, {"aborted", s.frames_aborted},
                                    {"in_flight", s.frames_in_flight}}},
                        {"pipeline_depth", s.pipeline_depth},
                        {"latency_ns", {{"p50", s.latency_p50_ns}, {"p99", s.latency_p99_ns}, {"max", s.latency_max_ns}}},
                        {"capture_latency_ns",
                         {{"p50", s.capture_latency_p50_ns}, {"p99", s.capture_latency_p99_ns}, {"max", s.capture_latency_max_ns}}},
                        {"wall_seconds", s.wall_seconds},
                        {"nodes", nodes}};
  nlohmann::json queues = nlohmann::json::array();
  for (const auto& q : s.queues)
    queues.push_back({{"name", q.name}, {"direction", q.is_input ? "input" : "output"}, {"waiting", q.waiting},
                      {"capacity", q.capacity}, {"done", q.done}, {"conversions", q.conversions}});
  doc["queues"] = queues;
  return doc.dump(2);
}

}  // namespace vg
