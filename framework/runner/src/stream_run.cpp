#include "stream_run.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>

#include "visiongraph/core/clock.hpp"

namespace vg::runner {

using namespace std::chrono_literals;

namespace {

FrameRecord record_of(const io::ReclaimedFrame& r, const ImageMeta& in_image, bool tensor_input, std::int64_t base_ns) {
  FrameRecord rec;
  rec.timestamp_ns = r.media_ns >= 0 ? r.media_ns : r.capture_ns - base_ns;
  rec.capture_ns = r.capture_ns;
  rec.file = r.name;
  if (!tensor_input && in_image.width && in_image.height) {
    rec.scale_x = static_cast<double>(r.source_width) / in_image.width;
    rec.scale_y = static_cast<double>(r.source_height) / in_image.height;
  }
  return rec;
}

/// The error of one failed frame, numbered as the source numbers it (the JSON line's "frame").
std::string frame_error_text(const Graph& graph, std::uint64_t sequence, std::uint64_t frame) {
  RunError e = graph.frame_error(sequence);
  if (e.status == Status::ok)
    return "frame " + std::to_string(frame) + " failed (its cause is no longer kept: more than 64 frames failed since)";
  e.frame = frame;
  return e.describe();
}

/// A node given up on past its deadline faults its target: every later frame needing it would fail.
/// Names it, or "" when no node is stuck. Only called after a frame failed (it allocates).
std::string faulted_target(const Graph& graph) {
  for (const NodeStats& n : graph.stats().nodes) {
    if (!n.stuck) continue;
    char deadline[32];
    std::snprintf(deadline, sizeof deadline, "%.1f ms", static_cast<double>(n.deadline_ns) / 1e6);
    return "node '" + (n.replica_of.empty() ? n.name : n.replica_of) + "' (kernel '" + n.kernel + "' on " + n.target +
           ") overran its " + deadline + " deadline and was given up on; its target " + n.target +
           " is faulted and every later frame would fail, so the run ends";
  }
  return {};
}

}  // namespace

StreamRun::StreamRun(std::string name, Graph& graph, const RunParams& params, io::Source& source, RunOutputs& outputs,
                     const RunOptions& options, Progress& progress, std::int64_t base_ns)
    : name_(std::move(name)), graph_(graph), params_(params), source_(source), outputs_(outputs), opt_(options),
      progress_(progress), base_ns_(base_ns) {}

StreamRun::~StreamRun() {
  if (detections_thread_.joinable() || reclaim_thread_.joinable() || producer_thread_.joinable()) {
    (void)graph_.stop(StopMode::abandon);
    producing_.store(false);
    finish();
  }
}

std::string StreamRun::prefix() const { return name_.empty() ? std::string() : "stream '" + name_ + "': "; }

void StreamRun::start() {
  std::vector<GraphParamId> outputs_to_fill{params_.detections, params_.annotated};
  for (const auto& w : params_.written) outputs_to_fill.push_back(w.second);
  for (GraphParamId out : outputs_to_fill) {
    if (!out.valid()) continue;
    for (std::uint32_t i = 0; i < graph_.num_buffers(graph_.data_of(out)); ++i)
      if (graph_.enqueue(out, i) != Status::ok) throw std::runtime_error(prefix() + "cannot hand output buffers to the graph");
  }
  input_ = std::make_unique<io::GraphInput>(graph_, params_.input);
  if (graph_.start() != Status::ok) throw std::runtime_error(prefix() + "cannot start the graph");
  // Two consumers: detections leave as soon as their node finishes; frames are reclaimed when complete.
  if (params_.detections.valid())
    detections_thread_ = std::thread([this] { consume_until_done([this] { publish_detections(); }); });
  reclaim_thread_ = std::thread([this] {
    consume_until_done([this] { reclaim_frames(); });
    consumer_done_.store(true);
  });
  producer_thread_ = std::thread([this] {
    try {
      const DataMeta& in_meta = graph_.meta(graph_.data_of(params_.input));
      source_error_ = read_frames(in_meta.kind == DataKind::image ? in_meta.image : ImageMeta{});
    } catch (const std::exception& e) {
      source_error_ = e.what();
    }
    producing_.store(false);
  });
}

// Either consumer failing (an output that cannot be written) stops this stream: reading stops, its frames
// are abandoned. The other streams go on.
void StreamRun::fail(const std::exception& e) {
  {
    std::lock_guard lock(error_mu_);
    if (consumer_error_.empty()) consumer_error_ = e.what();
  }
  stopping_.store(true);
  (void)graph_.stop(StopMode::abandon);
}

// After a failure each consumer goes on (the graph is stopping), so every frame read still gets its line.
template <typename Consume>
void StreamRun::consume_until_done(Consume consume) {
  for (;;) {
    try {
      consume();
      return;
    } catch (const std::exception& e) {
      fail(e);
    }
  }
}

std::string StreamRun::consumer_error() const {
  std::lock_guard lock(error_mu_);
  return consumer_error_;
}

void StreamRun::abandon() {
  if (abandoned_) return;
  (void)graph_.stop(StopMode::abandon);
  abandoned_ = true;
}

void StreamRun::finish() {
  if (producer_thread_.joinable()) producer_thread_.join();
  if (reclaim_thread_.joinable()) reclaim_thread_.join();
  (void)graph_.stop(StopMode::drain);
  if (detections_thread_.joinable()) detections_thread_.join();  // every detections buffer is back
  source_.close();
}

service::RunCounters StreamRun::counters(std::int64_t run_started_ns, std::int64_t resident_at_start) const {
  service::RunCounters r;
  r.stream = name_;
  r.source = source_.info().spec;
  r.live = source_.info().live;
  r.frames_read = counts_.read.load();
  r.frames_resolved = counts_.resolved.load();
  r.frames_failed = counts_.failed.load();
  r.frames_dropped = counts_.dropped.load();
  const io::SourceStats src = source_.stats();
  r.source_dropped = src.dropped;
  r.reconnects = src.reconnects;
  r.uptime_seconds = static_cast<double>(now_ns() - run_started_ns) / 1e9;
  r.resident_bytes = service::resident_memory_bytes();
  r.resident_bytes_start = resident_at_start;
  r.last_frame = newest_stages_.get();
  return r;
}

/// Detections thread: each frame's detections leave (JSONL, MQTT, stdout) as soon as the node producing
/// them has finished, without waiting for the overlay or other nodes of the frame. Returns when the
/// graph is stopped and every buffer is back. With @p newest (--stage-times) each line carries the
/// frame's stages up to the detections, and @p newest keeps the last for `stats`.
void StreamRun::publish_detections() {
  Graph& graph = graph_;
  const RunParams& p = params_;
  RunOutputs& out = outputs_;
  FramesInFlight& in_flight = in_flight_;
  NewestStages* newest = opt_.stage_times ? &newest_stages_ : nullptr;
  const DataId data = graph.data_of(p.detections);
  for (;;) {
    DequeuedBuffer det{};
    const Status s = graph.dequeue(p.detections, det, 100ms);
    if (s == Status::timeout) continue;
    if (s != Status::ok) return;  // stopped, nothing left
    // ok: written; kernel_error: the frame failed before or in the node writing them; aborted: a frame
    // abandoned by stop (the reclaim thread reports it), or an empty buffer handed back by stop.
    if (det.status == Status::ok || det.status == Status::kernel_error) {
      const std::uint64_t frame = det.tag;  // the source's frame number (io::GraphInput sets it)
      std::optional<FrameRecord> claimed = in_flight.claim(frame);
      if (!claimed) {  // already reported (dropped by an abandoning stop)
        (void)graph.enqueue(p.detections, det.index);
        continue;
      }
      FrameRecord& rec = *claimed;
      std::optional<service::StageTimes> stages;
      if (newest != nullptr) {
        service::StageTimes& t = stages.emplace();
        (void)graph.frame_sample(det.sequence, t.sample);
        t.from_capture = det.capture_ns > 0;
        t.origin_ns = t.from_capture ? det.capture_ns : t.sample.count > 0 ? t.sample.stages[0].start_ns : det.completed_ns;
        t.done_ns = det.completed_ns;
        t.written_ns = now_ns();
        newest->set(t);
      }
      const service::StageTimes* stage_times = stages ? &*stages : nullptr;
      if (det.status == Status::ok) {
        if (rec.capture_ns > 0 && det.completed_ns > 0) rec.latency_ns = det.completed_ns - rec.capture_ns;
        out.detections(frame, rec, *graph.user_data<detection::DetectionPacket>(data, det.index), stage_times);
      } else {
        out.failed(frame, rec, frame_error_text(graph, det.sequence, frame), stage_times);
      }
    }
    (void)graph.enqueue(p.detections, det.index);  // refused once stopped: nothing more to fill
  }
}

/// Reclaim thread: every input buffer the graph hands back (in frame order, when its frame is complete),
/// with the frame's annotated image; frames that never ran are reported as dropped.
void StreamRun::reclaim_frames() {
  Graph& graph = graph_;
  io::GraphInput& input = *input_;
  const RunParams& p = params_;
  RunOutputs& out = outputs_;
  RunCounts& counts = counts_;
  FramesInFlight& in_flight = in_flight_;
  const std::int64_t base_ns = base_ns_;
  const std::atomic<bool>& producing = producing_;
  std::string& fault = fault_;
  const DataId in_data = graph.data_of(p.input);
  const ImageMeta in_image = graph.meta(in_data).image;
  const bool tensor_input = graph.meta(in_data).kind == DataKind::tensor;
  for (;;) {
    io::ReclaimedFrame r;
    const Status s = input.reclaim(r, 100ms);
    if (s == Status::timeout) {
      if (!producing.load() && counts.resolved.load() == counts.read.load()) return;
      continue;
    }
    if (s != Status::ok) return;  // stopped, nothing left
    const FrameRecord rec = record_of(r, in_image, tensor_input, base_ns);
    const std::uint64_t frame = r.source_sequence;
    const bool ran = r.buffer.status == Status::ok || r.buffer.status == Status::kernel_error;
    if (!ran) {  // dropped by latest-wins, or aborted by stop (its detections may have left already)
      const bool aborted = r.buffer.status == Status::aborted;
      if (in_flight.claim(frame)) {
        if (aborted) out.aborted(frame, rec);
        else out.dropped(frame, rec);
      }
      ++(aborted ? counts.aborted : counts.dropped);
    } else {
      if (r.buffer.status != Status::ok) {
        ++counts.failed;
        if (fault.empty()) {
          fault = faulted_target(graph);
          if (!fault.empty()) {
            std::cerr << "visiongraph run: " << prefix() << fault << '\n';
            stop::stop_reading();  // the target serves every stream: all of them stop
          }
        }
      }
      if (p.annotated.valid()) {
        DequeuedBuffer ann{};
        if (graph.dequeue(p.annotated, ann, 10s) != Status::ok)
          throw std::runtime_error("the annotated output did not come back");
        if (r.buffer.status == Status::ok) {
          const std::string name = r.name[0] ? std::string(r.name.data()) : "frame_" + std::to_string(frame);
          out.annotated(graph.image(graph.data_of(p.annotated), ann.index), name, rec.timestamp_ns);
        }
        (void)graph.enqueue(p.annotated, ann.index);
      }
      for (std::size_t i = 0; i < p.written.size(); ++i) {
        DequeuedBuffer b{};
        if (graph.dequeue(p.written[i].second, b, 10s) != Status::ok)
          throw std::runtime_error("the output '" + p.written[i].first + "' did not come back");
        if (b.status == Status::ok) out.writer(i).write(frame, b.index);
        (void)graph.enqueue(p.written[i].second, b.index);
      }
    }
    ++counts.resolved;
    progress_.frame_resolved();
  }
}

/// Producer: read frames and hand them to the graph until the source ends, fails or is interrupted.
/// Returns the source's error ("" at a normal end).
std::string StreamRun::read_frames(const ImageMeta& graph_input) {
  io::Source& source = source_;
  io::GraphInput& input = *input_;
  const RunOptions& opt = opt_;
  RunOutputs& out = outputs_;
  RunCounts& counts = counts_;
  FramesInFlight& in_flight = in_flight_;
  const std::int64_t base_ns = base_ns_;
  const io::SourceInfo& info = source.info();
  const auto t0 = std::chrono::steady_clock::now();
  while (keep_reading() && (opt.frames < 0 || static_cast<std::int64_t>(counts.read.load()) < opt.frames)) {
    io::Frame frame;
    const Status s = source.read(frame, 1s);
    if (s == Status::timeout) continue;
    if (s == Status::stopped) return "";
    if (s == Status::end_of_stream) {
      // A file ends; a live stream (a camera, an RTSP server, a live pipeline) is not expected to: that is a
      // lost input. An http(s) URL may serve a file of finite length, so its end is a normal one.
      if (!info.live || info.kind == io::SourceKind::http) return "";
      return info.spec + ": the live stream ended" + (opt.reconnect ? std::string() : " (--reconnect waits for it to come back)");
    }
    if (s != Status::ok) {
      const std::string why = source.error().empty() ? info.spec + ": " + std::string(to_string(s)) : source.error();
      // A folder of images goes on past an unreadable file when partial input is accepted; others end here.
      if (opt.allow_partial && info.kind == io::SourceKind::image_dir && s == Status::io_error) {
        std::cerr << "visiongraph run: " << prefix() << "skipped " << why << " (--allow-partial)\n";
        ++counts.skipped;
        continue;
      }
      return why;
    }
    if (opt.realtime && !info.live && info.fps > 0) {
      const double at = frame.media_ns >= 0 ? static_cast<double>(frame.media_ns) * 1e-9
                                            : static_cast<double>(counts.read.load()) / info.fps;
      std::this_thread::sleep_until(t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                             std::chrono::duration<double>(at)));
      frame.capture_ns = now_ns();  // a paced file frame is "captured" when its time comes, not when decoded ahead
    }
    const std::uint64_t sequence = frame.sequence;
    FrameRecord rec;
    rec.timestamp_ns = frame.media_ns >= 0 ? frame.media_ns : frame.capture_ns - base_ns;
    rec.capture_ns = frame.capture_ns;
    rec.file = frame.name;
    if (graph_input.width && graph_input.height) {  // boxes are reported in the source's pixels
      rec.scale_x = static_cast<double>(frame.meta.width) / graph_input.width;
      rec.scale_y = static_cast<double>(frame.meta.height) / graph_input.height;
    }
    in_flight.add(sequence, rec);
    ++counts.read;
    // Back-pressure (files): wait for the graph to free a buffer, but stay responsive to an interrupt.
    Status room = Status::timeout;
    while (room == Status::timeout && keep_reading()) room = input.wait_for_free_buffer(200ms);
    const Status pushed = room == Status::ok ? input.push(std::move(frame), 10s) : room;
    if (pushed != Status::ok) {  // the frame's lease went back with it: reported, never silent
      (void)in_flight.claim(sequence);
      // Refused because the run is stopping: aborted; refused by a full queue: dropped.
      const bool stopping = pushed == Status::stopped || !keep_reading();
      if (stopping) out.aborted(sequence, rec);
      else out.dropped(sequence, rec);
      ++(stopping ? counts.aborted : counts.dropped);
      ++counts.resolved;
      progress_.frame_resolved();
      if (pushed == Status::stopped) return "";
      if (!keep_reading()) return "";
      if (pushed != Status::rejected && pushed != Status::timeout && pushed != Status::busy)
        return info.spec + ": frame " + std::to_string(sequence) + " could not enter the graph: " +
               std::string(to_string(pushed));
    }
  }
  return "";
}

}  // namespace vg::runner
