#pragma once
// The context's event queue (vx_khr_pipelining events): a fixed ring filled by the library's threads as
// graphs, nodes and graph parameters finish, read by vxWaitEvent. Nothing allocates after creation.
#include <VX/vx_khr_pipelining.h>

#include <array>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace vg::openvx {

class EventQueue {
 public:
  /// Events kept until read; when full the oldest goes (counted in dropped()).
  static constexpr std::size_t kCapacity = 256;

  /// Queues @p event (stamped now) while events are enabled.
  /// Queues an event; false when events are disabled (it is dropped).
  bool post(vx_enum type, vx_uint32 app_value, const vx_event_info_t& info) noexcept;
  /// The oldest event; waits for one unless @p block is false (then false when there is none).
  bool take(vx_event_t& event, bool block) noexcept;
  void set_enabled(bool enabled) noexcept;
  std::uint64_t dropped() const noexcept;

 private:
  mutable std::mutex lock_;
  std::condition_variable posted_;
  std::array<vx_event_t, kCapacity> ring_{};
  std::size_t head_ = 0;  // oldest
  std::size_t count_ = 0;
  bool enabled_ = true;  // the extension leaves the default to the implementation: on, as nothing is
                         // queued until a vxRegisterEvent asks for it
  std::uint64_t dropped_ = 0;
};

}  // namespace vg::openvx
