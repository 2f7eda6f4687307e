#include "frame_source.hpp"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <stdexcept>

namespace vg::cli {

namespace {

namespace fs = std::filesystem;

bool is_image_file(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const char* e : {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp", ".ppm", ".pgm", ".pnm"})
    if (ext == e) return true;
  return false;
}

cv::Mat to_bgr(const cv::Mat& in) {
  if (in.type() == CV_8UC3) return in;
  cv::Mat out;
  if (in.channels() == 1) cv::cvtColor(in, out, cv::COLOR_GRAY2BGR);
  else if (in.channels() == 4) cv::cvtColor(in, out, cv::COLOR_BGRA2BGR);
  else in.convertTo(out, CV_8UC3);
  return out;
}

/// One image or the images of a directory, sorted by name.
class ImageSource final : public FrameSource {
 public:
  ImageSource(std::vector<fs::path> files, const std::string& spec) : files_(std::move(files)) {
    first_ = cv::imread(files_.front().string(), cv::IMREAD_COLOR);
    if (first_.empty()) throw std::runtime_error("cannot read image '" + files_.front().string() + "'");
    size_ = first_.size();
    (void)spec;
  }
  bool read(cv::Mat& frame) override {
    while (next_ < files_.size()) {
      const fs::path& p = files_[next_++];
      name_ = p.stem().string();
      if (next_ == 1) {
        frame = first_;
        first_.release();
        return true;
      }
      frame = cv::imread(p.string(), cv::IMREAD_COLOR);
      if (!frame.empty()) {
        frame = to_bgr(frame);
        return true;
      }
    }
    return false;
  }
  cv::Size size() const override { return size_; }
  double fps() const override { return 0; }
  std::int64_t length() const override { return static_cast<std::int64_t>(files_.size()); }
  bool live() const override { return false; }
  bool images() const override { return true; }
  std::string frame_name() const override { return name_; }
  std::int64_t frame_time_ns() const override { return 0; }

 private:
  std::vector<fs::path> files_;
  std::size_t next_ = 0;
  cv::Mat first_;
  cv::Size size_;
  std::string name_;
};

/// A video file or a camera.
class VideoSource final : public FrameSource {
 public:
  VideoSource(const std::string& spec, bool camera) : camera_(camera) {
    bool opened = false;
    if (camera && std::all_of(spec.begin(), spec.end(), [](unsigned char c) { return std::isdigit(c); }))
      opened = cap_.open(std::stoi(spec), cv::CAP_ANY);
    else if (camera)
      opened = cap_.open(spec, cv::CAP_V4L2);
    else
      opened = cap_.open(spec, cv::CAP_ANY);
    if (!opened) throw std::runtime_error(std::string("cannot open ") + (camera ? "camera" : "video") + " '" + spec + "'");
    if (!cap_.read(first_) || first_.empty())
      throw std::runtime_error("'" + spec + "' has no readable frame");
    first_ = to_bgr(first_);
    size_ = first_.size();
    fps_ = cap_.get(cv::CAP_PROP_FPS);
    if (!(fps_ > 0 && fps_ < 1000)) fps_ = 0;
    const double n = cap_.get(cv::CAP_PROP_FRAME_COUNT);
    length_ = camera_ || !(n > 0) ? -1 : static_cast<std::int64_t>(n);
  }
  bool read(cv::Mat& frame) override {
    if (!first_.empty()) {
      frame = first_;
      first_.release();
    } else if (!cap_.read(frame) || frame.empty()) {
      return false;
    } else {
      frame = to_bgr(frame);
    }
    index_ = count_++;
    return true;
  }
  cv::Size size() const override { return size_; }
  double fps() const override { return fps_; }
  std::int64_t length() const override { return length_; }
  bool live() const override { return camera_; }
  bool images() const override { return false; }
  std::string frame_name() const override { return "frame_" + std::to_string(index_); }
  std::int64_t frame_time_ns() const override {
    return fps_ > 0 ? static_cast<std::int64_t>(static_cast<double>(index_) * 1e9 / fps_) : 0;
  }

 private:
  cv::VideoCapture cap_;
  bool camera_;
  cv::Mat first_;
  cv::Size size_;
  double fps_ = 0;
  std::int64_t length_ = -1;
  std::int64_t index_ = -1;
  std::int64_t count_ = 0;
};

}  // namespace

std::unique_ptr<FrameSource> FrameSource::open(const std::string& spec) {
  const bool digits = !spec.empty() && std::all_of(spec.begin(), spec.end(), [](unsigned char c) { return std::isdigit(c); });
  if (spec.rfind("/dev/video", 0) == 0 || digits) return std::make_unique<VideoSource>(spec, true);
  std::error_code ec;
  const fs::path path(spec);
  if (!fs::exists(path, ec)) throw std::runtime_error("input '" + spec + "' not found");
  if (fs::is_directory(path, ec)) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(path, ec))
      if (entry.is_regular_file() && is_image_file(entry.path())) files.push_back(entry.path());
    if (files.empty()) throw std::runtime_error("directory '" + spec + "' holds no image (.jpg, .png, .bmp, ...)");
    std::sort(files.begin(), files.end());
    return std::make_unique<ImageSource>(std::move(files), spec);
  }
  if (is_image_file(path)) return std::make_unique<ImageSource>(std::vector<fs::path>{path}, spec);
  return std::make_unique<VideoSource>(spec, false);
}

}  // namespace vg::cli
