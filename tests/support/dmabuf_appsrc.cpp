#include "dmabuf_appsrc.hpp"

#include <gst/allocators/gstdmabuf.h>
#include <gst/app/gstappsrc.h>
#include <gst/gst.h>
#include <gst/video/video.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>

namespace vg::test {

// The appsrc lives inside a pipeline the test cannot reach (Source::open builds it from the spec), so
// feeders are found by the appsrc's name from a hook on every appsrc's "need-data" signal.
struct DmabufAppsrc::Impl {
  static std::mutex& mutex() {
    static std::mutex m;
    return m;
  }
  static std::map<std::string, DmabufAppsrc*>& feeders() {
    static std::map<std::string, DmabufAppsrc*> f;
    return f;
  }

  static void install_hook() {
    static std::once_flag once;
    std::call_once(once, [] {
      g_type_class_ref(GST_TYPE_APP_SRC);  // signals exist once the class is initialised; kept for the process
      const guint signal = g_signal_lookup("need-data", GST_TYPE_APP_SRC);
      g_signal_add_emission_hook(signal, 0, &Impl::on_need_data, nullptr, nullptr);
    });
  }

  static gboolean on_need_data(GSignalInvocationHint*, guint, const GValue* params, gpointer) {
    auto* appsrc = GST_APP_SRC(g_value_get_object(&params[0]));
    std::lock_guard lock(mutex());  // held while pushing: the feeder cannot go away meanwhile
    auto it = feeders().find(GST_ELEMENT_NAME(appsrc));
    if (it != feeders().end()) push_one(*it->second, appsrc);
    return TRUE;  // keep the hook
  }

  static void on_buffer_finalized(gpointer feeder, GstMiniObject*) {
    static_cast<DmabufAppsrc*>(feeder)->finalized_.fetch_add(1);
  }

  static void push_one(DmabufAppsrc& f, GstAppSrc* appsrc) {
    const Options& o = f.options_;
    const std::uint64_t index = f.pushed_.load();
    if (o.frames >= 0 && index >= static_cast<std::uint64_t>(o.frames)) {
      if (!f.ended_.exchange(true)) gst_app_src_end_of_stream(appsrc);
      return;
    }
    const std::size_t slot = index % o.pool_size;
    std::uint8_t* frame = f.maps_[slot] + o.memory_offset;
    frame[0] = static_cast<std::uint8_t>(index);  // lets a test tell frames apart

    GstMemory* memory = nullptr;
    if (o.memory == Memory::dmabuf) {
      static GstAllocator* allocator = gst_dmabuf_allocator_new();  // one for the process
      memory = gst_dmabuf_allocator_alloc_with_flags(allocator, f.fds_[slot], f.block_size_,
                                                     GST_FD_MEMORY_FLAG_DONT_CLOSE);
      gst_memory_resize(memory, static_cast<gssize>(o.memory_offset), f.frame_size_);
    } else {
      memory = gst_memory_new_wrapped(GST_MEMORY_FLAG_READONLY, f.maps_[slot], f.block_size_, o.memory_offset,
                                      f.frame_size_, nullptr, nullptr);
    }
    GstBuffer* buffer = gst_buffer_new();
    gst_buffer_append_memory(buffer, memory);
    gsize offsets[GST_VIDEO_MAX_PLANES]{};
    gint strides[GST_VIDEO_MAX_PLANES]{};
    for (int p = 0; p < f.num_planes_; ++p) {
      offsets[p] = f.plane_offset_[p];
      strides[p] = static_cast<gint>(f.plane_stride_[p]);
    }
    gst_buffer_add_video_meta_full(buffer, GST_VIDEO_FRAME_FLAG_NONE,
                                   gst_video_format_from_string(o.format.c_str()), o.width, o.height,
                                   static_cast<guint>(f.num_planes_), offsets, strides);
    if (!o.live) {
      const GstClockTime duration = gst_util_uint64_scale(GST_SECOND, 1, static_cast<guint64>(o.fps));
      GST_BUFFER_PTS(buffer) = index * duration;
      GST_BUFFER_DURATION(buffer) = duration;
    }
    gst_mini_object_weak_ref(GST_MINI_OBJECT(buffer), &Impl::on_buffer_finalized, &f);
    f.created_.fetch_add(1);
    f.pushed_.fetch_add(1);
    gst_app_src_push_buffer(appsrc, buffer);  // takes the buffer
  }
};

DmabufAppsrc::DmabufAppsrc(Options options) : options_(std::move(options)) {
  gst_init(nullptr, nullptr);
  Impl::install_hook();
  static std::atomic<int> next_id{0};
  name_ = "vgtestfeed" + std::to_string(next_id.fetch_add(1));

  const GstVideoFormat format = gst_video_format_from_string(options_.format.c_str());
  if (format == GST_VIDEO_FORMAT_UNKNOWN) throw std::invalid_argument("unknown format " + options_.format);
  GstVideoInfo info;
  gst_video_info_set_format(&info, format, options_.width, options_.height);
  num_planes_ = static_cast<int>(GST_VIDEO_INFO_N_PLANES(&info));
  std::size_t offset = 0;
  for (int p = 0; p < num_planes_; ++p) {
    // Rows padded past GStreamer's default stride, so a consumer that assumes dense rows is caught.
    const std::size_t row = static_cast<std::size_t>(GST_VIDEO_INFO_PLANE_STRIDE(&info, p));
    const std::size_t stride = (row + options_.row_alignment - 1) / options_.row_alignment * options_.row_alignment;
    const std::size_t rows = static_cast<std::size_t>(GST_VIDEO_INFO_COMP_HEIGHT(&info, p == 0 ? 0 : 1));
    plane_offset_[p] = offset;
    plane_stride_[p] = stride;
    offset += stride * rows;
  }
  frame_size_ = offset;
  block_size_ = options_.memory_offset + frame_size_;

  for (std::size_t i = 0; i < options_.pool_size; ++i) {
    if (options_.memory == Memory::dmabuf) {
      const int fd = memfd_create(("vg-test-frame-" + std::to_string(i)).c_str(), MFD_CLOEXEC);
      if (fd < 0 || ftruncate(fd, static_cast<off_t>(block_size_)) != 0)
        throw std::runtime_error("memfd_create/ftruncate failed");
      void* map = mmap(nullptr, block_size_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      if (map == MAP_FAILED) throw std::runtime_error("mmap of a memfd failed");
      fds_.push_back(fd);
      maps_.push_back(static_cast<std::uint8_t*>(map));
    } else {
      auto* block = static_cast<std::uint8_t*>(std::aligned_alloc(64, (block_size_ + 63) / 64 * 64));
      std::memset(block, 0, block_size_);
      maps_.push_back(block);
    }
  }
  std::lock_guard lock(Impl::mutex());
  Impl::feeders()[name_] = this;
}

DmabufAppsrc::~DmabufAppsrc() {
  {
    std::lock_guard lock(Impl::mutex());
    Impl::feeders().erase(name_);
  }
  for (std::size_t i = 0; i < maps_.size(); ++i) {
    if (options_.memory == Memory::dmabuf) {
      munmap(maps_[i], block_size_);
      ::close(fds_[i]);
    } else {
      std::free(maps_[i]);
    }
  }
}

std::string DmabufAppsrc::spec(const std::string& middle) const {
  std::string caps = "video/x-raw,format=" + options_.format + ",width=" + std::to_string(options_.width) +
                     ",height=" + std::to_string(options_.height) + ",framerate=" + std::to_string(options_.fps) + "/1";
  std::string s = "gst:appsrc name=" + name_ + " format=time caps=\"" + caps + "\"";
  if (options_.live) s += " is-live=true do-timestamp=true";
  s += " ! ";
  if (!middle.empty()) s += middle + " ! ";
  s += "appsink name=sink sync=false";
  return s;
}

const std::uint8_t* DmabufAppsrc::host_frame(std::size_t slot) const noexcept {
  return maps_[slot] + options_.memory_offset;
}

}  // namespace vg::test
