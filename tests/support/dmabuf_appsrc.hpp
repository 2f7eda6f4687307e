#pragma once
/// @file
/// @brief Test frames with memory the test owns, fed through an appsrc into a `gst:` source spec:
/// memfd-backed DMA-BUFs (a small pool of fds reused round-robin) or host blocks at known addresses.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace vg::test {

/// @brief Feeds the appsrc named by spec() whenever it asks for data (while it exists). Every buffer
/// carries a GstVideoMeta with the layout below (rows padded to `row_alignment`), a PTS of
/// index * frame duration, and the frame index in the first byte of plane 0. Buffers are counted when
/// created and when GStreamer finalizes them, so a test can check that each one was given back once.
/// @code
/// vg::test::DmabufAppsrc feed({.width = 64, .height = 48, .frames = 10});
/// auto src = vg::io::Source::open(feed.spec(), {});   // frames arrive with block.dmabuf_fd >= 0
/// @endcode
/// @note One instance per spec; the pool must hold more buffers than are in flight (appsrc queue,
///       appsink queue and the frames the consumer holds), else a reused fd is rewritten early.
class DmabufAppsrc {
 public:
  enum class Memory { dmabuf, host };
  struct Options {
    std::uint32_t width = 64;
    std::uint32_t height = 48;
    std::string format = "NV12";      ///< GStreamer name: NV12, GRAY8, BGR, RGB
    Memory memory = Memory::dmabuf;
    std::size_t pool_size = 8;        ///< distinct fds (or host blocks), reused round-robin
    std::size_t memory_offset = 4096; ///< where the frame starts inside each fd / block
    std::size_t row_alignment = 64;   ///< stride = row bytes rounded up to this
    int frames = 30;                  ///< then end of stream; -1 = never
    int fps = 30;
    bool live = false;                ///< appsrc is-live (timestamps from the pipeline clock)
  };

  explicit DmabufAppsrc(Options options);
  ~DmabufAppsrc();
  DmabufAppsrc(const DmabufAppsrc&) = delete;
  DmabufAppsrc& operator=(const DmabufAppsrc&) = delete;

  /// "gst:appsrc name=<unique> ... ! appsink name=sink sync=false" (@p middle goes before the appsink).
  std::string spec(const std::string& middle = "") const;

  const Options& options() const noexcept { return options_; }
  const std::vector<int>& fds() const noexcept { return fds_; }     ///< dmabuf: the pool's fds
  const std::uint8_t* host_frame(std::size_t slot) const noexcept;   ///< host: first byte of slot's frame
  std::size_t frame_size() const noexcept { return frame_size_; }
  std::size_t plane_offset(int plane) const noexcept { return plane_offset_[plane]; }
  std::size_t plane_stride(int plane) const noexcept { return plane_stride_[plane]; }

  std::uint64_t created() const noexcept { return created_.load(); }
  std::uint64_t finalized() const noexcept { return finalized_.load(); }

  struct Impl;  // public for the GStreamer callbacks in the .cpp

 private:
  Options options_;
  std::string name_;
  std::vector<int> fds_;
  std::vector<std::uint8_t*> maps_;  // each fd (or host block) mapped, whole
  std::size_t block_size_ = 0;
  std::size_t frame_size_ = 0;
  std::size_t plane_offset_[4]{};
  std::size_t plane_stride_[4]{};
  int num_planes_ = 1;
  std::atomic<std::uint64_t> pushed_{0};
  std::atomic<std::uint64_t> created_{0};
  std::atomic<std::uint64_t> finalized_{0};
  std::atomic<bool> ended_{false};
};

}  // namespace vg::test
