#pragma once
// One stream of a run: its source read into its graph instance by a producer thread, its frames reclaimed
// (annotated video, --write files, dropped frames) by a reclaim thread, its detections published as soon
// as they are out by a detections thread. Several streams share the context's targets; each has its own
// graph, outputs and counts, and one that fails or ends does not stop the others.
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "frame_record.hpp"
#include "stop_state.hpp"
#include "progress.hpp"
#include "run_outputs.hpp"
#include "run_params.hpp"
#include "visiongraph/io/graph_input.hpp"
#include "visiongraph/io/source.hpp"
#include "visiongraph/service/run_stats.hpp"

namespace vg::runner {

/// Counts shared by the producer and the consumer threads.
struct RunCounts {
  std::atomic<std::uint64_t> read{0}, resolved{0}, dropped{0}, aborted{0}, failed{0}, skipped{0};
};

/// What the JSON line of each frame in flight needs, from its read until its line is written, and who
/// writes that line: exactly one line per frame, whoever claims the frame first. The producer adds a
/// frame before pushing it; the detections thread claims it when the frame's detections come out
/// (tagged with the source frame number); the reclaim thread claims frames that never ran or were
/// abandoned (dropped lines), which it loses to the detections thread when those were already out.
class FramesInFlight {
 public:
  void add(std::uint64_t frame, const FrameRecord& rec) {
    std::lock_guard lock(mu_);
    records_[frame] = rec;
  }
  /// The frame's record if the caller is the first to claim it (then the caller writes its line).
  std::optional<FrameRecord> claim(std::uint64_t frame) {
    std::lock_guard lock(mu_);
    const auto it = records_.find(frame);
    if (it == records_.end()) return std::nullopt;
    FrameRecord rec = it->second;
    records_.erase(it);
    return rec;
  }

 private:
  std::mutex mu_;
  std::map<std::uint64_t, FrameRecord> records_;
};

/// The newest frame's stage times (--stage-times), for `stats` on any thread.
class NewestStages {
 public:
  void set(const service::StageTimes& t) {
    std::lock_guard lock(mu_);
    times_ = t;
  }
  std::optional<service::StageTimes> get() const {
    std::lock_guard lock(mu_);
    return times_;
  }

 private:
  mutable std::mutex mu_;
  std::optional<service::StageTimes> times_;
};

/// One stream's threads and what they found. start() once; then done() polls, abandon() gives up the
/// frames in flight, finish() joins everything (the graph stopped, every buffer back, the source closed).
class StreamRun {
 public:
  StreamRun(std::string name, Graph& graph, const RunParams& params, io::Source& source, RunOutputs& outputs,
            const RunOptions& options, Progress& progress, std::int64_t base_ns);
  ~StreamRun();
  StreamRun(const StreamRun&) = delete;
  StreamRun& operator=(const StreamRun&) = delete;

  /// Hands the output buffers to the graph, starts it and the three threads. Throws when it cannot.
  void start();
  /// Every frame read has its outcome and the reclaim thread has ended.
  bool done() const noexcept { return consumer_done_.load(); }
  /// A frame's output failed (or the stream otherwise stopped itself): it reads no more.
  bool stopping() const noexcept { return stopping_.load(); }
  /// Abandons the frames in flight (a second stop request, the drain timeout).
  void abandon();
  /// Joins every thread; the graph is stopped and the source closed afterwards.
  void finish();

  const std::string& name() const noexcept { return name_; }
  const RunCounts& counts() const noexcept { return counts_; }
  /// The figures for `stats` and --metrics (any thread).
  service::RunCounters counters(std::int64_t run_started_ns, std::int64_t resident_at_start) const;
  /// The input's error ("" when it ended normally or was stopped).
  const std::string& source_error() const noexcept { return source_error_; }
  /// The first output failure (a full disk ...), "" when none.
  std::string consumer_error() const;
  /// A target faulted by a node past its deadline ("" when none).
  const std::string& fault() const noexcept { return fault_; }
  bool abandoned() const noexcept { return abandoned_; }
  io::GraphInput& input() noexcept { return *input_; }
  /// The input's counts (imported, converted), for the report.
  io::GraphInputStats input_stats() const noexcept { return input_->stats(); }

 private:
  bool keep_reading() const noexcept { return stop::keep_reading() && !stopping_.load(); }
  void fail(const std::exception& e);
  template <typename Consume>
  void consume_until_done(Consume consume);
  void publish_detections();
  void reclaim_frames();
  /// Reads frames into the graph until the source ends, fails or the stream stops; returns the source's
  /// error ("" at a normal end).
  std::string read_frames(const ImageMeta& graph_input);
  /// "stream 'NAME': " for messages, "" for a run of one unnamed stream.
  std::string prefix() const;

  std::string name_;
  Graph& graph_;
  const RunParams& params_;
  io::Source& source_;
  RunOutputs& outputs_;
  const RunOptions& opt_;
  Progress& progress_;
  std::int64_t base_ns_;
  std::unique_ptr<io::GraphInput> input_;
  RunCounts counts_;
  FramesInFlight in_flight_;
  NewestStages newest_stages_;
  std::atomic<bool> producing_{true};
  std::atomic<bool> consumer_done_{false};
  std::atomic<bool> stopping_{false};
  bool abandoned_ = false;
  mutable std::mutex error_mu_;
  std::string consumer_error_;
  std::string source_error_;
  std::string fault_;  // written by the reclaim thread only, read after finish()
  std::thread detections_thread_, reclaim_thread_, producer_thread_;
};

}  // namespace vg::runner
