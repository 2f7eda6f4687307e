// `visiongraph run`: stream a source through a graph file, write detections.jsonl, annotated output,
// trace.json and print the per-node timing table.

#include "run.hpp"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>
#include <unistd.h>

#include <algorithm>
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
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "builtin_modules.hpp"
#include "control.hpp"
#include "frame_source.hpp"
#include "visiongraph/core/clock.hpp"
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

std::atomic<bool> g_interrupted{false};

extern "C" void on_interrupt(int sig) {
  g_interrupted.store(true);
  std::signal(sig, SIG_DFL);  // a second Ctrl-C ends the process at once
}

/// What the application knows about one frame it read.
struct FrameRecord {
  std::int64_t timestamp_ns = 0;
  double scale_x = 1.0;  ///< source pixels per graph-input pixel
  double scale_y = 1.0;
  std::string name;
};

/// Writes one JSON line per frame, in frame order, whatever order results arrive in. Thread-safe.
class JsonLinesWriter {
 public:
  explicit JsonLinesWriter(const fs::path& path) : out_(path) {
    if (!out_) throw std::runtime_error("cannot write '" + path.string() + "'");
  }
  void put(std::uint64_t frame, std::string line) {
    std::lock_guard lock(mu_);
    pending_.emplace(frame, std::move(line));
    while (!pending_.empty() && pending_.begin()->first == next_) {
      out_ << pending_.begin()->second << '\n';
      pending_.erase(pending_.begin());
      ++next_;
    }
  }
  void flush() {
    std::lock_guard lock(mu_);
    for (auto& [frame, line] : pending_) out_ << line << '\n';  // only if a frame never resolved
    pending_.clear();
    out_.flush();
  }

 private:
  std::mutex mu_;
  std::ofstream out_;
  std::map<std::uint64_t, std::string> pending_;
  std::uint64_t next_ = 0;
};

std::string detections_json(std::uint64_t frame, const FrameRecord& rec, const detection::DetectionPacket& pkt) {
  nlohmann::ordered_json j;
  j["frame"] = frame;
  j["timestamp_ns"] = rec.timestamp_ns;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  const std::uint32_t count = std::min<std::uint32_t>(pkt.count, detection::kMaxDetections);
  for (std::uint32_t i = 0; i < count; ++i) {
    const auto& d = pkt.items[i];
    nlohmann::ordered_json det;
    det["class_id"] = d.class_id;
    det["score"] = d.score;
    det["box"] = {d.x0 * rec.scale_x, d.y0 * rec.scale_y, d.x1 * rec.scale_x, d.y1 * rec.scale_y};
    nlohmann::ordered_json kps = nlohmann::ordered_json::array();
    const int nk = std::clamp(d.num_keypoints, 0, detection::kMaxKeypoints);
    for (int k = 0; k < nk; ++k) kps.push_back({d.keypoints[k].x * rec.scale_x, d.keypoints[k].y * rec.scale_y});
    det["keypoints"] = std::move(kps);
    list.push_back(std::move(det));
  }
  j["detections"] = std::move(list);
  if (pkt.truncated()) j["truncated"] = true;
  return j.dump();
}

std::string status_json(std::uint64_t frame, const FrameRecord& rec, const char* key, const std::string& value) {
  nlohmann::ordered_json j;
  j["frame"] = frame;
  j["timestamp_ns"] = rec.timestamp_ns;
  if (std::string(key) == "dropped") j["dropped"] = true;
  else j[key] = value;
  return j.dump();
}

/// Copy a BGR frame into a graph image buffer (bgr24, rgb24 or gray8), resizing when the sizes differ.
bool fill_image(const cv::Mat& bgr, ImageView view, FrameRecord& rec) {
  const int w = static_cast<int>(view.width()), h = static_cast<int>(view.height());
  cv::Mat src = bgr;
  if (bgr.cols != w || bgr.rows != h) {
    cv::resize(bgr, src, cv::Size(w, h), 0, 0, cv::INTER_AREA);
    rec.scale_x = static_cast<double>(bgr.cols) / w;
    rec.scale_y = static_cast<double>(bgr.rows) / h;
  }
  switch (view.format()) {
    case ImageFormat::bgr24: {
      cv::Mat dst(h, w, CV_8UC3, view.plane(0), view.stride(0));
      src.copyTo(dst);
      return true;
    }
    case ImageFormat::rgb24: {
      cv::Mat dst(h, w, CV_8UC3, view.plane(0), view.stride(0));
      cv::cvtColor(src, dst, cv::COLOR_BGR2RGB);
      return true;
    }
    case ImageFormat::gray8: {
      cv::Mat dst(h, w, CV_8UC1, view.plane(0), view.stride(0));
      cv::cvtColor(src, dst, cv::COLOR_BGR2GRAY);
      return true;
    }
    case ImageFormat::nv12: return false;
  }
  return false;
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

}  // namespace

int run_graph(const RunOptions& opt) {
  // ---- the graph file, adjusted to the source ----
  yaml::GraphDesc desc = yaml::parse_file(opt.graph);
  std::unique_ptr<FrameSource> source;
  try {
    source = FrameSource::open(opt.input);
  } catch (const std::exception& e) {
    std::cerr << "visiongraph run: " << e.what() << '\n';
    return 1;
  }
  const cv::Size size = source->size();
  desc.set_auto_size(static_cast<std::uint32_t>(size.width), static_cast<std::uint32_t>(size.height));
  yaml::GraphParameterDesc* input_desc = desc.find_graph_parameter("input");
  if (!input_desc)
    throw yaml::LoadError(desc.position, "graph_parameters",
                          "'visiongraph run' needs a graph parameter named 'input' (the image it feeds), and reads "
                          "'detections' and 'annotated' when present");
  const bool latest_wins = source->live() || opt.realtime;
  input_desc->policy = latest_wins ? InputPolicy::latest_wins : InputPolicy::block;
  if (latest_wins) {
    // Latest-wins only replaces frames if the application always has a free buffer to fill: one per
    // frame in flight, one per queue slot, one being filled.
    std::size_t depth = desc.pipeline_depth;
    if (depth == 0) {
      std::vector<std::string> targets;
      for (const auto& n : desc.nodes)
        if (std::find(targets.begin(), targets.end(), n.target) == targets.end()) targets.push_back(n.target);
      depth = std::max<std::size_t>(targets.size(), 3);
    }
    input_desc->buffers = std::max(input_desc->buffers, depth + input_desc->queue_capacity + 1);
  }

  yaml::BuildOptions build = default_build_options();
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
      std::shared_ptr<inference::NpuAllocatorInstallation> memory = inference::install_npu_allocator(ctx, "npu0");
      std::cerr << "npu0 memory: " << memory->kind()
                << (memory->reason().empty() ? std::string() : " (" + memory->reason() + ")") << '\n';
      return memory;
    };
#else
    std::cerr << "visiongraph run: --dmabuf needs a build with the NPU layer (-DVG_BUILD_NPU=ON)\n";
    return 1;
#endif
  }
  auto loaded = yaml::build(desc, build);
  Graph& graph = loaded->graph();

  const GraphParamId in_id = loaded->graph_parameter("input");
  const GraphParamId det_id = loaded->graph_parameter("detections");
  const GraphParamId ann_id = loaded->graph_parameter("annotated");
  const DataId in_data = graph.data_of(in_id);
  if (graph.meta(in_data).kind != DataKind::image)
    throw yaml::LoadError(input_desc->position, "input", "the 'input' graph parameter must be an image");
  if (graph.meta(in_data).image.format == ImageFormat::nv12)
    throw yaml::LoadError(input_desc->position, "input", "the 'input' graph parameter must be bgr24, rgb24 or gray8");
  if (det_id.valid()) {
    const DataMeta& m = graph.meta(graph.data_of(det_id));
    if (m.kind != DataKind::user_data || m.user_data.size != sizeof(detection::DetectionPacket))
      throw yaml::LoadError(desc.find_graph_parameter("detections")->position, "detections",
                            "the 'detections' graph parameter must be a DetectionPacket (user_data, " +
                                std::to_string(sizeof(detection::DetectionPacket)) + " bytes), got " + m.describe());
  }
  if (ann_id.valid() && graph.meta(graph.data_of(ann_id)).kind != DataKind::image)
    throw yaml::LoadError(desc.find_graph_parameter("annotated")->position, "annotated",
                          "the 'annotated' graph parameter must be an image");

  // ---- outputs ----
  const fs::path out_dir = opt.output_dir.empty() ? fs::path("out") / graph.name() : fs::path(opt.output_dir);
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) {
    std::cerr << "visiongraph run: cannot create output directory '" << out_dir.string() << "': " << ec.message() << '\n';
    return 1;
  }
  std::unique_ptr<JsonLinesWriter> jsonl;
  if (det_id.valid()) jsonl = std::make_unique<JsonLinesWriter>(out_dir / "detections.jsonl");
  cv::VideoWriter video;
  const fs::path video_path = out_dir / "annotated.avi";

  ControlServer control(graph, loaded->context());
  if (!opt.control.empty()) control.start(opt.control);

  // ---- streaming ----
  const std::size_t num_in = graph.num_buffers(in_data);
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::uint32_t> free_inputs;
  for (std::uint32_t i = 0; i < num_in; ++i) free_inputs.push_back(i);
  std::vector<std::uint64_t> frame_of_buffer(num_in, 0);
  std::map<std::uint64_t, FrameRecord> records;
  std::uint64_t produced = 0, resolved = 0, dropped = 0, failed = 0;
  bool producing = true;

  for (GraphParamId out : {det_id, ann_id}) {
    if (!out.valid()) continue;
    for (std::uint32_t i = 0; i < graph.num_buffers(graph.data_of(out)); ++i)
      if (graph.enqueue(out, i) != Status::ok) throw std::runtime_error("cannot hand output buffers to the graph");
  }
  if (graph.start() != Status::ok) throw std::runtime_error("cannot start the graph");

  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  Progress progress(opt.progress && ::isatty(STDERR_FILENO), opt.frames >= 0 && source->length() >= 0
                                                                   ? std::min<std::int64_t>(opt.frames, source->length())
                                                                   : (opt.frames >= 0 ? opt.frames : source->length()));
  std::string consumer_error;

  std::thread consumer([&] {
    try {
      for (;;) {
        {
          std::lock_guard lock(mu);
          if (!producing && resolved == produced) break;
        }
        DequeuedBuffer in{};
        const Status s = graph.dequeue(in_id, in, 100ms);
        if (s == Status::timeout) continue;
        if (s != Status::ok) {  // stopped
          g_interrupted.store(true);
          break;
        }
        std::uint64_t frame = 0;
        FrameRecord rec;
        {
          std::lock_guard lock(mu);
          frame = frame_of_buffer[in.index];
          rec = records[frame];
          records.erase(frame);
        }
        const bool completed = in.status == Status::ok || in.status == Status::kernel_error;
        if (!completed) {
          // dropped (latest wins), rejected or aborted before it entered the graph
          if (jsonl) jsonl->put(frame, status_json(frame, rec, "dropped", ""));
          std::lock_guard lock(mu);
          ++dropped;
        } else {
          DequeuedBuffer det{}, ann{};
          if (det_id.valid() && graph.dequeue(det_id, det, 10s) != Status::ok)
            throw std::runtime_error("the detections output did not come back");
          if (ann_id.valid() && graph.dequeue(ann_id, ann, 10s) != Status::ok)
            throw std::runtime_error("the annotated output did not come back");
          if (in.status != Status::ok) {
            if (jsonl) jsonl->put(frame, status_json(frame, rec, "error", graph.last_error().describe()));
            std::lock_guard lock(mu);
            ++failed;
          } else {
            if (jsonl) {
              const auto* pkt = graph.user_data<detection::DetectionPacket>(graph.data_of(det_id), det.index);
              jsonl->put(frame, detections_json(frame, rec, *pkt));
            }
            if (ann_id.valid()) {
              cv::Mat bgr = image_as_bgr(graph.image(graph.data_of(ann_id), ann.index));
              if (source->images()) {
                (void)cv::imwrite((out_dir / (rec.name + ".png")).string(), bgr);
              } else {
                if (!video.isOpened()) {
                  const double fps = source->fps() > 0 ? source->fps() : 25.0;
                  video.open(video_path.string(), cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), fps, bgr.size());
                  if (!video.isOpened()) throw std::runtime_error("cannot write '" + video_path.string() + "'");
                }
                video.write(bgr);
              }
            }
          }
          if (det_id.valid()) (void)graph.enqueue(det_id, det.index);
          if (ann_id.valid()) (void)graph.enqueue(ann_id, ann.index);
        }
        {
          std::lock_guard lock(mu);
          ++resolved;
          free_inputs.push_back(in.index);
        }
        cv.notify_all();
        progress.update(resolved);
      }
    } catch (const std::exception& e) {
      {
        std::lock_guard lock(mu);
        consumer_error = e.what();
      }
      g_interrupted.store(true);
      (void)graph.stop(StopMode::abandon);
    }
    cv.notify_all();
  });

  // Producer: read, fill a free input buffer, enqueue.
  const auto t0 = std::chrono::steady_clock::now();
  const std::int64_t base_ns = now_ns();
  std::string producer_error;
  try {
    cv::Mat frame;
    while (!g_interrupted.load() && (opt.frames < 0 || static_cast<std::int64_t>(produced) < opt.frames)) {
      if (!source->read(frame)) break;
      if (opt.realtime && source->fps() > 0) {
        const auto due = t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                  std::chrono::duration<double>(static_cast<double>(produced) / source->fps()));
        std::this_thread::sleep_until(due);
      }
      std::uint32_t index = 0;
      {
        std::unique_lock lock(mu);
        cv.wait(lock, [&] { return !free_inputs.empty() || g_interrupted.load() || !consumer_error.empty(); });
        if (free_inputs.empty()) break;
        index = free_inputs.front();
        free_inputs.pop_front();
      }
      FrameRecord rec;
      rec.name = source->frame_name();
      // Cameras: capture time (steady clock). Files: media time when the fps is known, else time since start.
      if (source->live()) rec.timestamp_ns = now_ns();
      else if (!source->images() && source->fps() > 0) rec.timestamp_ns = source->frame_time_ns();
      else rec.timestamp_ns = now_ns() - base_ns;
      if (!fill_image(frame, graph.image(in_data, index), rec)) throw std::runtime_error("unsupported input format");
      const std::uint64_t n = produced;
      {
        std::lock_guard lock(mu);
        frame_of_buffer[index] = n;
        records[n] = rec;
        ++produced;
      }
      const std::int64_t ts = rec.timestamp_ns != 0 ? rec.timestamp_ns : 1;
      Status s = Status::timeout;
      while (s == Status::timeout && !g_interrupted.load()) s = graph.enqueue(in_id, index, ts, 1s);
      if (s == Status::rejected) {
        std::lock_guard lock(mu);
        if (jsonl) jsonl->put(n, status_json(n, rec, "dropped", ""));
        ++dropped;
        ++resolved;
        records.erase(n);
        free_inputs.push_back(index);
      } else if (s != Status::ok) {
        std::lock_guard lock(mu);
        --produced;
        records.erase(n);
        free_inputs.push_back(index);
        break;
      }
    }
  } catch (const std::exception& e) {  // e.g. an OpenCV error on a corrupt frame: finish what is in flight
    producer_error = e.what();
  }
  {
    std::lock_guard lock(mu);
    producing = false;
  }
  cv.notify_all();
  // Let every frame in flight finish (or, after an interrupt, at most a few seconds).
  consumer.join();
  (void)graph.stop(StopMode::drain);
  control.stop();
  progress.finish(resolved);
  if (jsonl) jsonl->flush();
  video.release();

  {
    std::ofstream trace(out_dir / "trace.json");
    graph.write_trace(trace);
  }
  std::cout << graph.report_text();
  const GraphStats stats = graph.stats();
  const double secs = stats.wall_seconds;
  std::cout << "frames: " << produced << " read, " << stats.frames_completed << " completed, " << dropped << " dropped, "
            << failed << " failed";
  if (secs > 0) std::cout << "; " << static_cast<double>(stats.frames_completed) / secs << " fps";
  std::cout << "; latency p50 " << static_cast<double>(stats.latency_p50_ns) / 1e6 << " ms, p99 "
            << static_cast<double>(stats.latency_p99_ns) / 1e6 << " ms\n";
  std::cout << "outputs in " << out_dir.string() << ":" << (jsonl ? " detections.jsonl" : "")
            << " trace.json" << (ann_id.valid() ? (source->images() ? ", one annotated PNG per input image (same name)" : " annotated.avi") : "") << "\n";
  if (!producer_error.empty()) {
    std::cerr << "visiongraph run: reading the input failed: " << producer_error << '\n';
    return 1;
  }
  if (!consumer_error.empty()) {  // the consumer thread has ended: no lock needed
    std::cerr << "visiongraph run: " << consumer_error << '\n';
    return 1;
  }
  if (failed > 0) {
    std::cerr << "visiongraph run: " << failed << " frame(s) failed; last error: " << graph.last_error().describe() << '\n';
    return 1;
  }
  if (produced == 0) {
    std::cerr << "visiongraph run: no frame was read from '" << opt.input << "'\n";
    return 1;
  }
  return 0;
}

}  // namespace vg::cli
