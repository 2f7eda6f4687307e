// Many camera streams through ONE context: N graph instances of the face-detection shape
//   frame -> letterbox (cpu0) -> vg.inference (npu0, npu1, npu2: three replicas) -> decode (cpu1)
//         -> vg.detection.track (cpu1) -> tracked detections
// all built against the same vg::Context, so every stream's nodes share the context's five targets and
// their FIFO queues. Each stream is fed by its own thread as fast as its graph takes frames: up to
// pipeline_depth frames in flight, the next frame enqueued as soon as one is handed back (the loop of
// bench_replicas). Nothing arbitrates between the streams but that bound and the FIFO target queues:
// the per-stream counters measure how fair that is.
//
// One benchmark iteration is one frame completed by any stream (the time column is 1 / aggregate frames/s).
// The streams of one benchmark and argument are set up once and keep streaming across Google Benchmark's
// calls of it (the short calls that size the iteration count, then the repetitions): each call measures
// its own stretch; they are torn down when the next benchmark starts.
// Counters, over the timed loop (after a warm-up of pipeline_depth frames per stream):
//   fps             aggregate frames/s of all streams
//   fps_vs_1        fps / the 1-stream runs of the same run (same configuration)
//   stream_fps_min, stream_fps_max   the slowest and the fastest stream's frames/s
//   spread_pct      (max / min - 1) x 100 between the streams
//   max_dev_pct     the largest |stream fps / mean stream fps - 1| x 100
//   cpu_per_wall    process CPU seconds per wall second (all threads; the children's for the process runs)
//   cpu_ms_per_frame  the same CPU time per frame (less sensitive to other load on the machine than fps)
//   p50_ms          mean over the streams of each graph's end-to-end latency p50
//   out_of_order, failed   frames handed back out of order / failed (expected 0)
//
//   BM_StreamsFakeNpu/N        stand-in librknnrt (tests/npu/fake_rknnrt) with a 20 ms run latency that waits
//                              like an accelerator (sleeps; one of three cores busy per run), u8 input, int8
//                              outputs. Ceiling: 3 cores / 20 ms = 150 frames/s; ceiling_frac = fps / 150.
//                              max_concurrent_runs: the most runs the stand-in had inside their latency at once
//   BM_StreamsOpencv/N         OpenCV DNN backend on the BlazeFace back 256x256 model, N streams in one process
//                              (npu0..npu2 are ordinary CPU threads on a PC; OpenCV's default thread pool)
//   BM_StreamsOpencvProcesses/N  the same N streams as N processes, each running ONE stream in its own context
//                              (the bench re-executes itself, /proc/self/exe --vg-stream-child, so no context
//                              or thread exists in a child before its own; each child reports a byte per frame
//                              over a pipe), against N streams in one process measured in the same call: both
//                              are set up, and each iteration runs one window of each (the order alternating),
//                              the other paused with nothing in flight, so both see the same load on a shared
//                              machine. A window is a quarter of --benchmark_min_time (20 ms .. 1 s).
//                              fps (N processes), fps_1proc (one process), fps_vs_1proc = fps / fps_1proc;
//                              cpu_ms_per_frame(_1proc), cpu_per_frame_vs_1proc the same for CPU per frame
//
//   ./bench_streams --benchmark_repetitions=3 --benchmark_min_time=4     (docs/benchmarks.md, ~4 minutes)
//   ./bench_streams --benchmark_min_time=0.01        (smoke run: a few seconds)
//
// Models: $VG_ASSETS_DIR/face_detection_back_256x256_barracuda.onnx (default <repo>/.cache/assets).
#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <semaphore>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "visiongraph/kernels/detection/module.hpp"
#include "visiongraph/kernels/inference/module.hpp"
#include "visiongraph/kernels/inference/npu_allocator.hpp"
#include "visiongraph/visiongraph.hpp"
#if defined(VG_BENCH_FAKE_RKNNRT)
#include "face_stream.hpp"
#include "fake_rknnrt/fake_control.hpp"
#endif

extern char** environ;

namespace {

using namespace std::chrono_literals;

constexpr auto kFakeRunLatency = 20ms;
constexpr double kNpuCeilingFps = 3.0 / 0.020;  // three NPU targets, 20 ms per run
constexpr const char* kChildFlag = "--vg-stream-child";

std::string opencv_model() {
  const char* env = std::getenv("VG_ASSETS_DIR");
  const std::string dir = env != nullptr && *env != '\0' ? env : VG_BENCH_DEFAULT_ASSETS_DIR;
  return dir + "/face_detection_back_256x256_barracuda.onnx";
}

vg::ContextConfig bench_targets() {
  vg::ContextConfig config = vg::ContextConfig::defaults();
  config.targets = {{"cpu0", "cpu", -1, 256}, {"cpu1", "cpu", -1, 256}, {"npu0", "npu", -1, 256},
                    {"npu1", "npu", -1, 256}, {"npu2", "npu", -1, 256}};
  return config;
}

double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double mean(const std::vector<double>& v) {
  return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

/// The shared context: five targets, the detection and inference modules, DMA-BUF (or memfd) memory on npu*.
struct StreamContext {
  StreamContext() : context(bench_targets()) {
    npu_memory = vg::inference::install_npu_allocator(context);
    context.load_module(vg::detection::make_detection_module());
    context.load_module(vg::inference::make_inference_module());
  }
  vg::Context context;
  std::unique_ptr<vg::inference::NpuAllocatorInstallation> npu_memory;
};

/// One stream: the face graph with the tracker (face_stream.hpp) in @p context, shared with the other
/// streams, its frame shifted per stream.
using Stream = vg_bench::FaceStream;
std::unique_ptr<Stream> make_stream(vg::Context& context, int index, const std::string& model, const std::string& runtime,
                                    bool u8_input) {
  return std::make_unique<Stream>(context, "stream" + std::to_string(index),
                                  vg_bench::FaceStreamOptions{model, runtime, u8_input, {"npu0", "npu1", "npu2"}, false, true,
                                                              static_cast<std::uint32_t>(index) * 16});
}

/// Frames and wall seconds of the runs so far in this process, per configuration ("fake/1", "opencv/2"):
/// "<config>/1" is the baseline of fps_vs_1. Summed, so that Google Benchmark's short calls that size the
/// iteration count (one iteration, a few ms) weigh as little as they last.
struct Tally {
  double frames = 0, wall = 0;
  double fps() const { return wall > 0 ? frames / wall : 0.0; }
};
std::map<std::string, Tally>& baselines() {
  static std::map<std::string, Tally> b;
  return b;
}

/// Per-stream frames/s -> the fairness counters.
void set_fairness(benchmark::State& state, const std::vector<double>& per_stream) {
  if (per_stream.empty()) return;
  const auto [lo, hi] = std::minmax_element(per_stream.begin(), per_stream.end());
  const double m = mean(per_stream);
  double dev = 0;
  for (double f : per_stream) dev = std::max(dev, m > 0 ? std::abs(f / m - 1.0) : 0.0);
  state.counters["stream_fps_min"] = *lo;
  state.counters["stream_fps_max"] = *hi;
  state.counters["spread_pct"] = *lo > 0 ? 100.0 * (*hi / *lo - 1.0) : 0.0;
  state.counters["max_dev_pct"] = 100.0 * dev;
}

/// What a benchmark keeps running between Google Benchmark's calls of it (the calls that size the
/// iteration count, then every repetition): set up and warmed up once per benchmark and argument, torn
/// down when another one starts (or at exit). The streams go on streaming between the calls.
struct Rig {
  virtual ~Rig() = default;
  std::string key;
};
std::unique_ptr<Rig>& current_rig() {
  static std::unique_ptr<Rig> rig;
  return rig;
}
/// The running rig of @p key, or null after tearing down whatever else ran (the caller makes a new one).
template <class T>
T* reuse_rig(const std::string& key) {
  std::unique_ptr<Rig>& rig = current_rig();
  if (rig && rig->key == key) return static_cast<T*>(rig.get());
  rig.reset();  // the previous benchmark's streams stop before this one's start
  return nullptr;
}

/// N streams in one context, a feeding thread each, streaming until the rig goes.
struct InProcessRig : Rig {
  InProcessRig(int n, const std::string& model, const std::string& runtime, bool u8_input) {
    for (int i = 0; i < n; ++i) streams.push_back(make_stream(shared.context, i, model, runtime, u8_input));
    for (auto& s : streams) {
      if (!s->start()) throw std::runtime_error("start failed: " + s->graph.last_error().describe());
    }
    for (auto& sp : streams) {
      feeders.emplace_back([this, s = sp.get()] {
        while (!stop.load(std::memory_order_relaxed)) {
          if (paused.load()) {  // pause(): no new frame, take back those in flight, then wait
            const bool drained = s->drain();
            idle.fetch_add(1);
            while (drained && paused.load() && !stop.load()) std::this_thread::sleep_for(200us);
            idle.fetch_sub(1);
            if (drained) continue;
          }
          if (!s->step()) {
            {
              const std::lock_guard<std::mutex> lock(error_mutex);
              if (first_error.empty()) first_error = s->graph.name() + ": " + s->graph.last_error().describe();
            }
            errors.fetch_add(1);
            frames.release();  // wake the benchmark thread
            return;
          }
          frames.release();
        }
      });
    }
    // Warm-up: every stream has filled its pipeline once (every replica of every stream has run). Google
    // Benchmark's first calls (one iteration, then a few), which size the iteration count, warm up further.
    const std::uint64_t warm = streams.front()->graph.pipeline_depth();
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    for (auto& s : streams) {
      while (s->completed.load() < warm && errors.load() == 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(1ms);
    }
    if (errors.load() != 0 || std::chrono::steady_clock::now() >= deadline) {
      finish();
      throw std::runtime_error("warm-up failed: " + error_text());
    }
  }
  ~InProcessRig() override { finish(); }
  /// Stops feeding and waits until no stream has a frame in flight. False on a failure.
  bool pause() {
    paused = true;
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (idle.load() < static_cast<int>(streams.size()) && errors.load() == 0 &&
           std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(200us);
    return errors.load() == 0 && idle.load() == static_cast<int>(streams.size());
  }
  void resume() { paused = false; }
  void finish() {
    stop = true;
    for (auto& t : feeders) t.join();
    feeders.clear();
  }
  std::string error_text() {
    const std::lock_guard<std::mutex> lock(error_mutex);
    return first_error;
  }

  StreamContext shared;
  std::vector<std::unique_ptr<Stream>> streams;
  std::vector<std::thread> feeders;
  std::counting_semaphore<> frames{0};  // one release per completed frame
  std::atomic<bool> stop{false};
  std::atomic<bool> paused{false};
  std::atomic<int> idle{0};  // streams paused with nothing in flight
  std::atomic<int> errors{0};
  std::mutex error_mutex;
  std::string first_error;
};

/// N streams in one context; one iteration = one frame completed by any stream.
/// Returns the aggregate frames/s (0 when the run failed).
double run_streams(benchmark::State& state, const std::string& config, const std::string& model,
                   const std::string& runtime, bool u8_input) {
  const int n = static_cast<int>(state.range(0));
  const std::string key = config + "/" + std::to_string(n);
  InProcessRig* rig = reuse_rig<InProcessRig>(key);
  if (rig == nullptr) {
    try {
      auto made = std::make_unique<InProcessRig>(n, model, runtime, u8_input);
      made->key = key;
      rig = made.get();
      current_rig() = std::move(made);
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
      return 0;
    }
  }
  auto& streams = rig->streams;
  for (auto& s : streams) s->graph.reset_stats();
  while (rig->frames.try_acquire()) {
  }
  std::vector<std::uint64_t> first(streams.size());
  for (std::size_t i = 0; i < streams.size(); ++i) first[i] = streams[i]->completed.load();
  const double cpu0 = process_cpu_seconds();
  const auto t0 = std::chrono::steady_clock::now();
  for (auto _ : state) {
    if (!rig->frames.try_acquire_for(30s) || rig->errors.load() != 0) {
      state.SkipWithError(("frame failed: " + rig->error_text()).c_str());
      break;
    }
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = process_cpu_seconds() - cpu0;
  std::vector<double> per_stream;
  double total = 0;
  for (std::size_t i = 0; i < streams.size(); ++i) {
    const double f = static_cast<double>(streams[i]->completed.load() - first[i]);
    per_stream.push_back(f / wall);
    total += f;
  }
  if (rig->errors.load() != 0) {
    current_rig().reset();
    return 0;
  }
  double p50 = 0, out_of_order = 0, failed = 0;
  for (auto& s : streams) {
    p50 += 1e-6 * static_cast<double>(s->graph.stats().latency_p50_ns) / static_cast<double>(streams.size());
    out_of_order += static_cast<double>(s->out_of_order);
    failed += static_cast<double>(s->failed);
  }
  const double fps = total / wall;
  state.counters["streams"] = n;
  state.counters["fps"] = fps;
  state.counters["cpu_per_wall"] = cpu / wall;
  state.counters["cpu_ms_per_frame"] = total > 0 ? 1e3 * cpu / total : 0.0;
  state.counters["p50_ms"] = p50;
  state.counters["out_of_order"] = out_of_order;
  state.counters["failed"] = failed;
  state.counters["depth"] = static_cast<double>(streams.front()->graph.pipeline_depth());
  set_fairness(state, per_stream);
  Tally& mine = baselines()[key];
  mine.frames += total;
  mine.wall += wall;
  const double base = baselines()[config + "/1"].fps();
  if (base > 0) state.counters["fps_vs_1"] = fps / base;
  return fps;
}

#if defined(VG_BENCH_FAKE_RKNNRT)
std::string fake_model() {
  const std::string path = (std::filesystem::temp_directory_path() / "vg_bench_streams.rknn").string();
  std::ofstream(path) << "fake-rknn\ninput 1 256 256 3\noutput 1 512 1\noutput 1 384 1\noutput 1 512 16\noutput 1 384 16\n";
  return path;
}

void BM_StreamsFakeNpu(benchmark::State& state) {
  // One handle for the whole process (its destructor would reset the latency under streams still running).
  static vg::test::FakeRknnrt fake(VG_BENCH_FAKE_RKNNRT);
  fake.set_run_latency(kFakeRunLatency);
  fake.reset_counters();
  const double fps = run_streams(state, "fake", fake_model(), VG_BENCH_FAKE_RKNNRT, true);
  if (fps > 0) state.counters["ceiling_frac"] = fps / kNpuCeilingFps;
  state.counters["max_concurrent_runs"] = static_cast<double>(fake.counter("max_concurrent_runs"));
}
BENCHMARK(BM_StreamsFakeNpu)->Arg(1)->Arg(2)->Arg(4)->Arg(8)->ArgName("streams")->Unit(benchmark::kMillisecond)->UseRealTime();
#endif

bool have_opencv_model(benchmark::State& state) {
  if (std::filesystem::exists(opencv_model())) return true;
  state.SkipWithError(("model missing: " + opencv_model() + " (scripts/fetch_assets.sh)").c_str());
  return false;
}

void BM_StreamsOpencv(benchmark::State& state) {
  if (!have_opencv_model(state)) return;
  (void)run_streams(state, "opencv", opencv_model(), "", false);
}
BENCHMARK(BM_StreamsOpencv)->Arg(1)->Arg(2)->Arg(4)->ArgName("streams")->Unit(benchmark::kMillisecond)->UseRealTime();

// ---- one stream per process ----------------------------------------------------------------------------
// Child protocol (fd 3: commands from the parent, fd 4: reports to it). After set-up and warm-up the child
// writes 'R' and waits for 'G'; then it streams, writing '.' per completed frame. 'C' asks for a report,
// "#<frames> <cpu seconds> <wall seconds>\n" since 'G' (streaming goes on); 'P' pauses (no new frame, those
// in flight taken back, then 'p' written) until 'G'; 'S' or EOF ends it.

bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t w = ::write(fd, data, size);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    data += w;
    size -= static_cast<std::size_t>(w);
  }
  return true;
}

int stream_child() {
  constexpr int kIn = 3, kOut = 4;
  try {
    StreamContext shared;
    const std::unique_ptr<Stream> one = make_stream(shared.context, 0, opencv_model(), "", false);
    Stream& stream = *one;
    if (!stream.start()) throw std::runtime_error("start failed: " + stream.graph.last_error().describe());
    for (std::size_t i = 0; i < stream.graph.pipeline_depth(); ++i) {
      if (!stream.step()) throw std::runtime_error("warm-up failed: " + stream.graph.last_error().describe());
    }
    if (!stream.drain()) throw std::runtime_error("warm-up failed: " + stream.graph.last_error().describe());
    char c = 0;
    if (!write_all(kOut, "R", 1) || ::read(kIn, &c, 1) != 1 || c != 'G') return 2;
    const double cpu0 = process_cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    std::uint64_t frames = 0;
    bool paused = false;
    for (;;) {
      pollfd p{kIn, POLLIN, 0};
      if (paused || ::poll(&p, 1, 0) > 0) {  // paused: wait for the next command
        if (::read(kIn, &c, 1) != 1) return 0;  // EOF
        if (c == 'C') {
          char line[96];
          const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
          const int len = std::snprintf(line, sizeof line, "#%llu %.6f %.6f\n",
                                        static_cast<unsigned long long>(frames), process_cpu_seconds() - cpu0, wall);
          if (!write_all(kOut, line, static_cast<std::size_t>(len))) return 2;
        } else if (c == 'P') {
          if (!stream.drain()) throw std::runtime_error("frame failed: " + stream.graph.last_error().describe());
          paused = true;
          if (!write_all(kOut, "p", 1)) return 2;
        } else if (c == 'G') {
          paused = false;
        } else {
          return 0;  // 'S'
        }
        continue;
      }
      if (!stream.step()) throw std::runtime_error("frame failed: " + stream.graph.last_error().describe());
      ++frames;
      if (!write_all(kOut, ".", 1)) return 2;
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_streams child: %s\n", e.what());
    return 1;
  }
}

struct Child {
  pid_t pid = -1;
  int to = -1, from = -1;  // its fd 3 and fd 4, on our side
  std::uint64_t dots = 0;  // frames it reported while counting
  std::string line;        // a report being read
  bool in_line = false;
  int reports = 0, pauses = 0;
  double cpu = 0, wall = 0;  // the last report's
};

/// Reads what @p c has written: '.' counted into dots (when @p counting), reports parsed, pauses counted.
/// Returns false on EOF or error (the child ended).
bool drain(Child& c, bool counting) {
  char buf[4096];
  const ssize_t r = ::read(c.from, buf, sizeof buf);
  if (r < 0 && errno == EINTR) return true;
  if (r <= 0) return false;
  for (ssize_t i = 0; i < r; ++i) {
    if (c.in_line) {
      if (buf[i] != '\n') {
        c.line.push_back(buf[i]);
        continue;
      }
      unsigned long long frames = 0;
      if (std::sscanf(c.line.c_str(), "%llu %lf %lf", &frames, &c.cpu, &c.wall) != 3) return false;
      ++c.reports;
      c.in_line = false;
    } else if (buf[i] == '#') {
      c.in_line = true;
      c.line.clear();
    } else if (buf[i] == '.' && counting) {
      ++c.dots;
    } else if (buf[i] == 'p') {
      ++c.pauses;
    }
  }
  return true;
}

/// Starts one child (the bench itself with kChildFlag) with its command and report pipes on fds 3 and 4.
bool spawn_child(Child& c) {
  int cmd[2], rep[2];
  if (::pipe2(cmd, O_CLOEXEC) != 0) return false;
  if (::pipe2(rep, O_CLOEXEC) != 0) {
    ::close(cmd[0]);
    ::close(cmd[1]);
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, cmd[0], 3);  // dup2 clears O_CLOEXEC on the copy
  posix_spawn_file_actions_adddup2(&actions, rep[1], 4);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  char* argv[] = {self.data(), const_cast<char*>(kChildFlag), nullptr};
  const int rc = posix_spawn(&c.pid, self.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(cmd[0]);
  ::close(rep[1]);
  c.to = cmd[1];
  c.from = rep[0];
  if (rc != 0) c.pid = -1;
  return rc == 0;
}

/// N child processes, one stream each, streaming (or paused) until the rig goes.
struct ProcessRig : Rig {
  explicit ProcessRig(int n) : children(static_cast<std::size_t>(n)) {
    for (Child& c : children) {
      if (!spawn_child(c)) throw std::runtime_error("posix_spawn of the stream child failed");
    }
    for (Child& c : children) {  // every child set up and warmed up ('R'), then all go at once
      char r = 0;
      pollfd p{c.from, POLLIN, 0};
      if (::poll(&p, 1, 120000) <= 0 || ::read(c.from, &r, 1) != 1 || r != 'R')
        throw std::runtime_error("a stream child failed to start (see its message above)");
    }
    resume();
  }
  ~ProcessRig() override {
    for (Child& c : children) {
      if (c.to >= 0) ::close(c.to);  // EOF: the child stops
    }
    for (Child& c : children) {
      if (c.from >= 0) ::close(c.from);
      int status = 0;
      if (c.pid > 0) (void)::waitpid(c.pid, &status, 0);
    }
  }
  /// Sends @p command to every child and reads until each has answered (*counter grew). False: one ended.
  bool ask_all(const char* command, int Child::*counter) {
    for (Child& c : children) {
      if (!write_all(c.to, command, 1)) return false;
    }
    for (Child& c : children) {
      const int before = c.*counter;
      while (c.*counter == before) {
        pollfd p{c.from, POLLIN, 0};
        if (::poll(&p, 1, 60000) <= 0 || !drain(c, false)) return false;
      }
    }
    return true;
  }
  /// Every child's report (cpu, wall since it started streaming); frames before it are not counted.
  bool report_all() { return ask_all("C", &Child::reports); }
  /// Every child stops feeding and has nothing in flight.
  bool pause() {
    for (Child& c : children) c.pauses = 0;
    return ask_all("P", &Child::pauses);
  }
  bool resume() {
    for (Child& c : children) {
      if (!write_all(c.to, "G", 1)) return false;
    }
    return true;
  }
  /// Counts the frames the children report until @p until.
  bool count(std::chrono::steady_clock::time_point until) {
    std::vector<pollfd> fds(children.size());
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
      if (left.count() <= 0) return true;
      for (std::size_t i = 0; i < children.size(); ++i) fds[i] = pollfd{children[i].from, POLLIN, 0};
      if (::poll(fds.data(), fds.size(), static_cast<int>(left.count()) + 1) < 0 && errno != EINTR) return false;
      for (std::size_t i = 0; i < children.size(); ++i) {
        if ((fds[i].revents & (POLLIN | POLLHUP | POLLERR)) != 0 && !drain(children[i], true)) return false;
      }
    }
  }
  std::vector<Child> children;
};

/// N streams in one process and the same N streams as N processes, both set up, alternately measured.
struct PairRig : Rig {
  explicit PairRig(int n) {
    one = std::make_unique<InProcessRig>(n, opencv_model(), "", false);
    if (!one->pause()) throw std::runtime_error("pausing the in-process streams failed: " + one->error_text());
    many = std::make_unique<ProcessRig>(n);
    if (!many->pause()) throw std::runtime_error("pausing the stream processes failed");
  }
  std::unique_ptr<InProcessRig> one;
  std::unique_ptr<ProcessRig> many;
};

/// Length of one measuring window of BM_StreamsOpencvProcesses: a quarter of --benchmark_min_time, 20 ms
/// to 1 s (set in main).
double& window_seconds() {
  static double w = 0.125;  // Google Benchmark's default min_time, 0.5 s
  return w;
}

/// One window of the N streams in one process: frames and process CPU seconds over @p wall seconds.
struct Window {
  double frames = 0, cpu = 0, wall = 0;
};

bool window_in_process(InProcessRig& rig, Window& w, std::vector<double>& per_stream_frames) {
  std::vector<std::uint64_t> first(rig.streams.size());
  for (std::size_t i = 0; i < rig.streams.size(); ++i) first[i] = rig.streams[i]->completed.load();
  const double cpu0 = process_cpu_seconds();
  const auto t0 = std::chrono::steady_clock::now();
  rig.resume();
  std::this_thread::sleep_for(std::chrono::duration<double>(window_seconds()));
  double frames = 0;
  for (std::size_t i = 0; i < rig.streams.size(); ++i) {
    const double f = static_cast<double>(rig.streams[i]->completed.load() - first[i]);
    per_stream_frames[i] += f;
    frames += f;
  }
  w.frames += frames;
  w.wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  w.cpu += process_cpu_seconds() - cpu0;
  return rig.pause();  // the drained frames count in neither window
}

bool window_processes(ProcessRig& rig, Window& w) {
  if (!rig.report_all()) return false;
  std::vector<double> cpu0, dots0;
  for (Child& c : rig.children) {
    cpu0.push_back(c.cpu);
    dots0.push_back(static_cast<double>(c.dots));
  }
  const auto t0 = std::chrono::steady_clock::now();
  if (!rig.resume() || !rig.count(t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                             std::chrono::duration<double>(window_seconds()))))
    return false;
  w.wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  for (std::size_t i = 0; i < rig.children.size(); ++i) w.frames += static_cast<double>(rig.children[i].dots) - dots0[i];
  if (!rig.report_all()) return false;  // the CPU up to the window's end (frames after it not counted)
  for (std::size_t i = 0; i < rig.children.size(); ++i) w.cpu += rig.children[i].cpu - cpu0[i];
  return rig.pause();  // the drained frames count in neither window
}

void BM_StreamsOpencvProcesses(benchmark::State& state) {
  if (!have_opencv_model(state)) return;
  const int n = static_cast<int>(state.range(0));
  const std::string key = "opencv_pair/" + std::to_string(n);
  PairRig* rig = reuse_rig<PairRig>(key);
  if (rig == nullptr) {
    try {
      auto made = std::make_unique<PairRig>(n);
      made->key = key;
      rig = made.get();
      current_rig() = std::move(made);
    } catch (const std::exception& e) {
      current_rig().reset();
      state.SkipWithError(e.what());
      return;
    }
  }
  for (Child& c : rig->many->children) c.dots = 0;
  Window one, many;
  std::vector<double> one_stream_frames(static_cast<std::size_t>(n), 0.0);
  bool ok = true;
  std::int64_t i = 0;
  for (auto _ : state) {  // one iteration: a window of each, the order alternating
    const bool processes_first = (i++ % 2) != 0;
    if (processes_first) ok = window_processes(*rig->many, many);
    ok = ok && window_in_process(*rig->one, one, one_stream_frames);
    if (!processes_first) ok = ok && window_processes(*rig->many, many);
    if (!ok) {
      state.SkipWithError("a stream failed (in-process or a child; see its message above)");
      break;
    }
  }
  if (!ok || many.wall <= 0 || one.wall <= 0) {
    current_rig().reset();
    return;
  }
  std::vector<double> per_stream;
  for (Child& c : rig->many->children) per_stream.push_back(static_cast<double>(c.dots) / many.wall);
  const double fps = many.frames / many.wall, fps_one = one.frames / one.wall;
  const double cpf = many.frames > 0 ? 1e3 * many.cpu / many.frames : 0.0;
  const double cpf_one = one.frames > 0 ? 1e3 * one.cpu / one.frames : 0.0;
  state.counters["streams"] = n;
  state.counters["window_s"] = window_seconds();
  state.counters["fps"] = fps;
  state.counters["fps_1proc"] = fps_one;
  if (fps_one > 0) state.counters["fps_vs_1proc"] = fps / fps_one;
  state.counters["cpu_per_wall"] = many.cpu / many.wall;
  state.counters["cpu_per_wall_1proc"] = one.cpu / one.wall;
  state.counters["cpu_ms_per_frame"] = cpf;
  state.counters["cpu_ms_per_frame_1proc"] = cpf_one;
  if (cpf_one > 0) state.counters["cpu_per_frame_vs_1proc"] = cpf / cpf_one;
  set_fairness(state, per_stream);
}
BENCHMARK(BM_StreamsOpencvProcesses)->Arg(1)->Arg(2)->Arg(4)->ArgName("streams")->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], kChildFlag) == 0) return stream_child();  // before any context exists
  ::signal(SIGPIPE, SIG_IGN);  // a child that died shows up as a failed write, not a dead bench
  for (int i = 1; i < argc; ++i) {  // BM_StreamsOpencvProcesses' windows follow --benchmark_min_time
    constexpr std::string_view kMinTime = "--benchmark_min_time=";
    const std::string_view arg = argv[i];
    if (arg.substr(0, kMinTime.size()) == kMinTime) {
      char* end = nullptr;
      const double seconds = std::strtod(argv[i] + kMinTime.size(), &end);
      if (end != argv[i] + kMinTime.size() && (*end == '\0' || *end == 's'))
        window_seconds() = std::clamp(seconds / 4, 0.02, 1.0);
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  current_rig().reset();  // the last benchmark's streams (or stream processes) end here
  benchmark::Shutdown();
  return 0;
}
