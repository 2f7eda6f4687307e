#include "run_outputs.hpp"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cstring>

namespace vg::runner {

namespace {

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


}  // namespace

void RunOutputs::annotated(ImageView view, const std::string& name, std::int64_t pts_ns) {
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

}  // namespace vg::runner
