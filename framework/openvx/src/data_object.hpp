#pragma once
// What the library asks of every data object type, dispatched on the object's type: an object like an
// exemplar (object arrays, virtual objects), a meta format filled from an object
// (vxSetMetaFormatFromReference), and a validate result applied to a node's output at vxVerifyGraph
// (a virtual object takes it, any other object must match it).
#include <cstddef>
#include <vector>

#include "object.hpp"

namespace vg::openvx {

/// The context behind @p owner: the context itself, or the graph's context for virtual objects.
vx_context context_of(vx_reference owner) noexcept;

/// A new object of @p exemplar's type and attributes (contents not copied), owned by @p owner: a context,
/// or a graph (the new object is then virtual). Like a creator: an error object when it fails.
vx_reference create_like(vx_reference owner, vx_reference exemplar) noexcept;

/// vxSetMetaFormatFromReference: @p meta takes @p exemplar's attributes (types already checked equal).
vx_status meta_from_reference(vx_meta_format meta, vx_reference exemplar) noexcept;

/// Applies what validate said (@p meta) to @p output: a virtual object with open attributes takes them and
/// gets its memory; any other object must match. On a mismatch, @p why says what differs.
vx_status apply_meta(vx_reference output, vx_meta_format meta, char* why, vx_size why_size) noexcept;

/// The data object types (what a delay slot, an object array item or a kernel parameter can be): true for
/// every one except delays; object arrays included.
bool is_data_object_type(vx_enum type) noexcept;

/// Containers (pyramids, object arrays, delays) hold their items internally. take_item makes @p item, a
/// new object with the creator's (external) hold, an item of @p container: the container holds it and
/// nodes using the item are ordered with those using the container. drop_item is the container going: an
/// item the application or a node still holds lives on as an object of its own.
void take_item(_vx_reference* container, vx_reference item) noexcept;
void drop_item(vx_reference item) noexcept;

/// @p count new objects made like @p exemplar (create_like, owned by @p owner), taken as items of
/// @p container and appended to @p items (reserved by the caller). Stops at the first failure and
/// returns its status; the items made so far stay in @p items.
vx_status make_items_like(vx_reference owner, vx_reference exemplar, vx_size count, _vx_reference* container,
                          std::vector<vx_reference>& items) noexcept;

/// Refuses a container of @p count items like @p exemplar before anything is made: more than
/// kMaxContainerItems items (VX_ERROR_INVALID_PARAMETERS), or more bytes together than one object may hold
/// (VX_ERROR_NO_MEMORY). Logs what is wrong on @p owner, naming @p what (the creator).
vx_status container_fits(vx_reference owner, vx_reference exemplar, vx_size count, const char* what) noexcept;

/// The items of a pyramid (its levels) or an object array: how many (0 for anything else), item
/// @p index (null out of range), and where @p item sits in @p container (false when it is not there).
std::size_t item_count(const _vx_reference* container) noexcept;
vx_reference item_at(const _vx_reference* container, std::size_t index) noexcept;
bool item_index(const _vx_reference* container, const _vx_reference* item, std::size_t& index) noexcept;

/// What identifies the memory @p ref lives in, to order graph nodes: the root image of a region or
/// channel, the memory a tensor view shares, the container of an item (pyramid level, object array
/// item; a delay slot is its own root), else @p ref itself. Only compared, never dereferenced.
const void* data_root(vx_reference ref) noexcept;
/// Whether the caller may read or write the contents of a data object (map, copy, add items ...): a
/// virtual object only from kernel code while a graph runs, else VX_ERROR_OPTIMIZED_AWAY.
vx_status content_access(bool is_virtual) noexcept;

/// Usages a copy takes (VX_READ_ONLY, VX_WRITE_ONLY) and a map takes (those and VX_READ_AND_WRITE).
bool is_copy_usage(vx_enum usage) noexcept;
bool is_map_usage(vx_enum usage) noexcept;

/// Map flags this library knows (0, VX_NOGAP_X): its mapped memory never has gaps, so both are honoured.
bool is_map_flags(vx_uint32 flags) noexcept;

}  // namespace vg::openvx
