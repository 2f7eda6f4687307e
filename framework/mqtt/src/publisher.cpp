// MqttPublisher: callers copy payloads into the lock-free outbox; the network thread (ClientCore) hands
// them to libmosquitto in order, at most max_inflight at a time, so libmosquitto's own queue stays short
// and the outbox is the only place messages wait.

#include "visiongraph/mqtt/publisher.hpp"

#include <atomic>
#include <mutex>
#include <new>
#include <string>

#include "client_core.hpp"
#include "outbox.hpp"
#include "visiongraph/core/error.hpp"

namespace vg::mqtt {

namespace {

detail::Outbox make_outbox(const MqttEndpoint& endpoint, const MqttOptions& options) {
  try {
    return detail::Outbox(options.outbox_capacity, options.max_message_size);
  } catch (const std::bad_alloc&) {
    throw Error(endpoint.url + ": cannot reserve the outbox (" + std::to_string(options.outbox_capacity) +
                " x " + std::to_string(options.max_message_size) + " bytes)");
  }
}

}  // namespace

std::string MqttPublisherStats::summary(std::string_view url) const {
  std::string s(url);
  s += ": " + std::to_string(published) + " published, " + std::to_string(sent) + " sent, " +
       std::to_string(failed) + " failed, " + std::to_string(dropped) + " dropped (outbox full, " +
       std::string(drop_policy) + "), " + std::to_string(refused) + " refused (> " +
       std::to_string(max_message_size) + " bytes), " + std::to_string(queued) + " queued, " +
       std::to_string(reconnects) + " reconnects, " + (connected ? "connected" : "not connected");
  if (qos == 0 && (reconnects > 0 || !connected))
    s += "; QoS 0: messages written just before a connection broke may not have arrived and are not counted "
         "(--mqtt-qos 1 counts every one)";
  if (!last_error.empty()) s += "; last error: " + last_error;
  return s;
}

struct MqttPublisher::Impl final : detail::ClientCore {
  Impl(const MqttEndpoint& endpoint, const MqttOptions& options)
      : ClientCore(endpoint, options, detail::resolve_client_id(options, ""), "vg-mqtt-pub"),
        outbox_(make_outbox(endpoint, options)) {
    start();
  }
  ~Impl() override { stop(); }

  Status publish(std::string_view payload) noexcept {
    if (stop_requested()) return Status::stopped;
    if (payload.size() > options().max_message_size) {
      refused_.fetch_add(1, std::memory_order_relaxed);
      return Status::invalid_argument;
    }
    if (!outbox_.try_push(payload)) {
      dropped_.fetch_add(1, std::memory_order_relaxed);
      return Status::busy;
    }
    // Sequentially consistent on both sides (see has_work_or_arm_wakeup): either the network thread
    // sees this count before it sleeps, or this thread sees that it armed the wake-up and signals it.
    published_.fetch_add(1, std::memory_order_seq_cst);
    if (wake_armed_.load(std::memory_order_seq_cst) && wake_armed_.exchange(false, std::memory_order_seq_cst))
      wake();
    return Status::ok;
  }

  Status flush(std::chrono::milliseconds timeout) noexcept {
    if (stop_requested()) return Status::stopped;
    const std::uint64_t target = published_.load(std::memory_order_acquire);
    const Status s = wait_until([&] { return settled() >= target; }, timeout);
    return stop_requested() ? Status::stopped : s;
  }

  std::uint64_t settled() const noexcept {
    return sent_.load(std::memory_order_acquire) + failed_.load(std::memory_order_acquire);
  }

  /// Consumer side: call on the network thread, or after it ended with close_mutex_ held.
  void drain_outbox_as_failed() noexcept {
    std::string_view message;
    std::uint64_t left = 0;
    while (outbox_.peek(message)) {
      outbox_.pop();
      ++taken_;
      ++left;
    }
    if (left > 0) failed_.fetch_add(left, std::memory_order_release);
  }

  MqttPublisherStats stats() const {
    MqttPublisherStats s;
    s.published = published_.load(std::memory_order_relaxed);
    s.sent = sent_.load(std::memory_order_relaxed);
    s.dropped = dropped_.load(std::memory_order_relaxed);
    s.refused = refused_.load(std::memory_order_relaxed);
    s.failed = failed_.load(std::memory_order_relaxed);
    s.queued = outbox_.size() + inflight_seen_.load(std::memory_order_relaxed);
    s.connections = connections();
    s.reconnects = reconnects();
    s.connected = connected();
    s.qos = options().qos;
    s.outbox_capacity = outbox_.capacity();
    s.max_message_size = options().max_message_size;
    s.last_error = last_error();
    return s;
  }

 private:
  void set_inflight(std::uint32_t n) noexcept {
    inflight_ = n;
    inflight_seen_.store(n, std::memory_order_relaxed);
  }

  void pump() override {
    std::string_view message;
    while (inflight_ < options().max_inflight && outbox_.peek(message)) {
      // Counted before the call: for QoS 0 libmosquitto may write the message and run on_published()
      // inside mosquitto_publish_v5 itself.
      set_inflight(inflight_ + 1);
      const int rc = mosquitto_publish_v5(handle(), nullptr, endpoint().topic.c_str(),
                                          static_cast<int>(message.size()), message.data(), options().qos,
                                          /*retain=*/false, nullptr);
      if (rc == MOSQ_ERR_SUCCESS) {  // libmosquitto copied the payload: the slot is free again
        outbox_.pop();
        ++taken_;
        continue;
      }
      set_inflight(inflight_ - 1);
      if (rc == MOSQ_ERR_NO_CONN || rc == MOSQ_ERR_CONN_LOST) break;  // keep it for the next session
      // This message cannot be sent at all (e.g. larger than the broker's maximum packet size): drop
      // it rather than block the ones behind it.
      outbox_.pop();
      ++taken_;
      failed_.fetch_add(1, std::memory_order_release);
      set_error(std::string("message not accepted for sending: ") + mosquitto_strerror(rc));
      notify_waiters();
    }
  }

  bool has_work_or_arm_wakeup() override {
    if (inflight_ >= options().max_inflight) return false;  // socket events (written, acked) wake us
    // Arm, then look (both sequentially consistent, like publish()'s count-then-look): a message
    // published after this look finds the wake-up armed. A count ahead of what was taken means a
    // message is complete in the outbox (or a producer is still copying one: then a short spin).
    wake_armed_.store(true, std::memory_order_seq_cst);
    if (published_.load(std::memory_order_seq_cst) > taken_) {
      wake_armed_.store(false, std::memory_order_relaxed);
      return true;
    }
    return false;
  }

  void on_published(int /*mid*/, int reason_code) override {
    if (inflight_ > 0) set_inflight(inflight_ - 1);
    if (reason_code >= 128) {  // MQTT 5 PUBACK with a failure reason (not authorised, quota exceeded, ...)
      failed_.fetch_add(1, std::memory_order_release);
      set_error(std::string("the broker rejected a message: ") + mosquitto_reason_string(reason_code));
    } else {
      sent_.fetch_add(1, std::memory_order_release);
    }
    notify_waiters();
  }

  void on_session_down() override {
    // QoS 0 messages libmosquitto had not written yet are discarded with the connection (no callback
    // comes for them). QoS 1 messages stay with libmosquitto and are resent in the next session.
    if (options().qos == 0 && inflight_ > 0) {
      failed_.fetch_add(inflight_, std::memory_order_release);
      set_inflight(0);
    }
  }

  void on_closed() override {
    drain_outbox_as_failed();
    if (inflight_ > 0) {
      failed_.fetch_add(inflight_, std::memory_order_release);
      set_inflight(0);
    }
  }

  detail::Outbox outbox_;

 public:
  std::mutex close_mutex_;  // close() callers drain the outbox one at a time

 private:
  std::atomic<bool> wake_armed_{false};
  std::uint32_t inflight_ = 0;  // network thread only
  std::uint64_t taken_ = 0;     // messages popped from the outbox; network thread (close() after it)
  std::atomic<std::uint32_t> inflight_seen_{0};  // its mirror for stats()

  std::atomic<std::uint64_t> published_{0};
  std::atomic<std::uint64_t> dropped_{0};
  std::atomic<std::uint64_t> refused_{0};
  std::atomic<std::uint64_t> sent_{0};
  std::atomic<std::uint64_t> failed_{0};
};

MqttPublisher::MqttPublisher(std::string_view url, const MqttOptions& options)
    : MqttPublisher(MqttEndpoint::parse(url), options) {}

MqttPublisher::MqttPublisher(const MqttEndpoint& endpoint, const MqttOptions& options)
    : impl_(std::make_unique<Impl>(endpoint, options)) {}

MqttPublisher::~MqttPublisher() { close(); }

Status MqttPublisher::publish(std::string_view payload) noexcept { return impl_->publish(payload); }

Status MqttPublisher::flush(std::chrono::milliseconds timeout) noexcept { return impl_->flush(timeout); }

Status MqttPublisher::wait_connected(std::chrono::milliseconds timeout) noexcept {
  return impl_->wait_until([this] { return impl_->connected(); }, timeout);
}

void MqttPublisher::close() noexcept {
  impl_->stop();
  // A publish() that passed its stop check just before close() may have queued after the thread's last
  // drain; the thread is gone, so close() is the consumer now.
  std::lock_guard<std::mutex> lock(impl_->close_mutex_);
  impl_->drain_outbox_as_failed();
}

MqttPublisherStats MqttPublisher::stats() const { return impl_->stats(); }
bool MqttPublisher::connected() const noexcept { return impl_->connected(); }
const MqttEndpoint& MqttPublisher::endpoint() const noexcept { return impl_->endpoint(); }
const std::string& MqttPublisher::client_id() const noexcept { return impl_->client_id(); }

}  // namespace vg::mqtt
