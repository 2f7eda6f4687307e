#pragma once
// A memfd standing in for a DMA-BUF handed out by a camera or decoder: a real fd (so the fd path, fstat
// identity included, runs on any Linux host), mapped once, with the tensor at an offset inside it.

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

#include "visiongraph/memory/external_buffer.hpp"
#include "visiongraph/memory/memory_block.hpp"

namespace vg::test {

class MemfdBuffer {
 public:
  /// @p tensor_bytes at byte @p offset of a memfd of offset + tensor_bytes bytes.
  MemfdBuffer(std::size_t tensor_bytes, std::size_t offset) : bytes_(tensor_bytes), offset_(offset) { open_new(); }
  ~MemfdBuffer() { close_current(); }
  MemfdBuffer(const MemfdBuffer&) = delete;
  MemfdBuffer& operator=(const MemfdBuffer&) = delete;

  int fd() const noexcept { return fd_; }
  std::uint8_t* tensor() const noexcept { return static_cast<std::uint8_t*>(map_) + offset_; }
  std::size_t tensor_bytes() const noexcept { return bytes_; }

  /// What the application imports: CPU address of the tensor, its size, the fd and the tensor's offset in it.
  MemoryBlock block() const noexcept {
    MemoryBlock b;
    b.data = tensor();
    b.size = bytes_;
    b.dmabuf_fd = fd_;
    b.fd_offset = offset_;
    return b;
  }
  /// The same memory without a CPU address (device-only import).
  ExternalBuffer device_only() const noexcept {
    ExternalBuffer e;
    e.block.size = bytes_;
    e.block.dmabuf_fd = fd_;
    e.block.fd_offset = offset_;
    return e;
  }
  /// Writes a pattern unique to @p frame into the tensor bytes.
  void fill(std::uint32_t frame) const noexcept {
    for (std::size_t j = 0; j < bytes_; ++j) {
      tensor()[j] = static_cast<std::uint8_t>(frame * 7u + j * 13u + (frame >> 8));
    }
  }
  /// Closes this memfd and puts a new, different one under the same fd number (a replaced buffer pool
  /// whose fd numbers were reused).
  void replace_keeping_number() {
    const int number = fd_;
    const int fresh = ::memfd_create("vg_test_frame", MFD_CLOEXEC);
    if (fresh < 0) throw std::runtime_error("memfd_create failed");
    ::munmap(map_, offset_ + bytes_);
    if (::dup2(fresh, number) != number) throw std::runtime_error("dup2 failed");  // closes the old memfd
    ::close(fresh);
    map_current();
  }

 private:
  void open_new() {
    fd_ = ::memfd_create("vg_test_frame", MFD_CLOEXEC);
    if (fd_ < 0) throw std::runtime_error("memfd_create failed");
    map_current();
  }
  void map_current() {
    if (::ftruncate(fd_, static_cast<off_t>(offset_ + bytes_)) != 0) throw std::runtime_error("ftruncate failed");
    map_ = ::mmap(nullptr, offset_ + bytes_, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
    if (map_ == MAP_FAILED) throw std::runtime_error("mmap of memfd " + std::to_string(fd_) + " failed");
  }
  void close_current() noexcept {
    if (map_ != nullptr && map_ != MAP_FAILED) ::munmap(map_, offset_ + bytes_);
    if (fd_ >= 0) ::close(fd_);
    map_ = nullptr;
    fd_ = -1;
  }

  std::size_t bytes_;
  std::size_t offset_;
  int fd_ = -1;
  void* map_ = nullptr;
};

}  // namespace vg::test
