#pragma once
// Where one stream's results go: detections.jsonl, the annotated video or PNGs, --write files, RTSP.
#include <chrono>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "frame_json.hpp"
#include "frame_record.hpp"
#include "json_lines_writer.hpp"
#include "run_params.hpp"
#include "visiongraph/io/data_writer.hpp"
#include "visiongraph/io/rtsp_output.hpp"
#include "visiongraph/io/video_writer.hpp"
#include "visiongraph/mqtt/publisher.hpp"

namespace vg::runner {

namespace fs = std::filesystem;

/// Where a run's results go: detections.jsonl and the annotated video (or one PNG per input image), and
/// the files of every --write graph parameter. The constructor checks every output before it opens or
/// truncates anything in the output folder (the encoder and its plugins, the RTSP port, the folder being
/// writable), so a run that cannot start leaves the previous run's results alone.
class RunOutputs {
 public:
  RunOutputs(const Graph& graph, const RunParams& params, const fs::path& dir, bool images, double fps,
             std::vector<mqtt::MqttPublisher*> publishers = {}, bool to_stdout = false, std::string serve_rtsp = {},
             std::string h264_encoder = "auto", std::string rtsp_path = "/annotated")
      : dir_(dir), annotated_(params.annotated.valid()), images_(images), fps_(fps > 0 ? fps : 25.0),
        serve_rtsp_(std::move(serve_rtsp)), rtsp_path_(std::move(rtsp_path)) {
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
  void annotated(ImageView view, const std::string& name, std::int64_t pts_ns);
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
  /// The annotated video's RTSP address ("" when not served).
  std::string rtsp_url() const { return rtsp_ ? rtsp_->url() : std::string(); }
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
    o.path = rtsp_path_;
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
  std::string rtsp_path_;
  std::unique_ptr<io::RtspOutput> rtsp_;
  std::vector<std::unique_ptr<io::DataWriter>> writers_;
};

}  // namespace vg::runner
