// GraphInput: frames from a producer into a graph input parameter, imported in place when their layout
// fits, converted (and counted) when it does not; leases held until the graph hands the buffer back.

#include "visiongraph/io/graph_input.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include <cassert>
#include <cstring>
#include <utility>

#include "visiongraph/core/error.hpp"

namespace vg::io {

namespace {

std::size_t channels_of(ImageFormat f) noexcept {
  switch (f) {
    case ImageFormat::rgb24:
    case ImageFormat::bgr24: return 3;
    case ImageFormat::gray8: return 1;
    case ImageFormat::nv12: return 0;  // not packed
  }
  return 0;
}

/// [1,H,W,C] or [H,W,C] u8 NHWC: the tensor shape a packed image can be imported as.
bool tensor_hwc(const TensorMeta& t, std::int64_t& h, std::int64_t& w, std::int64_t& c) noexcept {
  if (t.type != ElementType::u8) return false;
  if (t.layout != TensorLayout::nhwc && t.layout != TensorLayout::unspecified) return false;
  if (t.rank == 4 && t.dims[0] == 1) {
    h = t.dims[1], w = t.dims[2], c = t.dims[3];
    return true;
  }
  if (t.rank == 3) {
    h = t.dims[0], w = t.dims[1], c = t.dims[2];
    return true;
  }
  return false;
}

/// An OpenCV header over plane @p p of a frame (no copy).
cv::Mat plane_of(const Frame& f, std::uint32_t p, int rows, int cols, int type) {
  auto* base = static_cast<std::uint8_t*>(f.memory.block.data);
  return cv::Mat(rows, cols, type, base + f.memory.offset[p], f.memory.stride[p]);
}

}  // namespace

GraphInput::GraphInput(Graph& graph, GraphParamId param) : graph_(graph), param_(param) {
  if (!graph.is_verified()) throw Error("GraphInput: verify the graph first");
  data_ = graph.data_of(param);
  if (!data_.valid()) throw Error("GraphInput: invalid graph parameter");
  meta_ = graph.meta(data_);
  const std::size_t n = graph.num_buffers(data_);
  // An output parameter has buffers too; what tells an input is that nothing in the graph writes it,
  // which enqueue reports: refuse outputs by kind here, the graph refuses the rest at enqueue.
  if (meta_.kind != DataKind::image && meta_.kind != DataKind::tensor)
    throw Error("GraphInput: graph parameter '" + std::string(graph.meta(data_).describe()) +
                "' is neither an image nor a tensor");
  slots_.assign(n, Slot::free);
  leases_.resize(n);
  records_.assign(n, ReclaimedFrame{});
}

GraphInput::~GraphInput() {
  // Buffers the graph never handed back (it was destroyed or never stopped): their leases go back now.
  for (Lease& lease : leases_) {
    if (lease.held()) {
      lease.release();
      ++stats_.leases_released;
    }
  }
}

bool GraphInput::importable(const Frame& f) const noexcept {
  if (f.memory.num_planes == 0) return false;
  if (meta_.kind == DataKind::image) {
    const ImageMeta& im = meta_.image;
    return f.meta.format == im.format && f.meta.width == im.width && f.meta.height == im.height;
  }
  std::int64_t h = 0, w = 0, c = 0;
  if (!tensor_hwc(meta_.tensor, h, w, c)) return false;
  const std::size_t ch = channels_of(f.meta.format);
  // A tensor is read as one dense block: rows must not be padded.
  return ch != 0 && static_cast<std::int64_t>(ch) == c && f.meta.width == w && f.meta.height == h &&
         f.memory.stride[0] == static_cast<std::size_t>(w * c);
}

Status GraphInput::convert_into(std::uint32_t index, const Frame& f) noexcept {
  if (f.memory.block.data == nullptr || f.memory.num_planes == 0) return Status::not_supported;
  try {
    const int sw = static_cast<int>(f.meta.width), sh = static_cast<int>(f.meta.height);
    // 1. the frame as a packed 8-bit image (BGR for NV12), without copying when it already is one
    cv::Mat packed;
    switch (f.meta.format) {
      case ImageFormat::bgr24:
      case ImageFormat::rgb24: packed = plane_of(f, 0, sh, sw, CV_8UC3); break;
      case ImageFormat::gray8: packed = plane_of(f, 0, sh, sw, CV_8UC1); break;
      case ImageFormat::nv12:
        if (f.memory.num_planes < 2) return Status::invalid_argument;
        cv::cvtColorTwoPlane(plane_of(f, 0, sh, sw, CV_8UC1), plane_of(f, 1, sh / 2, sw / 2, CV_8UC2), packed,
                             cv::COLOR_YUV2BGR_NV12);
        break;
    }
    const ImageFormat packed_format = f.meta.format == ImageFormat::nv12 ? ImageFormat::bgr24 : f.meta.format;
    Buffer* b = graph_.buffer_of(data_, index);
    if (b == nullptr) return Status::invalid_argument;
    if (meta_.kind == DataKind::tensor) {
      std::int64_t h = 0, w = 0, c = 0;
      if (!tensor_hwc(meta_.tensor, h, w, c) || c != 3) return Status::not_supported;
      if (packed.channels() == 1) cv::cvtColor(packed, packed, cv::COLOR_GRAY2BGR);
      cv::Mat dst(static_cast<int>(h), static_cast<int>(w), CV_8UC3, b->plane[0]);
      if (packed.size() == dst.size()) packed.copyTo(dst);
      else cv::resize(packed, dst, dst.size(), 0, 0, cv::INTER_AREA);
      return Status::ok;
    }
    const ImageMeta& im = meta_.image;
    const int w = static_cast<int>(im.width), h = static_cast<int>(im.height);
    cv::Mat sized = packed;
    if (packed.cols != w || packed.rows != h) cv::resize(packed, sized, cv::Size(w, h), 0, 0, cv::INTER_AREA);
    const bool gray = sized.channels() == 1;
    const bool rgb = packed_format == ImageFormat::rgb24;
    switch (im.format) {
      case ImageFormat::bgr24: {
        cv::Mat dst(h, w, CV_8UC3, b->plane[0], b->stride[0]);
        if (gray) cv::cvtColor(sized, dst, cv::COLOR_GRAY2BGR);
        else if (rgb) cv::cvtColor(sized, dst, cv::COLOR_RGB2BGR);
        else sized.copyTo(dst);
        break;
      }
      case ImageFormat::rgb24: {
        cv::Mat dst(h, w, CV_8UC3, b->plane[0], b->stride[0]);
        if (gray) cv::cvtColor(sized, dst, cv::COLOR_GRAY2RGB);
        else if (rgb) sized.copyTo(dst);
        else cv::cvtColor(sized, dst, cv::COLOR_BGR2RGB);
        break;
      }
      case ImageFormat::gray8: {
        cv::Mat dst(h, w, CV_8UC1, b->plane[0], b->stride[0]);
        if (gray) sized.copyTo(dst);
        else cv::cvtColor(sized, dst, rgb ? cv::COLOR_RGB2GRAY : cv::COLOR_BGR2GRAY);
        break;
      }
      case ImageFormat::nv12: {
        // OpenCV has no BGR -> NV12: go through I420 and interleave the chroma planes.
        cv::Mat bgr = sized;
        if (gray) cv::cvtColor(sized, bgr, cv::COLOR_GRAY2BGR);
        cv::Mat i420;
        cv::cvtColor(bgr, i420, rgb ? cv::COLOR_RGB2YUV_I420 : cv::COLOR_BGR2YUV_I420);
        for (int r = 0; r < h; ++r) std::memcpy(b->plane[0] + r * b->stride[0], i420.ptr(r), static_cast<std::size_t>(w));
        const std::uint8_t* u = i420.ptr(h);
        const std::uint8_t* v = u + static_cast<std::size_t>(w / 2) * (h / 2);
        for (int r = 0; r < h / 2; ++r) {
          std::uint8_t* uv = b->plane[1] + r * b->stride[1];
          for (int x = 0; x < w / 2; ++x) {
            uv[2 * x] = u[r * (w / 2) + x];
            uv[2 * x + 1] = v[r * (w / 2) + x];
          }
        }
        break;
      }
    }
    return Status::ok;
  } catch (const cv::Exception&) {
    return Status::invalid_argument;
  }
}

Status GraphInput::push(Frame&& frame, std::chrono::nanoseconds timeout) noexcept {
  Lease lease = std::move(frame.lease);  // given back on every path that does not hand it to the graph
  const bool leased = lease.held();
  auto give_back = [&](Lease& l) {
    if (!l.held()) return;
    l.release();
    std::lock_guard lock(mu_);
    ++stats_.leases_released;
  };
  std::uint32_t index = 0;
  {
    std::unique_lock lock(mu_);
    ++stats_.pushed;
    if (leased) ++stats_.leases_taken;
    const bool got = freed_.wait_for(lock, timeout, [&] {
      for (Slot slot : slots_)
        if (slot == Slot::free) return true;
      return false;
    });
    if (!got) {
      ++stats_.refused;
      lock.unlock();
      give_back(lease);
      return Status::busy;
    }
    while (slots_[index] != Slot::free) ++index;
    slots_[index] = Slot::filling;
  }

  Status s = Status::invalid_argument;
  if (importable(frame)) {
    s = graph_.import_buffer(data_, index, frame.memory);
  }
  bool converted = false;
  if (s != Status::ok) {
    // One explicit conversion into the graph's own buffer (counted); the frame can go back at once.
    s = graph_.import_buffer(data_, index, ExternalBuffer{});
    if (s == Status::ok) s = convert_into(index, frame);
    if (s == Status::ok) {
      converted = true;
      graph_.count_conversion(param_);
      give_back(lease);
    }
  }
  if (s == Status::ok) {
    ReclaimedFrame rec;
    rec.source_sequence = frame.sequence;
    rec.media_ns = frame.media_ns;
    rec.capture_ns = frame.capture_ns;
    rec.source_width = frame.meta.width;
    rec.source_height = frame.meta.height;
    rec.converted = converted;
    rec.name = frame.name;
    {
      std::lock_guard lock(mu_);
      records_[index] = rec;
      leases_[index] = std::move(lease);
      slots_[index] = Slot::with_graph;  // before enqueue: reclaim may see the buffer come back at once
      ++(converted ? stats_.converted : stats_.imported);
    }
    const FrameStamp stamp{frame.media_ns > 0 ? frame.media_ns : 0, frame.capture_ns, frame.sequence};
    s = graph_.enqueue(param_, index, stamp, timeout);
    if (s == Status::ok) return Status::ok;
  }
  // Not taken: the buffer is free again and the lease goes back.
  Lease back;
  {
    std::lock_guard lock(mu_);
    back = std::move(leases_[index]);
    slots_[index] = Slot::free;
    ++stats_.refused;
  }
  give_back(back);
  give_back(lease);
  freed_.notify_all();
  return s;
}

Status GraphInput::reclaim(ReclaimedFrame& out, std::chrono::nanoseconds timeout) noexcept {
  DequeuedBuffer buffer{};
  const Status s = graph_.dequeue(param_, buffer, timeout);
  if (s != Status::ok) return s;
  Lease back;
  {
    std::lock_guard lock(mu_);
    if (buffer.index >= slots_.size()) return Status::invalid_argument;
    assert(slots_[buffer.index] == Slot::with_graph && "the graph handed back a buffer it was not given");
    out = records_[buffer.index];
    out.buffer = buffer;
    back = std::move(leases_[buffer.index]);
    if (back.held()) ++stats_.leases_released;
    slots_[buffer.index] = Slot::free;
  }
  back.release();  // outside the lock: giving a buffer back may call into the source
  freed_.notify_all();
  return Status::ok;
}

GraphInputStats GraphInput::stats() const noexcept {
  std::lock_guard lock(mu_);
  GraphInputStats s = stats_;
  s.leases_held = s.leases_taken - s.leases_released;
  return s;
}

Status GraphInput::wait_for_free_buffer(std::chrono::nanoseconds timeout) const noexcept {
  std::unique_lock lock(mu_);
  const bool free = freed_.wait_for(lock, timeout, [&] {
    for (Slot slot : slots_)
      if (slot == Slot::free) return true;
    return false;
  });
  return free ? Status::ok : Status::timeout;
}

std::size_t GraphInput::free_buffers() const noexcept {
  std::lock_guard lock(mu_);
  std::size_t n = 0;
  for (Slot s : slots_) n += s == Slot::free ? 1 : 0;
  return n;
}

}  // namespace vg::io
