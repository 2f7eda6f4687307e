#pragma once
// What VideoWriter and RtspOutput share: the raw frame layout GStreamer expects, a fixed ring of frame
// memory that GstBuffers borrow, the x264enc settings, and GStreamer messages as text.

#include <gst/gst.h>
#include <gst/video/video.h>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "visiongraph/data/types.hpp"
#include "visiongraph/io/video_writer.hpp"

namespace vg::io::detail {

/// GStreamer's name of @p format ("BGR", "RGB", "GRAY8", "NV12").
const char* gst_format_name(ImageFormat format) noexcept;

/// Checks the arguments shared by VideoWriter::open and RtspOutput::start; throws vg::Error starting with
/// @p what. Returns the layout GStreamer expects for such frames (default strides and plane offsets).
GstVideoInfo raw_video_layout(const std::string& what, std::uint32_t width, std::uint32_t height, double fps,
                              ImageFormat format);

/// Copies one frame given as plane 0 at @p data with @p stride (NV12: the UV plane follows at
/// data + stride * height) into @p destination laid out as @p layout. GRAY8 (full range, as images
/// have it) is mapped to video range on the way; NV12 is taken as video range already (as cameras
/// and decoders deliver it).
void copy_frame(const GstVideoInfo& layout, const std::uint8_t* data, std::size_t stride,
                std::uint8_t* destination) noexcept;

/// Bytes per row of plane 0 without padding: the smallest stride write()/push() accept.
std::size_t packed_row_bytes(const GstVideoInfo& layout) noexcept;

/// Caps of the raw frames: video/x-raw with format, size and frame rate.
GstCaps* raw_video_caps(const GstVideoInfo& layout);

/// What the encoder is fed: "video/x-raw,format=I420,colorimetry=bt601|bt709". I420, or videoconvert
/// would pick Y444 for BGR and x264 would write High 4:4:4, which browsers, phones and hardware
/// decoders do not play. The colorimetry (limited range, BT.601 below 720 lines, else BT.709) is
/// fixed too, or GRAY8's full range would reach the encoder and players would show wrong levels.
std::string encoder_input_caps(const GstVideoInfo& layout);

/// Applies the encoder settings to an x264enc (tune zerolatency: no B-frames, no lookahead, one
/// output frame per input frame; no scene-cut key frames: one key frame per key_interval). Throws vg::Error naming @p what for an unknown speed preset.
void configure_x264(GstElement* x264enc, const H264Options& options, double fps, const std::string& what);

/// The encoder element for @p requested: "auto" is the first of mpph264enc (Rockchip MPP), v4l2h264enc
/// (a V4L2 memory-to-memory encoder; GStreamer registers it only where such a device exists) and
/// x264enc whose element exists; another name must exist. Throws vg::Error naming @p what, the element
/// and its package when it does not.
std::string choose_h264_encoder(const std::string& requested, const std::string& what);

/// Applies @p options to @p encoder, made from @p element: configure_x264 for x264enc; for a hardware
/// encoder the key-frame interval and the bit rate, set only through the properties it has (gop, bps
/// and rc-mode on mpph264enc; extra-controls on v4l2h264enc).
void configure_h264_encoder(GstElement* encoder, const std::string& element, const H264Options& options, double fps,
                            const std::string& what);

/// "<what>: <message> (<first useful line of the debug info>)" for an ERROR or WARNING message.
std::string describe_gst_message(const std::string& what, GstMessage* message);

/// Frame memory for GstBuffers, allocated once: `slots` blocks of `slot_bytes`. A buffer borrows one
/// block (gst_buffer_new_wrapped_full) and gives it back when GStreamer frees the buffer, so the pixel
/// memory never grows and the number of frames in flight is bounded by the slot count. The ring lives
/// until its owner retired it AND every borrowed block came back (a pipeline may free its last buffers
/// after the owner is gone).
class FrameRing {
 public:
  static FrameRing* create(std::size_t slots, std::size_t slot_bytes);
  FrameRing(const FrameRing&) = delete;
  FrameRing& operator=(const FrameRing&) = delete;

  /// A buffer over a free block, or null when every block is in flight (no wait).
  GstBuffer* try_acquire() noexcept;
  /// Like try_acquire(), but waits until @p deadline for a block to come back; null on timeout or
  /// after interrupt().
  GstBuffer* acquire(std::chrono::steady_clock::time_point deadline) noexcept;
  /// Wakes every acquire() for good (the pipeline failed or closes: nothing will come back soon).
  void interrupt() noexcept;
  std::size_t in_flight() const noexcept;
  /// The owner lets go; the ring is deleted now or when its last block comes back.
  static void retire(FrameRing* ring) noexcept;

 private:
  struct Slot {
    FrameRing* ring;
    std::size_t index;
  };
  FrameRing(std::size_t slots, std::size_t slot_bytes);
  ~FrameRing();
  GstBuffer* take_locked() noexcept;
  static void on_block_returned(gpointer slot) noexcept;

  std::size_t slot_bytes_;
  std::size_t stride_bytes_;  // slot_bytes_ rounded up to a cache line
  std::uint8_t* memory_;
  std::vector<Slot> slots_;
  std::vector<std::size_t> free_;  // indices of free slots; never grows past slots_.size()
  mutable std::mutex mutex_;
  std::condition_variable returned_;
  bool interrupted_ = false;
  bool retired_ = false;
};

}  // namespace vg::io::detail
