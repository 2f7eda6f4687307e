#pragma once
/// @file
/// @brief Letterboxing on Rockchip's RGA: resize + colour convert into the centred rect of a model input in
///        one librga job per frame, the pad filled once per output buffer; DMA-BUFs imported once and kept.

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "visiongraph/kernels/detection/letterbox.hpp"
#include "visiongraph/kernels/detection/preprocess.hpp"
#include "visiongraph/memory/memory_block.hpp"
#include "visiongraph/npu/rga_runtime.hpp"

namespace vg::rga {

/// @brief What to letterbox: the source image and the u8 NHWC model input it becomes.
struct RgaLetterboxSpec {
  int src_w = 0;
  int src_h = 0;
  detection::PixelFormat src_format = detection::PixelFormat::bgr24;
  std::size_t src_stride = 0;  ///< bytes per row of the source (plane 0); 0 = dense
  int dst_w = 0;
  int dst_h = 0;
  bool rgb = true;              ///< channel order of the model input
  std::uint8_t pad_value = 0;   ///< grey level of the pad
  std::size_t max_imported_buffers = 8;  ///< DMA-BUFs imported once and kept (least recently used goes)
};

/// @brief The letterbox placed on whole pixels (RGA's rects are integers): the fitted side spans the
///        model input, the other is rounded to the nearest pixel and centred (pads rounded down).
detection::LetterboxGeometry rga_letterbox_geometry(int src_w, int src_h, int dst_w, int dst_h) noexcept;

/// @brief Empty when the vendor's documented limits let RGA letterbox @p spec (formats, sizes, the 1/16..16
///        scale of the RGA2 core, stride alignment); otherwise the reason, naming the limit.
std::string rga_letterbox_unsupported(const RgaLetterboxSpec& spec);

/// @brief One RGA letterbox: create once (allocates), run per frame (no allocation, noexcept).
///
/// Per frame one improcess (scale the whole source into the content rect, converting BGR/RGB/NV12 to the
/// model's RGB or BGR bytes). The pad never changes, so each output buffer is filled once with imfill_t
/// the first time it is seen. A DMA-BUF (fd-backed block starting at its fd's first byte) is imported with
/// importbuffer_fd once and kept, identified by its inode, not its fd number (fd numbers are reused after
/// close); host memory is passed by virtual address, which librga maps for the job. Every import is
/// released by the destructor, or when the cache is full and it is the least recently used.
class RgaLetterbox {
 public:
  /// @throws vg::Error when @p spec is not something RGA can do (rga_letterbox_unsupported).
  RgaLetterbox(std::shared_ptr<const npu::RgaRuntime> runtime, const RgaLetterboxSpec& spec);
  ~RgaLetterbox();
  RgaLetterbox(const RgaLetterbox&) = delete;
  RgaLetterbox& operator=(const RgaLetterbox&) = delete;

  /// @brief Letterboxes @p image (in @p image_block) into @p tensor (in @p tensor_block).
  /// @return IM_STATUS_SUCCESS, or the failing call's IM_STATUS (last_failure() says which call); 
  ///         IM_STATUS_NOT_SUPPORTED when these buffers' layout cannot go to RGA (then nothing ran).
  int run(const detection::ImageRef& image, const MemoryBlock& image_block, void* tensor,
          const MemoryBlock& tensor_block) noexcept;

  /// @brief imcheck_t on these buffers (no job runs): IM_STATUS_NOERROR when librga accepts them.
  int check(const detection::ImageRef& image, const MemoryBlock& image_block, void* tensor,
            const MemoryBlock& tensor_block) noexcept;

  struct Counters {
    std::uint64_t jobs = 0;       ///< improcess calls that succeeded
    std::uint64_t failures = 0;   ///< calls that failed (last_failure says the last)
    std::uint64_t fills = 0;      ///< pads filled (once per output buffer)
    std::uint64_t imports = 0;    ///< importbuffer_fd calls that succeeded
    std::uint64_t releases = 0;   ///< releasebuffer_handle calls
    std::uint64_t evictions = 0;  ///< imports released to make room
    std::uint64_t by_address = 0; ///< images passed by virtual address (host memory)
  };
  const Counters& counters() const noexcept { return counters_; }
  const detection::LetterboxGeometry& geometry() const noexcept { return geometry_; }
  const npu::RgaRuntime& runtime() const noexcept { return *runtime_; }
  /// @brief The last failure: the call, its IM_STATUS name and librga's text (empty before any).
  const char* last_failure() const noexcept { return last_failure_; }

 private:
  /// One buffer seen by the engine: a kept import (DMA-BUF) or a host address (only to remember its pad).
  struct Known {
    bool used = false;
    bool dmabuf = false;
    dev_t dev = 0;
    ino_t ino = 0;
    const void* address = nullptr;     // host memory: its address
    npu::rga::BufferHandle handle = 0; // DMA-BUF: the import
    int format = 0, wstride = 0, hstride = 0;
    bool padded = false;
    std::uint64_t last_use = 0;
  };
  struct Described {
    npu::rga::Buffer buffer;
    Known* known = nullptr;
  };
  bool describe(const void* plane0, const void* plane1, std::size_t stride, int width, int height, int format,
                int bytes_per_pixel, const MemoryBlock& block, bool output, Described& out) noexcept;
  bool describe_frame(const detection::ImageRef& image, const MemoryBlock& image_block, void* tensor,
                      const MemoryBlock& tensor_block, Described& src, Described& dst) noexcept;
  Known* find_or_import(const MemoryBlock& block, const void* address, int format, int wstride, int hstride) noexcept;
  void release(Known& k) noexcept;
  int fail(const char* call, int status) noexcept;

  std::shared_ptr<const npu::RgaRuntime> runtime_;
  RgaLetterboxSpec spec_;
  detection::LetterboxGeometry geometry_;
  npu::rga::Rect content_;
  int src_format_ = 0, dst_format_ = 0;
  std::vector<Known> known_;  // fixed size (max_imported_buffers + output buffers), set in the constructor
  std::uint64_t clock_ = 0;
  Counters counters_;
  char last_failure_[192] = {};
};

}  // namespace vg::rga
