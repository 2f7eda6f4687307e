// Image files through OpenCV: one image, or the images of a directory in name order. Each frame's memory
// is the decoded cv::Mat itself; the lease holds a reference to the Mat (no copy).

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>

#include "lease_pool.hpp"
#include "sources.hpp"
#include "visiongraph/core/clock.hpp"
#include "visiongraph/core/error.hpp"

namespace vg::io::detail {

namespace {

// Frames a consumer may hold at once beyond max_buffers.
constexpr std::size_t kLeaseHeadroom = 16;

struct MatLease {
  cv::Mat image;
  void reset() noexcept { image.release(); }
};

using MatLeasePool = LeasePool<MatLease>;

class ImageSource final : public Source {
 public:
  ImageSource(std::string spec, SourceKind kind, std::vector<std::filesystem::path> files, const SourceOptions& options)
      : files_(std::move(files)), options_(options), pool_(new MatLeasePool(options.max_buffers + kLeaseHeadroom)) {
    info_.spec = std::move(spec);
    info_.kind = kind;
    info_.format = options.format;
    info_.length = static_cast<std::int64_t>(files_.size());
    info_.live = false;
    std::string why;
    first_ = load(files_.front(), why);  // checked now: a bad first image fails open(), not read()
    if (first_.empty()) {
      MatLeasePool::abandon(pool_);
      throw Error(why);
    }
    info_.width = static_cast<std::uint32_t>(first_.cols);
    info_.height = static_cast<std::uint32_t>(options.format == ImageFormat::nv12 ? first_.rows * 2 / 3 : first_.rows);
  }

  ~ImageSource() override { MatLeasePool::abandon(pool_); }

  const SourceInfo& info() const noexcept override { return info_; }

  Status read(Frame& out, std::chrono::nanoseconds) noexcept override {
    try {
      if (closed_.load()) return Status::stopped;
      if (next_ >= files_.size()) return Status::end_of_stream;
      MatLease* record = pool_->acquire();
      if (record == nullptr) return Status::busy;
      const std::filesystem::path& path = files_[next_++];
      std::string why;
      cv::Mat image = next_ == 1 ? std::move(first_) : load(path, why);
      if (image.empty()) {
        pool_->give_back_unused(record);
        std::lock_guard lock(mutex_);
        error_text_ = why;
        ++errors_;
        return Status::io_error;
      }
      fill(out, image, path);
      record->image = std::move(image);
      out.lease = pool_->lease(record);
      return Status::ok;
    } catch (const std::exception& e) {
      std::lock_guard lock(mutex_);
      error_text_ = info_.spec + ": " + e.what();
      ++errors_;
      return Status::io_error;
    }
  }

  std::string error() const override {
    std::lock_guard lock(mutex_);
    return error_text_;
  }

  SourceStats stats() const noexcept override {
    SourceStats s;
    s.frames = frames_.load();
    s.errors = errors_.load();
    s.converting = options_.format != ImageFormat::bgr24 || options_.width != 0 || options_.height != 0;
    s.leases_out = pool_->in_use();
    return s;
  }

  void close() noexcept override { closed_.store(true); }

 private:
  // Decodes and converts one file; on failure returns an empty Mat and says why.
  cv::Mat load(const std::filesystem::path& path, std::string& why) const {
    const std::string where = info_.kind == SourceKind::image ? info_.spec : info_.spec + "/" + path.filename().string();
    const bool gray = options_.format == ImageFormat::gray8;
    cv::Mat image = cv::imread(path.string(), gray ? cv::IMREAD_GRAYSCALE : cv::IMREAD_COLOR);
    if (image.empty()) {
      why = where + ": cannot decode the image";
      return {};
    }
    if (options_.width != 0 || options_.height != 0) {
      // A missing dimension keeps the aspect ratio.
      int width = static_cast<int>(options_.width), height = static_cast<int>(options_.height);
      if (width == 0) width = std::max(1, static_cast<int>(std::lround(double(image.cols) * height / image.rows)));
      if (height == 0) height = std::max(1, static_cast<int>(std::lround(double(image.rows) * width / image.cols)));
      cv::Mat scaled;
      cv::resize(image, scaled, cv::Size(width, height), 0, 0, cv::INTER_AREA);
      image = scaled;
    }
    switch (options_.format) {
      case ImageFormat::bgr24:
      case ImageFormat::gray8:
        return image;
      case ImageFormat::rgb24: {
        cv::Mat rgb;
        cv::cvtColor(image, rgb, cv::COLOR_BGR2RGB);
        return rgb;
      }
      case ImageFormat::nv12:
        return to_nv12(image, where, why);
    }
    return image;
  }

  // BGR -> NV12 laid out as one Mat: height rows of Y, then height/2 rows of interleaved UV.
  static cv::Mat to_nv12(const cv::Mat& bgr, const std::string& where, std::string& why) {
    if (bgr.cols % 2 != 0 || bgr.rows % 2 != 0) {
      why = where + ": NV12 needs an even width and height (got " + std::to_string(bgr.cols) + "x" +
            std::to_string(bgr.rows) + ")";
      return {};
    }
    cv::Mat i420;
    cv::cvtColor(bgr, i420, cv::COLOR_BGR2YUV_I420);
    const int w = bgr.cols, h = bgr.rows;
    cv::Mat nv12(h * 3 / 2, w, CV_8UC1);
    std::memcpy(nv12.data, i420.data, static_cast<std::size_t>(w) * h);
    const std::uint8_t* u = i420.data + static_cast<std::size_t>(w) * h;
    const std::uint8_t* v = u + static_cast<std::size_t>(w / 2) * (h / 2);
    std::uint8_t* uv = nv12.data + static_cast<std::size_t>(w) * h;
    for (std::size_t i = 0; i < static_cast<std::size_t>(w / 2) * (h / 2); ++i) {
      uv[2 * i] = u[i];
      uv[2 * i + 1] = v[i];
    }
    return nv12;
  }

  void fill(Frame& out, const cv::Mat& image, const std::filesystem::path& path) {
    const bool nv12 = options_.format == ImageFormat::nv12;
    const std::size_t stride = image.step[0];
    out.meta.width = static_cast<std::uint32_t>(image.cols);
    out.meta.height = static_cast<std::uint32_t>(nv12 ? image.rows * 2 / 3 : image.rows);
    out.meta.format = options_.format;
    out.meta.row_stride = static_cast<std::uint32_t>(stride);
    out.memory = ExternalBuffer{};
    out.memory.block.data = image.data;
    out.memory.block.size = stride * static_cast<std::size_t>(image.rows);
    out.memory.num_planes = nv12 ? 2 : 1;
    out.memory.stride[0] = stride;
    if (nv12) {
      out.memory.offset[1] = stride * out.meta.height;
      out.memory.stride[1] = stride;
    }
    out.capture_ns = now_ns();
    out.media_ns = -1;
    out.sequence = frames_.fetch_add(1);
    const std::string file = path.filename().string();  // with its extension: a.jpg and a.png stay apart
    const std::size_t n = std::min(file.size(), kMaxFrameName);
    std::memcpy(out.name.data(), file.data(), n);
    out.name[n] = '\0';
  }

  const std::vector<std::filesystem::path> files_;
  const SourceOptions options_;
  SourceInfo info_;
  MatLeasePool* pool_;
  cv::Mat first_;
  std::size_t next_ = 0;  // reader thread only
  std::atomic<bool> closed_{false};
  std::atomic<std::uint64_t> frames_{0};
  std::atomic<std::uint64_t> errors_{0};
  mutable std::mutex mutex_;
  std::string error_text_;
};

}  // namespace

std::unique_ptr<Source> open_image_source(std::string spec, SourceKind kind, std::vector<std::filesystem::path> files,
                                          const SourceOptions& options) {
  return std::make_unique<ImageSource>(std::move(spec), kind, std::move(files), options);
}

}  // namespace vg::io::detail
