#include "visiongraph/npu/memfd_allocator.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "fd_block.hpp"
#include "visiongraph/core/error.hpp"

namespace vg::npu {

MemoryBlock MemfdAllocator::allocate(std::size_t size, std::size_t alignment) {
  const int fd = ::memfd_create("visiongraph-tensor", MFD_CLOEXEC);
  if (fd < 0) throw Error(std::string("memfd allocator: memfd_create failed: ") + std::strerror(errno));
  const std::size_t length = detail::mapping_length(size, alignment);
  if (::ftruncate(fd, static_cast<off_t>(length)) != 0) {
    const int err = errno;
    ::close(fd);
    throw Error("memfd allocator: ftruncate(" + std::to_string(length) + ") failed: " + std::strerror(err));
  }
  return map_fd(fd, length, size, alignment, "memfd allocator");
}

}  // namespace vg::npu
