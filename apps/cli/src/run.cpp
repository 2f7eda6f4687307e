// `visiongraph run`: stream a source (vg::io::Source) through a graph file (frames imported by
// vg::io::GraphInput), write detections.jsonl, annotated output, trace.json and the per-node table.

#include "run.hpp"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <thread>

#include "builtin_modules.hpp"
#include "visiongraph/service/control_protocol.hpp"
#include "visiongraph/service/control_server.hpp"
#include "visiongraph/service/crash_report.hpp"
#include "visiongraph/service/metrics_server.hpp"
#include "visiongraph/service/run_stats.hpp"
#include "visiongraph/core/clock.hpp"
#include "visiongraph/core/did_you_mean.hpp"
#include "visiongraph/io/data_writer.hpp"
#include "visiongraph/io/graph_input.hpp"
#include "visiongraph/io/source.hpp"
#include "visiongraph/io/rtsp_output.hpp"
#include "visiongraph/io/video_writer.hpp"
#include "visiongraph/mqtt/command_channel.hpp"
#include "visiongraph/mqtt/endpoint.hpp"
#include "visiongraph/mqtt/publisher.hpp"
#include "visiongraph/kernels/detection/detections.hpp"
#include "visiongraph/yaml/yaml.hpp"
#if VG_CLI_HAVE_NPU
#include "visiongraph/npu/drm_device.hpp"
#endif
#if VG_CLI_HAVE_INFERENCE && VG_CLI_HAVE_NPU
#include "visiongraph/kernels/inference/npu_allocator.hpp"
#endif

namespace vg::cli {

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// SIGINT/SIGTERM received: the first stops reading and drains the frames in flight, the second abandons
// them; either way every output is still written. (A lock-free atomic: safe in a signal handler.)
std::atomic<int> g_signals{0};
static_assert(std::atomic<int>::is_always_lock_free);

extern "C" void on_stop_signal(int) { g_signals.fetch_add(1); }

bool interrupted() noexcept { return g_signals.load() > 0; }

// Set when the run must stop reading for a reason other than a signal (a faulted target).
std::atomic<bool> g_stop_reading{false};

bool keep_reading() noexcept { return !interrupted() && !g_stop_reading.load(); }

/// What the JSON line of one frame says besides its detections.
struct FrameRecord {
  std::int64_t timestamp_ns = 0;  ///< media time for files and streams, else time since the run started
  std::int64_t capture_ns = 0;    ///< monotonic capture time (0 unknown)
  std::int64_t latency_ns = 0;    ///< capture -> detections done (0 unknown)
  double scale_x = 1.0;  ///< source pixels per graph-input pixel
  double scale_y = 1.0;
  std::array<char, io::kMaxFrameName + 1> file{};  ///< image inputs: the file's name; else empty
};

/// Writes one JSON line per frame, in frame order, whatever order results arrive in. Thread-safe.
/// Every write is checked: a full disk or an I/O error throws, naming the file and the reason. Lines are
/// flushed as they are written, so a reader (tail -f) sees each frame as it completes. Each line also
/// goes, in frame order, to the publishers (MQTT: never blocking, drops counted by the publisher) and to
/// standard output when asked (--publish -).
class JsonLinesWriter {
 public:
  JsonLinesWriter(const fs::path& path, std::vector<mqtt::MqttPublisher*> publishers, bool to_stdout)
      : path_(path), publishers_(std::move(publishers)), to_stdout_(to_stdout) {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) throw std::runtime_error("cannot write '" + path.string() + "': " + std::strerror(errno));
  }
  ~JsonLinesWriter() {
    if (fd_ >= 0) ::close(fd_);
  }
  JsonLinesWriter(const JsonLinesWriter&) = delete;
  JsonLinesWriter& operator=(const JsonLinesWriter&) = delete;
  /// The file's failure ("" while it writes): named with every other failing output at the end.
  std::string file_error() {
    std::lock_guard lock(mu_);
    return file_error_;
  }
  void put(std::uint64_t frame, std::string line) {
    std::lock_guard lock(mu_);
    pending_.emplace(frame, std::move(line));
    bool wrote = false;
    while (!pending_.empty() && pending_.begin()->first == next_) {
      emit(pending_.begin()->second);
      pending_.erase(pending_.begin());
      ++next_;
      wrote = true;
    }
    if (wrote) flush_streams();
  }
  void flush() {
    std::lock_guard lock(mu_);
    for (auto& [frame, line] : pending_) emit(line);  // only if a frame never resolved
    pending_.clear();
    flush_streams();
  }
  /// Before the process ends without unwinding: every line held for ordering goes out. Gives up after
  /// @p limit if a writer holds the lock (the lines written so far are already flushed, whole).
  void flush_before_exit(std::chrono::milliseconds limit) noexcept {
    std::unique_lock lock(mu_, std::defer_lock);
    if (!lock.try_lock_for(limit)) return;
    try {
      for (auto& [frame, line] : pending_) emit(line);
      pending_.clear();
      flush_streams();
    } catch (...) {  // a failing destination is already named; nothing more can be done now
    }
  }

 private:
  void emit(const std::string& line) {
    if (!file_failed_) write_line(line);
    if (to_stdout_ && !stdout_failed_) std::cout << line << '\n';
    for (mqtt::MqttPublisher* p : publishers_) (void)p->publish(line);  // busy = dropped, counted there
  }
  // One line, whole or not at all: written with its newline, and on failure (a full disk) the file is cut
  // back to the end of the last whole line, so a reader never sees a torn line. Unbuffered: each line is
  // in the file (tail -f) as soon as it is written.
  void write_line(const std::string& line) {
    std::string text = line;
    text += '\n';
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
      if (n > 0) {
        done += static_cast<std::size_t>(n);
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      const int err = n < 0 ? errno : ENOSPC;
      if (::ftruncate(fd_, static_cast<off_t>(whole_bytes_)) == 0) (void)::lseek(fd_, static_cast<off_t>(whole_bytes_), SEEK_SET);
      file_failed_ = true;
      file_error_ = "writing '" + path_.string() + "' failed: " + std::strerror(err) + " (it holds every line up to frame " +
                    (next_ == 0 ? std::string("none") : std::to_string(next_ - 1)) + ", each whole)";
      throw std::runtime_error(file_error_);
    }
    whole_bytes_ += text.size();
  }
  // A destination that fails is reported once (the run then ends) and written no more; the others go on,
  // so a closed standard output still leaves every frame's line in the file.
  void flush_streams() {
    if (to_stdout_) check(std::cout.flush(), stdout_failed_, "standard output");
  }
  static void check(const std::ostream& stream, bool& failed, const std::string& what) {
    if (stream || failed) return;
    failed = true;
    throw std::runtime_error("writing '" + what + "' failed: " + std::strerror(errno));
  }
  fs::path path_;
  std::timed_mutex mu_;
  int fd_ = -1;
  std::uint64_t whole_bytes_ = 0;  // the file's size up to its last whole line
  std::string file_error_;
  std::vector<mqtt::MqttPublisher*> publishers_;
  bool to_stdout_ = false;
  bool file_failed_ = false;
  bool stdout_failed_ = false;
  std::map<std::uint64_t, std::string> pending_;
  std::uint64_t next_ = 0;
};

/// @p v to @p digits significant digits: JSON shows 0.8689, not 0.8689121007919312.
double significant(double v, int digits) {
  if (v == 0.0 || !std::isfinite(v)) return v;
  const double scale = std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(std::fabs(v)))));
  return std::round(v * scale) / scale;
}

// Scores to 4 significant digits; coordinates (source pixels) to 6, i.e. 0.01 px up to 9999 px.
constexpr int kScoreDigits = 4;
constexpr int kPixelDigits = 6;

/// The frame's stages (--stage-times) as the "stages" member of its line.
void add_stages(nlohmann::ordered_json& j, const service::StageTimes* stages) {
  if (stages != nullptr) j["stages"] = nlohmann::ordered_json::parse(service::stage_times_json(*stages));
}

std::string detections_json(std::uint64_t frame, const FrameRecord& rec, const detection::DetectionPacket& pkt,
                            const service::StageTimes* stages) {
  nlohmann::ordered_json j;
  j["frame"] = frame;
  if (rec.file[0] != '\0') j["file"] = rec.file.data();
  j["timestamp_ns"] = rec.timestamp_ns;
  if (rec.capture_ns > 0) j["capture_ns"] = rec.capture_ns;
  if (rec.latency_ns > 0) j["latency_ms"] = std::round(static_cast<double>(rec.latency_ns) / 1e3) / 1e3;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  const std::uint32_t count = std::min<std::uint32_t>(pkt.count, detection::kMaxDetections);
  for (std::uint32_t i = 0; i < count; ++i) {
    const auto& d = pkt.items[i];
    nlohmann::ordered_json det;
    det["class_id"] = d.class_id;
    det["score"] = significant(d.score, kScoreDigits);
    if (d.track_id > 0) det["track_id"] = d.track_id;  // set by vg.detection.track
    det["box"] = {significant(d.x0 * rec.scale_x, kPixelDigits), significant(d.y0 * rec.scale_y, kPixelDigits),
                  significant(d.x1 * rec.scale_x, kPixelDigits), significant(d.y1 * rec.scale_y, kPixelDigits)};
    nlohmann::ordered_json kps = nlohmann::ordered_json::array();
    const int nk = std::clamp(d.num_keypoints, 0, detection::kMaxKeypoints);
    for (int k = 0; k < nk; ++k)
      kps.push_back({significant(d.keypoints[k].x * rec.scale_x, kPixelDigits),
                     significant(d.keypoints[k].y * rec.scale_y, kPixelDigits)});
    det["keypoints"] = std::move(kps);
    list.push_back(std::move(det));
  }
  j["detections"] = std::move(list);
  if (pkt.truncated()) j["truncated"] = true;
  add_stages(j, stages);
  return j.dump();
}

std::string status_json(std::uint64_t frame, const FrameRecord& rec, const char* key, const std::string& value,
                        const service::StageTimes* stages = nullptr) {
  nlohmann::ordered_json j;
  j["frame"] = frame;
  if (rec.file[0] != '\0') j["file"] = rec.file.data();
  j["timestamp_ns"] = rec.timestamp_ns;
  if (std::string(key) == "dropped" || std::string(key) == "aborted") j[key] = true;
  else j[key] = value;
  add_stages(j, stages);
  return j.dump();
}

cv::Mat image_as_bgr(ImageView view) {
  const int w = static_cast<int>(view.width()), h = static_cast<int>(view.height());
  cv::Mat out;
  switch (view.format()) {
    case ImageFormat::bgr24: cv::Mat(h, w, CV_8UC3, view.plane(0), view.stride(0)).copyTo(out); break;
    case ImageFormat::rgb24: cv::cvtColor(cv::Mat(h, w, CV_8UC3, view.plane(0), view.stride(0)), out, cv::COLOR_RGB2BGR); break;
    case ImageFormat::gray8: cv::cvtColor(cv::Mat(h, w, CV_8UC1, view.plane(0), view.stride(0)), out, cv::COLOR_GRAY2BGR); break;
    case ImageFormat::nv12: {
      cv::Mat yuv(h * 3 / 2, w, CV_8UC1);
      for (int r = 0; r < h; ++r) std::memcpy(yuv.ptr(r), view.plane(0) + r * view.stride(0), static_cast<std::size_t>(w));
      for (int r = 0; r < h / 2; ++r) std::memcpy(yuv.ptr(h + r), view.plane(1) + r * view.stride(1), static_cast<std::size_t>(w));
      cv::cvtColor(yuv, out, cv::COLOR_YUV2BGR_NV12);
      break;
    }
  }
  return out;
}

/// One-line progress on a terminal: frames, fps, ETA.
class Progress {
 public:
  Progress(bool enabled, std::int64_t total) : enabled_(enabled), total_(total), start_(std::chrono::steady_clock::now()) {}
  void update(std::uint64_t done, bool force = false) {
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (!force && now - last_ < 200ms) return;
    last_ = now;
    const double secs = std::chrono::duration<double>(now - start_).count();
    const double fps = secs > 0 ? static_cast<double>(done) / secs : 0;
    char line[160];
    if (total_ > 0) {
      const double frac = std::min(1.0, static_cast<double>(done) / static_cast<double>(total_));
      const int width = 30, filled = static_cast<int>(frac * width);
      std::string bar(static_cast<std::size_t>(filled), '=');
      if (filled < width) bar += '>' + std::string(static_cast<std::size_t>(width - filled - 1), ' ');
      const double eta = fps > 0 ? static_cast<double>(total_ - static_cast<std::int64_t>(done)) / fps : 0;
      std::snprintf(line, sizeof(line), "\r[%s] %llu/%lld frames  %.1f fps  ETA %.0fs   ", bar.c_str(),
                    static_cast<unsigned long long>(done), static_cast<long long>(total_), fps, std::max(0.0, eta));
    } else {
      std::snprintf(line, sizeof(line), "\r%llu frames  %.1f fps   ", static_cast<unsigned long long>(done), fps);
    }
    std::cerr << line << std::flush;
  }
  void finish(std::uint64_t done) {
    if (!enabled_) return;
    update(done, true);
    std::cerr << '\n';
  }

 private:
  bool enabled_;
  std::int64_t total_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_{};
};

bool is_mqtt_url(const std::string& spec) { return spec.rfind("mqtt://", 0) == 0 || spec.rfind("mqtts://", 0) == 0; }

/// A graph name as one path component: letters, digits, '-', '_', and a '.' right after a letter or digit;
/// anything else ('/', a leading dot, "..") becomes '_', so the default output directory stays under out/.
std::string path_safe(const std::string& name) {
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); };
  std::string out;
  for (char c : name) {
    const bool ok = alnum(c) || c == '-' || c == '_' || (c == '.' && !out.empty() && alnum(out.back()));
    out += ok ? c : '_';
  }
  return out.empty() ? std::string("graph") : out;
}

/// The data object a graph parameter's node binds at its parameter, or null.
const yaml::DataDesc* data_of(const yaml::GraphDesc& desc, const yaml::GraphParameterDesc& gp) {
  const yaml::NodeDesc* node = desc.find_node(gp.node);
  if (!node) return nullptr;
  for (const auto& b : node->bindings)
    if (b.param == gp.param) return desc.find_data(b.data);
  return nullptr;
}

/// The graph's 'input' parameter, with a message naming what the run needs when it is missing.
yaml::GraphParameterDesc& input_parameter(yaml::GraphDesc& desc) {
  yaml::GraphParameterDesc* input = desc.find_graph_parameter("input");
  if (!input)
    throw yaml::LoadError(desc.position, "graph_parameters",
                          "'visiongraph run' needs a graph parameter named 'input' (the image it feeds), and reads "
                          "'detections' and 'annotated' when present");
  return *input;
}

/// Source options from the graph: ask the source for the pixel format the input takes, so a source
/// that already produces it (a camera's NV12) is imported without a conversion.
io::SourceOptions source_options(const RunOptions& opt, const yaml::DataDesc* input) {
  io::SourceOptions o;
  if (input && input->meta.kind == DataKind::image) o.format = input->meta.image.format;
  else o.format = ImageFormat::rgb24;  // an image-shaped tensor input: models take RGB
  o.reconnect = opt.reconnect;
  return o;
}

/// Latest-wins for live or paced input; buffers enough that the producer always has one to fill.
void adapt_to_source(yaml::GraphDesc& desc, yaml::GraphParameterDesc& input, const io::SourceInfo& info, bool latest_wins) {
  desc.set_auto_size(info.width, info.height);
  input.policy = latest_wins ? InputPolicy::latest_wins : InputPolicy::block;
  std::size_t depth = desc.pipeline_depth;
  if (depth == 0) {
    // As verify counts it: one frame per target used, plus one per extra replica of a replicated node.
    std::vector<std::string> targets;
    std::size_t extra_replicas = 0;
    for (const auto& n : desc.nodes) {
      if (std::find(targets.begin(), targets.end(), n.target) == targets.end()) targets.push_back(n.target);
      if (!n.replica_targets.empty()) extra_replicas += n.replica_targets.size() - 1;
    }
    depth = std::max<std::size_t>(targets.size() + extra_replicas, 3);
  }
  // One buffer per frame in flight, one per queue slot, one being filled.
  input.buffers = std::max(input.buffers, depth + input.queue_capacity + 1);
}

yaml::BuildOptions build_options(const RunOptions& opt) {
  yaml::BuildOptions build = default_build_options();
  build.allow_module_libraries = !opt.no_plugins;
  if (!opt.assets.empty()) build.variables["VG_ASSETS_DIR"] = opt.assets;
  for (const auto& [k, v] : opt.variables) build.variables[k] = v;
  bool use_dmabuf = opt.dmabuf;
#if VG_CLI_HAVE_NPU
  // On a board the NPU reads frames in place: default to DMA-BUF memory when the device is there.
  if (!opt.dmabuf && !opt.no_dmabuf) use_dmabuf = npu::NpuDevice::open().has_value();
#endif
  if (use_dmabuf) {
#if VG_CLI_HAVE_INFERENCE && VG_CLI_HAVE_NPU
    build.prepare_context = [](Context& ctx) -> std::shared_ptr<void> {
      // Every NPU target (npu0, npu1, ... and the replicas on them) reads frames from DMA-BUF memory.
      std::shared_ptr<inference::NpuAllocatorInstallation> memory = inference::install_npu_allocator(ctx);
      std::string targets;
      for (const std::string& t : memory->targets()) targets += (targets.empty() ? "" : ", ") + t;
      std::cerr << "NPU memory (" << targets << "): " << memory->kind()
                << (memory->reason().empty() ? std::string() : " (" + memory->reason() + ")") << '\n';
      return memory;
    };
#else
    throw std::runtime_error("--dmabuf needs a build with the NPU layer (-DVG_BUILD_NPU=ON)");
#endif
  }
  return build;
}

/// The graph parameters the run reads, checked against what it can write.
struct RunParams {
  GraphParamId input, detections, annotated;
  std::vector<std::pair<std::string, GraphParamId>> written;  ///< --write NAME: files per frame
};

/// The graph parameters the run itself feeds or writes: the input, detections.jsonl, the annotated video.
bool handled_by_run(const std::string& name) { return name == "input" || name == "detections" || name == "annotated"; }

/// True when @p gp exposes an output of its node (the run must take its buffers back every frame).
bool is_output_parameter(yaml::LoadedGraph& loaded, const yaml::GraphParameterDesc& gp) {
  if (const KernelInfo* k = loaded.context().find_kernel(loaded.graph().node_kernel(loaded.node(gp.node))))
    for (const auto& param : k->decl.params())
      if (param.name == gp.param) return param.direction != Direction::input;
  return false;
}

/// --write NAME: an output graph parameter other than the ones the run already writes.
GraphParamId written_parameter(yaml::LoadedGraph& loaded, const yaml::GraphDesc& desc, const std::string& name) {
  if (handled_by_run(name))
    throw UsageError("--write " + name + ": '" + name + "' is already handled by the run (" +
                             (name == "input" ? "it is the input" : name == "detections" ? "detections.jsonl" : "the annotated video") + ")");
  const GraphParamId id = loaded.graph_parameter(name);
  if (!id.valid()) {
    std::string names;
    for (const auto& gp : desc.graph_parameters) names += (names.empty() ? "" : ", ") + gp.name;
    std::vector<std::string> known;
    for (const auto& gp : desc.graph_parameters) known.push_back(gp.name);
    std::string hint = did_you_mean(name, known);
    throw UsageError("--write " + name + ": the graph has no graph parameter '" + name + "'" +
                     (hint.empty() ? std::string() : " (" + hint + ")") + "; it has: " + names +
                     " (expose a node's output under graph_parameters: to write it)");
  }
  // Only outputs: an input's buffers are the application's to fill.
  const yaml::GraphParameterDesc& gp = *desc.find_graph_parameter(name);
  if (!is_output_parameter(loaded, gp))
    throw UsageError("--write " + name + ": '" + name + "' is an input of node '" + gp.node +
                     "'; only outputs can be written");
  return id;
}

RunParams check_params(yaml::LoadedGraph& loaded, const yaml::GraphDesc& desc, const std::vector<std::string>& write) {
  const Graph& graph = loaded.graph();
  RunParams p{loaded.graph_parameter("input"), loaded.graph_parameter("detections"), loaded.graph_parameter("annotated"), {}};
  for (const std::string& name : write) p.written.emplace_back(name, written_parameter(loaded, desc, name));
  // An output nobody reads would keep every one of its buffers after the first frames, and the graph would
  // wait for one for ever (0 frames, no message): refuse it before anything runs, naming it.
  for (const yaml::GraphParameterDesc& gp : desc.graph_parameters) {
    if (handled_by_run(gp.name)) continue;
    if (std::find(write.begin(), write.end(), gp.name) != write.end() || !is_output_parameter(loaded, gp)) continue;
    throw yaml::LoadError(gp.position, gp.name,
                          "graph parameter '" + gp.name + "' (node '" + gp.node + "', '" + gp.param +
                              "') is an output that 'visiongraph run' does not read, so the graph would stall once its "
                              "buffers are all taken; add --write " + gp.name +
                              " to write it per frame, or remove it from graph_parameters");
  }
  const DataMeta& in = graph.meta(graph.data_of(p.input));
  if (in.kind != DataKind::image && in.kind != DataKind::tensor)
    throw yaml::LoadError(desc.find_graph_parameter("input")->position, "input",
                          "the 'input' graph parameter must be an image (or an image-shaped u8 tensor)");
  if (p.detections.valid()) {
    const DataMeta& m = graph.meta(graph.data_of(p.detections));
    if (m.kind != DataKind::user_data || m.user_data.size != sizeof(detection::DetectionPacket))
      throw yaml::LoadError(desc.find_graph_parameter("detections")->position, "detections",
                            "the 'detections' graph parameter must be a DetectionPacket (user_data, " +
                                std::to_string(sizeof(detection::DetectionPacket)) + " bytes), got " + m.describe());
  }
  if (p.annotated.valid() && graph.meta(graph.data_of(p.annotated)).kind != DataKind::image)
    throw yaml::LoadError(desc.find_graph_parameter("annotated")->position, "annotated",
                          "the 'annotated' graph parameter must be an image");
  return p;
}

/// Where a run's results go: detections.jsonl and the annotated video (or one PNG per input image), and
/// the files of every --write graph parameter. The constructor checks every output before it opens or
/// truncates anything in the output folder (the encoder and its plugins, the RTSP port, the folder being
/// writable), so a run that cannot start leaves the previous run's results alone.
class RunOutputs {
 public:
  RunOutputs(const Graph& graph, const RunParams& params, const fs::path& dir, bool images, double fps,
             std::vector<mqtt::MqttPublisher*> publishers = {}, bool to_stdout = false, std::string serve_rtsp = {},
             std::string h264_encoder = "auto")
      : dir_(dir), annotated_(params.annotated.valid()), images_(images), fps_(fps > 0 ? fps : 25.0),
        serve_rtsp_(std::move(serve_rtsp)) {
    video_options_.encoder.element = std::move(h264_encoder);
    if (annotated_ && !images_) {
      const ImageMeta& m = graph.meta(graph.data_of(params.annotated)).image;
      io::VideoWriter::check((dir / "annotated.mp4").string(), m.width, m.height, fps_, m.format, video_options_);
      if (!serve_rtsp_.empty()) start_rtsp(m);  // binds the port now: a port in use fails the start
    }
    if (::access(dir.c_str(), W_OK) != 0)
      throw std::runtime_error("cannot write in '" + dir.string() + "': " + std::strerror(errno));
    // Every check passed: only now is anything in the folder created or truncated.
    for (const auto& [name, id] : params.written)
      writers_.push_back(std::make_unique<io::DataWriter>(graph, graph.data_of(id), dir, name));
    if (params.detections.valid())
      jsonl_ = std::make_unique<JsonLinesWriter>(dir / "detections.jsonl", std::move(publishers), to_stdout);
  }
  /// The process is about to end without unwinding (a stuck kernel): the JSON lines held back go out.
  void flush_before_exit() noexcept {
    if (jsonl_) jsonl_->flush_before_exit(std::chrono::milliseconds(500));
  }
  /// The --write graph parameters' writers, in the order of RunParams::written.
  io::DataWriter& writer(std::size_t i) { return *writers_[i]; }
  /// A frame replaced by a newer one (latest-wins) or refused by the input queue.
  void dropped(std::uint64_t frame, const FrameRecord& rec) {
    if (jsonl_) jsonl_->put(frame, status_json(frame, rec, "dropped", ""));
  }
  /// A frame read but abandoned because the run stopped (a signal, a failure, a faulted target).
  void aborted(std::uint64_t frame, const FrameRecord& rec) {
    if (jsonl_) jsonl_->put(frame, status_json(frame, rec, "aborted", ""));
  }
  void failed(std::uint64_t frame, const FrameRecord& rec, const std::string& why,
              const service::StageTimes* stages = nullptr) {
    if (jsonl_) jsonl_->put(frame, status_json(frame, rec, "error", why, stages));
  }
  void detections(std::uint64_t frame, const FrameRecord& rec, const detection::DetectionPacket& pkt,
                  const service::StageTimes* stages = nullptr) {
    if (jsonl_) jsonl_->put(frame, detections_json(frame, rec, pkt, stages));
  }
  void annotated(ImageView view, const std::string& name, std::int64_t pts_ns) {
    if (images_) {
      const fs::path file = dir_ / png_name(name);
      if (!cv::imwrite(file.string(), image_as_bgr(view))) throw std::runtime_error("cannot write '" + file.string() + "'");
      return;
    }
    // H.264 in a fragmented MP4 through GStreamer: the frame is copied into the writer's fixed ring and
    // encoded on its own thread; memory stays flat and a crash leaves a playable file.
    if (!video_)
      video_ = io::VideoWriter::open((dir_ / "annotated.mp4").string(), view.width(), view.height(), fps_, view.format(),
                                     video_options_);
    if (video_->write(view.plane(0), view.stride(0), pts_ns) == Status::io_error) throw std::runtime_error(video_->error());
    if (rtsp_) (void)rtsp_->push(view.plane(0), view.stride(0), pts_ns);  // never blocks; drops and viewers counted
  }
  /// The annotated image of input file NAME: STEM.png, or NAME.png when another input of this run had the
  /// same stem (a.jpg and a.png give a.png and a.png.png), so no output replaces another.
  std::string png_name(const std::string& name) {
    const std::string stem = fs::path(name).stem().string();
    std::string out = (used_png_stems_.insert(stem).second ? stem : name) + ".png";
    if (!used_png_names_.insert(out).second) out = name + "." + std::to_string(used_png_names_.size()) + ".png";
    used_png_names_.insert(out);
    return out;
  }
  /// Finishes every output; returns what failed, one message per output (empty: all written). Each
  /// output is closed whatever the others did, so every failing one is named, not only the first.
  std::vector<std::string> close() {
    std::vector<std::string> failed;
    if (rtsp_) (void)rtsp_->stop();
    if (jsonl_) {
      try {
        jsonl_->flush();
      } catch (const std::exception&) {  // named below, once
      }
      if (const std::string e = jsonl_->file_error(); !e.empty()) failed.push_back(e);
    }
    for (auto& w : writers_) {
      try {
        w->close();
      } catch (const std::exception& e) {
        failed.emplace_back(e.what());
      }
    }
    if (video_ && video_->close() != Status::ok) failed.push_back(video_->error());
    return failed;
  }
  std::string describe() const {
    std::string s = jsonl_ ? " detections.jsonl" : "";
    s += " trace.json";
    // No frame completed, no video: say so rather than name a file that is not there.
    if (annotated_) s += images_ ? ", one annotated PNG per input image (same name)" : video_ ? ", annotated.mp4 (H.264 by " + video_->info().encoder + ")" : " (no annotated.mp4: no frame completed)";
    for (const auto& w : writers_) s += ", " + w->path().filename().string() + " (" + std::to_string(w->written()) + " frames)";
    if (video_ && video_->stats().dropped > 0)
      s += " (" + std::to_string(video_->stats().dropped) + " frames dropped: the encoder fell behind)";
    if (rtsp_) {
      const io::RtspOutputStats r = rtsp_->stats();
      s += "; served " + rtsp_->url() + ": " + std::to_string(r.sent) + " frames sent, " + std::to_string(r.unwatched) +
           " unwatched, " + std::to_string(r.dropped) + " dropped";
    }
    return s;
  }

 private:
  fs::path dir_;
  bool annotated_, images_;
  double fps_;
  // --serve-rtsp [ADDRESS:]PORT: the annotated video live over RTSP (127.0.0.1 unless an address is given).
  void start_rtsp(const ImageMeta& image) {
    io::RtspOutputOptions o;
    o.encoder.element = video_options_.encoder.element;
    std::string port = serve_rtsp_;
    if (const auto colon = port.rfind(':'); colon != std::string::npos) {
      o.bind_address = port.substr(0, colon);
      port = port.substr(colon + 1);
    }
    o.port = static_cast<std::uint16_t>(std::stoul(port));
    rtsp_ = io::RtspOutput::start(image.width, image.height, fps_, image.format, o);
    std::cerr << "visiongraph run: serving the annotated video at " << rtsp_->url() << " (H.264 by "
              << rtsp_->encoder() << ")" << std::endl;
  }

  std::unique_ptr<JsonLinesWriter> jsonl_;
  std::set<std::string> used_png_stems_, used_png_names_;  // image inputs (one reclaim thread writes them)
  std::unique_ptr<io::VideoWriter> video_;
  io::VideoWriterOptions video_options_;  // the H.264 encoder element (--h264-encoder), else the defaults
  std::string serve_rtsp_;
  std::unique_ptr<io::RtspOutput> rtsp_;
  std::vector<std::unique_ptr<io::DataWriter>> writers_;
};

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

/// Detections thread: each frame's detections leave (JSONL, MQTT, stdout) as soon as the node producing
/// them has finished, without waiting for the overlay or other nodes of the frame. Returns when the
/// graph is stopped and every buffer is back. With @p newest (--stage-times) each line carries the
/// frame's stages up to the detections, and @p newest keeps the last for `stats`.
void publish_detections(Graph& graph, const RunParams& p, RunOutputs& out, FramesInFlight& in_flight,
                        NewestStages* newest) {
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
void reclaim_frames(Graph& graph, io::GraphInput& input, const RunParams& p, RunOutputs& out, RunCounts& counts,
                    FramesInFlight& in_flight, std::int64_t base_ns, Progress& progress,
                    const std::atomic<bool>& producing, std::string& fault) {
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
            std::cerr << "visiongraph run: " << fault << '\n';
            g_stop_reading.store(true);
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
    progress.update(++counts.resolved);
  }
}

/// Producer: read frames and hand them to the graph until the source ends, fails or is interrupted.
/// Returns the source's error ("" at a normal end).
std::string produce(io::Source& source, io::GraphInput& input, const RunOptions& opt, RunOutputs& out,
                    RunCounts& counts, FramesInFlight& in_flight, const ImageMeta& graph_input, std::int64_t base_ns) {
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
        std::cerr << "visiongraph run: skipped " << why << " (--allow-partial)\n";
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
      if (pushed == Status::stopped) return "";
      if (!keep_reading()) return "";
      if (pushed != Status::rejected && pushed != Status::timeout && pushed != Status::busy)
        return info.spec + ": frame " + std::to_string(sequence) + " could not enter the graph: " +
               std::string(to_string(pushed));
    }
  }
  return "";
}

/// One stderr line when a live input or an MQTT publisher loses its connection, stalls or reconnects, so
/// an outage shows while it happens rather than only in the summary. At most one line per connection
/// every 5 s; events in between are counted into the next line. Called from one thread (the watchdog's).
class ConnectionLog {
 public:
  ConnectionLog(const io::Source& source, std::vector<mqtt::MqttPublisher*> publishers)
      : source_(source), publishers_(std::move(publishers)), mqtt_(publishers_.size()) {}
  void poll() {
    const io::SourceStats s = source_.stats();
    const std::string& spec = source_.info().spec;
    if (s.errors > input_.errors) {  // lost (an error, an end, a stall): the source reconnects if asked to
      std::string why = source_.error();
      if (why.rfind(spec + ": ", 0) == 0) why.erase(0, spec.size() + 2);
      note(input_, spec + ": lost: " + why + "; reconnecting");
      input_.down = true;
      input_.frames = s.frames;
    } else if (input_.down && s.frames > input_.frames) {  // frames again: always said, once per outage
      input_.last_line = {};
      note(input_, spec + ": receiving again (" + std::to_string(s.reconnects) + " reconnect attempt(s) so far)");
      input_.down = false;
    }
    input_.errors = s.errors;
    for (std::size_t i = 0; i < publishers_.size(); ++i) {
      const mqtt::MqttPublisherStats p = publishers_[i]->stats();
      Watched& w = mqtt_[i];
      const std::string& url = publishers_[i]->endpoint().url;
      if (w.connected && !p.connected) note(w, url + ": connection lost" + (p.last_error.empty() ? "" : " (" + p.last_error + ")") + "; messages wait in the outbox");
      else if (!w.connected && p.connected && p.connections > 1) note(w, url + ": reconnected");
      w.connected = p.connected;
    }
  }

 private:
  struct Watched {
    std::uint64_t errors = 0, frames = 0;
    bool down = false;
    bool connected = true;  // publishers: assume up until seen down (the first connect is not news)
    std::chrono::steady_clock::time_point last_line{};
    std::uint64_t held_back = 0;
  };
  static void note(Watched& w, const std::string& what) {
    const auto now = std::chrono::steady_clock::now();
    if (now - w.last_line < 5s) {
      ++w.held_back;
      return;
    }
    std::cerr << "visiongraph run: " << what;
    if (w.held_back > 0) std::cerr << " (" << w.held_back << " more event(s) since the last line)";
    std::cerr << '\n';
    w.last_line = now;
    w.held_back = 0;
  }
  const io::Source& source_;
  std::vector<mqtt::MqttPublisher*> publishers_;
  Watched input_;
  std::vector<Watched> mqtt_;
};

/// Ends the process without waiting for a stop that cannot finish (a kernel that never returns, no
/// deadline): on a third signal, or when the stop has outlasted --drain-timeout + --stop-timeout. It names
/// the nodes still running, sends out the JSON lines held back and writes trace.json, then exits with 1.
class StopWatchdog {
 public:
  /// @p every_half_second runs on the watchdog's thread twice a second (the connection log).
  StopWatchdog(const Graph& graph, RunOutputs& outputs, fs::path trace, const RunOptions& opt,
               std::function<void()> every_half_second = {})
      : graph_(graph), outputs_(outputs), trace_(std::move(trace)), limit_(opt.drain_timeout + opt.stop_timeout),
        max_rss_(opt.max_rss_bytes), rss_start_(service::resident_memory_bytes()),
        every_half_second_(std::move(every_half_second)), thread_([this] { watch(); }) {}
  /// No more calls of the half-second hook once this returns (what it reads is about to go).
  void stop_polling() {
    std::lock_guard lock(polling_mu_);
    every_half_second_ = nullptr;
  }
  /// Why --max-rss ended the run ("" when it did not).
  std::string memory_exceeded() const {
    std::lock_guard lock(mu_);
    return memory_exceeded_;
  }
  ~StopWatchdog() {
    done_.store(true);
    thread_.join();
  }
  StopWatchdog(const StopWatchdog&) = delete;
  StopWatchdog& operator=(const StopWatchdog&) = delete;

 private:
  void watch() {
    std::optional<std::chrono::steady_clock::time_point> stopping_since;
    int ticks = 0;
    while (!done_.load()) {
      std::this_thread::sleep_for(50ms);
      if (++ticks % 10 == 0) {
        if (max_rss_ > 0) check_memory();
        std::lock_guard lock(polling_mu_);
        if (every_half_second_) every_half_second_();
      }
      if (!stopping_since && (interrupted() || g_stop_reading.load())) stopping_since = std::chrono::steady_clock::now();
      if (g_signals.load() >= 3) end_now("a third signal");
      if (stopping_since && std::chrono::steady_clock::now() - *stopping_since > limit_)
        end_now("the stop took longer than --drain-timeout + --stop-timeout");
    }
  }
  // --max-rss: twice a second; the first time past the limit stops reading (the run then ends, exit 1).
  void check_memory() {
    const std::int64_t rss = service::resident_memory_bytes();
    if (rss <= max_rss_ || g_stop_reading.load()) return;
    char text[200];
    std::snprintf(text, sizeof text,
                  "resident memory %.1f MiB passed --max-rss %.1f MiB (it grew by %.1f MiB since the graph started)",
                  static_cast<double>(rss) / 1048576.0, static_cast<double>(max_rss_) / 1048576.0,
                  static_cast<double>(rss - rss_start_) / 1048576.0);
    {
      std::lock_guard lock(mu_);
      memory_exceeded_ = text;
    }
    std::cerr << "visiongraph run: " << text << "; ending the run\n";
    g_stop_reading.store(true);
  }
  [[noreturn]] void end_now(const char* why) noexcept {
    std::string running;
    try {
      for (const NodeStats& n : graph_.stats().nodes) {
        if (n.running_ns <= 0 || !n.replica_of.empty()) continue;
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%.1f s", static_cast<double>(n.running_ns) / 1e9);
        running += (running.empty() ? "" : ", ") + std::string("node '") + n.name + "' (kernel '" + n.kernel + "' on " +
                   n.target + ", running for " + seconds + ")";
      }
      std::cerr << "\nvisiongraph run: " << why << ": ending the process without waiting for the frames in flight; "
                << (running.empty() ? std::string("no node is running") : "still running: " + running) << '\n';
      outputs_.flush_before_exit();
      std::ofstream trace(trace_);
      graph_.write_trace(trace);
      trace.flush();
      if (!trace) std::cerr << "visiongraph run: writing '" << trace_.string() << "' failed\n";
      std::cerr << "visiongraph run: detections.jsonl holds every line written so far; trace.json written\n";
    } catch (...) {  // ending anyway: what could be written was
    }
    std::cerr.flush();
    std::cout.flush();
    std::_Exit(1);
  }
  const Graph& graph_;
  RunOutputs& outputs_;
  fs::path trace_;
  std::chrono::milliseconds limit_;
  std::int64_t max_rss_;
  std::int64_t rss_start_;
  std::mutex polling_mu_;
  std::function<void()> every_half_second_;
  mutable std::mutex mu_;
  std::string memory_exceeded_;
  std::atomic<bool> done_{false};
  std::thread thread_;
};

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

}  // namespace

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
  check_endpoints(opt);
  // A crashing kernel still gets named: the node, its target and the frame on the crashing thread.
  service::install_crash_report("visiongraph run");
  // ---- the graph file and the source, adjusted to each other ----
  yaml::GraphDesc desc = yaml::parse_file(opt.graph);
  if (opt.no_plugins) refuse_code_loading(desc);
  yaml::GraphParameterDesc& input_desc = input_parameter(desc);
  std::unique_ptr<io::Source> source;
  try {
    source = io::Source::open(opt.input, source_options(opt, data_of(desc, input_desc)));
  } catch (const std::exception& e) {
    std::cerr << "visiongraph run: " << e.what() << '\n';
    return 1;
  }
  const io::SourceInfo info = source->info();
  const bool images = info.kind == io::SourceKind::image || info.kind == io::SourceKind::image_dir;
  if (images && !opt.serve_rtsp.empty())
    throw UsageError("--serve-rtsp serves the annotated video of a video, stream or camera input; '" + opt.input +
                     "' is " + (info.kind == io::SourceKind::image ? "an image" : "a folder of images") +
                     " (its annotated images are written as PNG files)");
  adapt_to_source(desc, input_desc, info, info.live || opt.realtime);
  auto loaded = yaml::build(desc, build_options(opt));
  Graph& graph = loaded->graph();
  const RunParams params = check_params(*loaded, desc, opt.write);
  // What each node chose at verify where it had a choice (RGA or the CPU, ...), so the log says it.
  for (const std::string& line : service::engine_report(graph, loaded->context()))
    std::cerr << "visiongraph run: " << line << '\n';

  // ---- outputs ----
  const fs::path out_dir = opt.output_dir.empty() ? fs::path("out") / path_safe(graph.name()) : fs::path(opt.output_dir);
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) {
    std::cerr << "visiongraph run: cannot create output directory '" << out_dir.string() << "': " << ec.message() << '\n';
    return 1;
  }
  // The run's figures, for `ctl SOCK stats`, the MQTT control channel and --metrics (any thread).
  RunCounts counts;
  NewestStages newest_stages;
  const std::int64_t run_started_ns = now_ns();
  std::atomic<std::int64_t> resident_at_start{0};
  auto run_counters = [&]() {
    service::RunCounters r;
    r.source = info.spec;
    r.live = info.live;
    r.frames_read = counts.read.load();
    r.frames_resolved = counts.resolved.load();
    r.frames_failed = counts.failed.load();
    r.frames_dropped = counts.dropped.load();
    const io::SourceStats src = source->stats();
    r.source_dropped = src.dropped;
    r.reconnects = src.reconnects;
    r.uptime_seconds = static_cast<double>(now_ns() - run_started_ns) / 1e9;
    r.resident_bytes = service::resident_memory_bytes();
    r.resident_bytes_start = resident_at_start.load();
    r.last_frame = newest_stages.get();
    return r;
  };
  Context& ctx = loaded->context();
  // One answer for every control transport: the kernels' commands, `help`, and `stats` (JSON).
  auto answer = [&](std::string_view line) -> std::string {
    std::string_view request = line;
    while (!request.empty() && (request.front() == ' ' || request.front() == '\t')) request.remove_prefix(1);
    while (!request.empty() && (request.back() == ' ' || request.back() == '\t' || request.back() == '\r')) request.remove_suffix(1);
    if (request == "stats") return "ok " + service::stats_json(graph.stats(), run_counters());
    return service::answer_control_request(graph, ctx, line);
  };
  // Control: Unix sockets and MQTT topics, the same commands and replies on each.
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
    metrics = std::make_unique<service::MetricsServer>(
        [&] { return service::prometheus_text(graph.stats(), run_counters()); });
    std::string address = "127.0.0.1", port = opt.metrics;
    if (const auto colon = port.rfind(':'); colon != std::string::npos) {
      address = port.substr(0, colon);
      port = port.substr(colon + 1);
    }
    metrics->start(address, static_cast<std::uint16_t>(std::stoul(port)));
    std::cerr << "visiongraph run: metrics at " << metrics->url() << std::endl;
  }
  // Results out: MQTT publishers (never blocking the run) and standard output.
  std::vector<std::unique_ptr<mqtt::MqttPublisher>> publishers;
  bool publish_stdout = false;
  for (const std::string& spec : opt.publish) {
    if (spec == "-") {
      publish_stdout = true;
      continue;
    }
    mqtt::MqttOptions o = opt.mqtt;
    if (!o.client_id.empty() && !publishers.empty()) o.client_id += "-" + std::to_string(publishers.size());
    publishers.push_back(std::make_unique<mqtt::MqttPublisher>(spec, o));
  }
  std::vector<mqtt::MqttPublisher*> publisher_ptrs;
  for (auto& p : publishers) publisher_ptrs.push_back(p.get());
  // With --publish -, standard output carries only the JSON lines: the report goes to standard error.
  std::ostream& report = publish_stdout ? std::cerr : std::cout;

  // ---- streaming ----
  std::vector<GraphParamId> outputs_to_fill{params.detections, params.annotated};
  for (const auto& w : params.written) outputs_to_fill.push_back(w.second);
  for (GraphParamId out : outputs_to_fill) {
    if (!out.valid()) continue;
    for (std::uint32_t i = 0; i < graph.num_buffers(graph.data_of(out)); ++i)
      if (graph.enqueue(out, i) != Status::ok) throw std::runtime_error("cannot hand output buffers to the graph");
  }
  io::GraphInput input(graph, params.input);
  if (graph.start() != Status::ok) throw std::runtime_error("cannot start the graph");
  resident_at_start.store(service::resident_memory_bytes());
  // Only now are the previous run's outputs replaced: a run that fails to start leaves them alone.
  RunOutputs outputs(graph, params, out_dir, images, info.fps, publisher_ptrs, publish_stdout, opt.serve_rtsp,
                     opt.h264_encoder);
  ConnectionLog connection_log(*source, publisher_ptrs);
  StopWatchdog watchdog(graph, outputs, out_dir / "trace.json", opt, [&connection_log] { connection_log.poll(); });
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  std::signal(SIGPIPE, SIG_IGN);  // a closed reader is a write error, reported, not a silent death
  const std::int64_t total = opt.frames >= 0 && info.length >= 0 ? std::min<std::int64_t>(opt.frames, info.length)
                                                                  : (opt.frames >= 0 ? opt.frames : info.length);
  Progress progress(opt.progress && ::isatty(STDERR_FILENO), total);
  std::atomic<bool> producing{true};
  const std::int64_t base_ns = now_ns();
  // Two consumers: detections leave as soon as their node finishes; frames are reclaimed when complete.
  // Either failing (an output that cannot be written) stops the run: reading stops, frames are abandoned.
  std::mutex error_mu;
  std::string consumer_error;
  auto fail_run = [&](const std::exception& e) {
    {
      std::lock_guard lock(error_mu);
      if (consumer_error.empty()) consumer_error = e.what();
    }
    g_signals.fetch_add(1);
    (void)graph.stop(StopMode::abandon);
  };
  FramesInFlight in_flight;
  std::thread detections_thread;
  // After a failure each consumer goes on (the graph is stopping), so every frame read still gets its line.
  auto consume_until_done = [&](auto consume) {
    for (;;) {
      try {
        consume();
        return;
      } catch (const std::exception& e) {
        fail_run(e);
      }
    }
  };
  if (params.detections.valid())
    detections_thread = std::thread([&] {
      consume_until_done([&] { publish_detections(graph, params, outputs, in_flight, opt.stage_times ? &newest_stages : nullptr); });
    });
  std::atomic<bool> consumer_done{false};
  std::string fault;  // a target faulted by a node past its deadline (written by the reclaim thread only)
  std::thread consumer([&] {
    consume_until_done([&] { reclaim_frames(graph, input, params, outputs, counts, in_flight, base_ns, progress, producing, fault); });
    consumer_done.store(true);
  });
  std::string source_error;
  try {
    const DataMeta& in_meta = graph.meta(graph.data_of(params.input));
    source_error = produce(*source, input, opt, outputs, counts, in_flight,
                           in_meta.kind == DataKind::image ? in_meta.image : ImageMeta{}, base_ns);
  } catch (const std::exception& e) {
    source_error = e.what();
  }
  producing.store(false);
  // Frames in flight finish. After a signal they get at most --drain-timeout; a second signal abandons
  // them at once. Either way the outputs below are written.
  const auto drain_until = std::chrono::steady_clock::now() + opt.drain_timeout;
  bool abandoned = false;
  while (!consumer_done.load()) {
    const bool give_up = g_signals.load() >= 2 || (interrupted() && std::chrono::steady_clock::now() > drain_until);
    if (give_up && !abandoned) {
      std::cerr << "visiongraph run: abandoning the frames in flight\n";
      (void)graph.stop(StopMode::abandon);
      abandoned = true;
    }
    std::this_thread::sleep_for(20ms);
  }
  consumer.join();
  (void)graph.stop(StopMode::drain);
  if (detections_thread.joinable()) detections_thread.join();  // every detections buffer is back
  source->close();
  for (auto& socket : sockets) socket->stop();
  if (metrics) metrics->stop();
  for (auto& channel : channels) channel->close();
  progress.finish(counts.resolved.load());

  std::vector<std::string> output_errors = outputs.close();
  // trace.json is written beside and renamed into place: it is whole or absent, never 0 bytes.
  {
    const fs::path trace_path = out_dir / "trace.json", partial = out_dir / "trace.json.partial";
    std::ofstream trace(partial);
    graph.write_trace(trace);
    trace.flush();
    const bool written = static_cast<bool>(trace);
    const int err = errno;
    trace.close();
    std::error_code ec;
    if (written) fs::rename(partial, trace_path, ec);
    if (!written || ec) {
      fs::remove(partial, ec);
      fs::remove(trace_path, ec);  // an older run's trace would be taken for this one's
      output_errors.push_back("writing '" + trace_path.string() + "' failed: " + std::strerror(written ? ec.value() : err) +
                              " (no trace.json written)");
    }
  }
  report << graph.report_text();
  const GraphStats stats = graph.stats();
  const io::SourceStats src = source->stats();
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
  report << "source " << info.spec << ": " << std::string(io::to_string(info.kind)) << ", " << info.width << "x"
            << info.height << (info.dmabuf ? ", DMA-BUF" : "") << (src.converting ? ", converted by GStreamer" : "")
            << "; " << src.dropped << " dropped before the graph, " << src.reconnects << " reconnects; "
            << input.stats().imported << " frames imported without a copy, " << input.stats().converted << " converted\n";
  report << "outputs in " << out_dir.string() << ":" << outputs.describe() << "\n";
  for (auto& p : publishers) {  // what is still queued gets a moment to leave, then the counts
    (void)p->flush(2s);
    report << p->stats().summary(p->endpoint().url) << "\n";
  }
  watchdog.stop_polling();  // the connection log reads the source, which goes now
  source.reset();  // every lease is back (the graph is stopped and the input reclaimed everything)

  if (!consumer_error.empty() || !output_errors.empty()) {
    // Every output that failed is named, each once (the first failure is also what stopped the run).
    if (!consumer_error.empty() &&
        std::find(output_errors.begin(), output_errors.end(), consumer_error) == output_errors.end())
      std::cerr << "visiongraph run: " << consumer_error << '\n';
    for (const std::string& e : output_errors) std::cerr << "visiongraph run: " << e << '\n';
    return 1;
  }
  if (!fault.empty()) {
    std::cerr << "visiongraph run: stopped after " << counts.read.load() << " frame(s): " << fault << '\n';
    return 1;
  }
  if (const std::string memory = watchdog.memory_exceeded(); !memory.empty()) {
    std::cerr << "visiongraph run: stopped after " << counts.read.load() << " frame(s): " << memory << '\n';
    return 1;
  }
  if (abandoned) {
    std::cerr << "visiongraph run: stopped by a signal; " << stats.frames_aborted
              << " frame(s) in flight were abandoned (outputs hold every frame completed before)\n";
    return 1;
  }
  if (interrupted())
    std::cerr << "visiongraph run: stopped by a signal after " << counts.read.load() << " frame(s); all of them finished\n";
  if (!source_error.empty()) {
    std::cerr << "visiongraph run: the input failed after " << counts.read.load() << " frame(s): " << source_error
              << (opt.allow_partial ? " (accepted: --allow-partial)" : "") << '\n';
    if (!opt.allow_partial) return 1;
  }
  if (counts.failed.load() > 0) {
    std::cerr << "visiongraph run: " << counts.failed.load() << " frame(s) failed; last error: " << graph.last_error().describe() << '\n';
    return 1;
  }
  if (counts.read.load() == 0) {
    std::cerr << "visiongraph run: no frame was read from '" << opt.input << "'\n";
    return 1;
  }
  return 0;
}

}  // namespace vg::cli
