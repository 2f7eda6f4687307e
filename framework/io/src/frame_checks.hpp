#pragma once
// Checks on what a GStreamer source delivers before a byte of it is read: the memory kind its caps name
// and the size its buffer has against the size its caps imply (gst_source.cpp uses them per frame).

#include <gst/gst.h>
#include <gst/video/video.h>

#include <cstddef>
#include <string>

#include "visiongraph/data/types.hpp"
#include "visiongraph/memory/external_buffer.hpp"

namespace vg::io::detail {

/// "" when the CPU can read frames with @p caps through a plain map (system memory, DMA-BUF); else
/// what to tell the user: the memory kind (NVIDIA's memory:NVMM maps to a descriptor, not the pixels),
/// the caps, and what to put in the pipeline instead.
std::string unreadable_memory(const GstCaps* caps);

/// Bytes a frame of @p info in @p format needs from the start of its block, with the planes' offsets and
/// strides of @p memory (0 for an empty frame).
std::size_t bytes_needed(const GstVideoInfo& info, ImageFormat format, const ExternalBuffer& memory);

}  // namespace vg::io::detail
