#pragma once
// Where every OpenVX object lives. A handle is the object's address, so an allocator that hands a freed
// address to the next object would let a released handle name that later object (a stale vxImage passing
// for a new one). The arena never hands out an address twice: objects are placed one after another in
// address space reserved for them, and a page whose objects are all gone gives its memory back but keeps
// its addresses. The registry of live objects (object.hpp) then refuses every stale handle.
#include <cstddef>

namespace vg::openvx::arena {

/// @p size bytes at an address never used before by this process's objects (16-byte aligned); null when
/// no memory is left.
void* allocate(std::size_t size) noexcept;

/// Gives back what allocate() returned; its address is never returned again.
void release(void* object) noexcept;

/// Bytes of object memory currently allocated (for tests).
std::size_t bytes_in_use() noexcept;

}  // namespace vg::openvx::arena
