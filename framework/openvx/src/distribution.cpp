// Distributions: creation, copies, maps, queries, and the data object operations (data_object.hpp).
#include "distribution.hpp"

#include <cstdio>
#include <new>

#include "checked_size.hpp"
#include "context.hpp"
#include "data_object.hpp"
#include "error_object.hpp"
#include "meta_format.hpp"

namespace vg::openvx {
namespace {

vx_distribution error_distribution(vx_reference owner, vx_status status) noexcept {
  return reinterpret_cast<vx_distribution>(error_object(owner, status));
}

/// Bins and range: at least one bin, and no more bins than values in the range.
bool valid_bins(vx_size bins, vx_uint32 range) noexcept { return bins > 0 && range > 0 && bins <= range; }

vx_distribution make_distribution(vx_reference owner, vx_size bins, vx_int32 offset, vx_uint32 range, bool is_virtual) noexcept {
  const bool open = is_virtual && (bins == 0 || range == 0);
  if (!open && !valid_bins(bins, range)) {
    log(owner, VX_ERROR_INVALID_PARAMETERS, "vxCreateDistribution: %zu bins over a range of %u (1 to range bins are needed)",
        bins, range);
    return error_distribution(owner, VX_ERROR_INVALID_PARAMETERS);
  }
  vx_size bytes = 0;
  if (!checked_bytes(bytes, bins, sizeof(vx_int32))) {
    log(owner, VX_ERROR_NO_MEMORY, "vxCreateDistribution: %zu bins are beyond what one object may hold", static_cast<size_t>(bins));
    return error_distribution(owner, VX_ERROR_NO_MEMORY);
  }
  auto* distribution = new (std::nothrow) _vx_distribution(context_of(owner));
  if (distribution == nullptr) return error_distribution(owner, VX_ERROR_NO_MEMORY);
  distribution->bins = distribution->requested_bins = bins;
  distribution->offset = offset;
  distribution->range = distribution->requested_range = range;
  distribution->is_virtual = is_virtual;
  if (!is_virtual && !distribution->data.allocate(bytes)) {
    delete distribution;
    return error_distribution(owner, VX_ERROR_NO_MEMORY);
  }
  vx_reference ref = adopt(distribution, Hold::external, owner);
  return ref != nullptr ? reinterpret_cast<vx_distribution>(ref) : error_distribution(owner, VX_ERROR_NO_MEMORY);
}

}  // namespace

vx_reference distribution_like(vx_reference owner, const _vx_distribution* exemplar) noexcept {
  return reinterpret_cast<vx_reference>(
      make_distribution(owner, exemplar->bins, exemplar->offset, exemplar->range, owner->type == VX_TYPE_GRAPH));
}

vx_status distribution_meta_from(vx_meta_format meta, const _vx_distribution* exemplar) noexcept {
  meta->bins = exemplar->bins;
  meta->offset = exemplar->offset;
  meta->range = exemplar->range;
  return VX_SUCCESS;
}

vx_status distribution_apply_meta(_vx_distribution* distribution, vx_meta_format meta, char* why, vx_size why_size) noexcept {
  if (!distribution->is_virtual && meta->bins == 0 && meta->range == 0) {
    std::snprintf(why, why_size, "validate did not describe the distribution (VX_DISTRIBUTION_BINS, VX_DISTRIBUTION_RANGE)");
    return VX_ERROR_INVALID_PARAMETERS;
  }
  vx_size bins = distribution->is_virtual ? distribution->requested_bins : distribution->bins;
  vx_uint32 range = distribution->is_virtual ? distribution->requested_range : distribution->range;
  const bool was_open = bins == 0 || range == 0;
  if ((meta->bins != 0 && bins != 0 && meta->bins != bins) || (meta->range != 0 && range != 0 && meta->range != range)) {
    std::snprintf(why, why_size, "the distribution has %zu bins over %u, validate says %zu over %u", bins, range, meta->bins,
                  meta->range);
    return VX_ERROR_INVALID_DIMENSION;
  }
  // The offset is checked when validate describes the whole distribution and it was not left open.
  if (!was_open && meta->bins != 0 && meta->range != 0 && meta->offset != distribution->offset) {
    std::snprintf(why, why_size, "the distribution's offset is %d, validate says %d", distribution->offset, meta->offset);
    return VX_ERROR_INVALID_VALUE;
  }
  if (bins == 0) bins = meta->bins;
  if (range == 0) range = meta->range;
  if (!valid_bins(bins, range)) {
    std::snprintf(why, why_size, "validate did not set valid VX_DISTRIBUTION_BINS and VX_DISTRIBUTION_RANGE");
    return VX_ERROR_INVALID_DIMENSION;
  }
  if (!distribution->is_virtual) return VX_SUCCESS;
  vx_size bytes = 0;
  if (!checked_bytes(bytes, bins, sizeof(vx_int32)) || !distribution->data.allocate(bytes)) return VX_ERROR_NO_MEMORY;
  distribution->bins = bins;
  distribution->range = range;
  if (was_open) distribution->offset = meta->offset;
  return VX_SUCCESS;
}

}  // namespace vg::openvx

using namespace vg::openvx;

extern "C" {

VX_API_ENTRY vx_distribution VX_API_CALL vxCreateDistribution(vx_context context, vx_size numBins, vx_int32 offset, vx_uint32 range) {
  if (!valid(context, VX_TYPE_CONTEXT)) return nullptr;
  return to_handle(make_distribution(context, numBins, offset, range, false));
}

VX_API_ENTRY vx_distribution VX_API_CALL vxCreateVirtualDistribution(vx_graph graph, vx_size numBins, vx_int32 offset,
                                                                     vx_uint32 range) {
  if (!valid(graph, VX_TYPE_GRAPH)) return nullptr;
  return to_handle(make_distribution(reinterpret_cast<vx_reference>(graph), numBins, offset, range, true));
}

VX_API_ENTRY vx_status VX_API_CALL vxQueryDistribution(vx_distribution distribution, vx_enum attribute, void* ptr, vx_size size) {
  if (!valid(distribution, VX_TYPE_DISTRIBUTION)) return VX_ERROR_INVALID_REFERENCE;
  switch (attribute) {
    case VX_DISTRIBUTION_DIMENSIONS: return put<vx_size>(ptr, size, 1);
    case VX_DISTRIBUTION_OFFSET: return put<vx_int32>(ptr, size, distribution->offset);
    case VX_DISTRIBUTION_RANGE: return put<vx_uint32>(ptr, size, distribution->range);
    case VX_DISTRIBUTION_BINS: return put<vx_size>(ptr, size, distribution->bins);
    case VX_DISTRIBUTION_WINDOW: {
      // The width of a bin; 0 when the range is not a whole number of bins.
      const vx_uint32 window = distribution->bins == 0 || distribution->range % distribution->bins != 0
                                   ? 0
                                   : static_cast<vx_uint32>(distribution->range / distribution->bins);
      return put<vx_uint32>(ptr, size, window);
    }
    case VX_DISTRIBUTION_SIZE: return put<vx_size>(ptr, size, distribution->bins * sizeof(vx_int32));
    default: return VX_ERROR_NOT_SUPPORTED;
  }
}

VX_API_ENTRY vx_status VX_API_CALL vxCopyDistribution(vx_distribution distribution, void* user_ptr, vx_enum usage,
                                                      vx_enum user_mem_type) {
  if (!valid(distribution, VX_TYPE_DISTRIBUTION)) return VX_ERROR_INVALID_REFERENCE;
  return distribution->data.copy(distribution->is_virtual, user_ptr, usage, user_mem_type);
}

VX_API_ENTRY vx_status VX_API_CALL vxMapDistribution(vx_distribution distribution, vx_map_id* map_id, void** ptr, vx_enum usage,
                                                     vx_enum mem_type, vx_bitfield) {
  if (!valid(distribution, VX_TYPE_DISTRIBUTION)) return VX_ERROR_INVALID_REFERENCE;
  return distribution->data.map(distribution, distribution->is_virtual, map_id, ptr, usage, mem_type);
}

VX_API_ENTRY vx_status VX_API_CALL vxUnmapDistribution(vx_distribution distribution, vx_map_id map_id) {
  if (!valid(distribution, VX_TYPE_DISTRIBUTION)) return VX_ERROR_INVALID_REFERENCE;
  return distribution->data.unmap(distribution, map_id);
}

VX_API_ENTRY vx_status VX_API_CALL vxReleaseDistribution(vx_distribution* distribution) {
  return release_handle(distribution, VX_TYPE_DISTRIBUTION);
}

}  // extern "C"
