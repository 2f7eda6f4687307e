#pragma once
// The connection machinery shared by MqttPublisher and MqttCommandChannel: one libmosquitto client
// driven by our own thread through libmosquitto's external-loop API (mosquitto_socket + loop_read /
// loop_write / loop_misc) and poll(). Owning the loop (instead of mosquitto_loop_start) gives:
//  - reconnect backoff in milliseconds (libmosquitto's own is in whole seconds),
//  - a connect timeout (libmosquitto has none: a broker that accepts TCP but never sends CONNACK, e.g.
//    one that is SIGSTOPped, would hold an attempt for ever),
//  - a wake-up fd the publisher can signal without any lock, and a bounded goodbye at close().

#include <mosquitto.h>
#include <mqtt_protocol.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "visiongraph/core/status.hpp"
#include "visiongraph/mqtt/endpoint.hpp"
#include "visiongraph/mqtt/options.hpp"

namespace vg::mqtt::detail {

/// The client id for a client of kind @p kind ("" for publishers, "control" for command channels):
/// options.client_id if set, else "visiongraph-<pid>[-kind][-n]" with n counting clients of that kind.
std::string resolve_client_id(const MqttOptions& options, std::string_view kind);

class ClientCore {
 public:
  using Clock = std::chrono::steady_clock;

  /// Validates the options, creates and configures the libmosquitto client. Throws vg::Error.
  ClientCore(MqttEndpoint endpoint, MqttOptions options, std::string client_id, const char* thread_name);
  virtual ~ClientCore();
  ClientCore(const ClientCore&) = delete;
  ClientCore& operator=(const ClientCore&) = delete;

  /// Start the network thread. Call last in the most derived constructor (the thread calls the hooks).
  void start();
  /// Ask the thread to stop and join it; from the thread itself (a hook or a handler) only asks.
  /// Call first in the most derived destructor. Idempotent.
  void stop() noexcept;
  bool stop_requested() const noexcept { return stop_.load(std::memory_order_acquire); }
  /// Wake the thread from poll(). Lock-free and allocation-free (one eventfd write).
  void wake() noexcept;

  bool connected() const noexcept { return connected_.load(std::memory_order_acquire); }
  std::uint64_t connections() const noexcept { return connections_.load(std::memory_order_relaxed); }
  std::uint64_t reconnects() const noexcept { return reconnects_.load(std::memory_order_relaxed); }
  std::string last_error() const;

  /// Wait until @p ready() (evaluated under the wait mutex) or stop or timeout: ok, stopped, timeout.
  Status wait_until(const std::function<bool()>& ready, std::chrono::milliseconds timeout) noexcept;
  /// Wake every wait_until() caller so it re-evaluates its condition.
  void notify_waiters() noexcept;

  const MqttEndpoint& endpoint() const noexcept { return endpoint_; }
  const MqttOptions& options() const noexcept { return options_; }
  const std::string& client_id() const noexcept { return client_id_; }

 protected:
  mosquitto* handle() const noexcept { return mosq_; }
  bool on_network_thread() const noexcept;
  /// Record "<url>: <what>" as the last error.
  void set_error(const std::string& what) noexcept;

  // Hooks, all called on the network thread.
  virtual void on_session_up() {}    ///< CONNACK accepted
  virtual void on_session_down() {}  ///< the session that was up is gone (libmosquitto dropped its socket)
  virtual void on_published(int /*mid*/, int /*reason_code*/) {}
  virtual void on_subscribed(int /*mid*/, int /*qos_count*/, const int* /*granted*/) {}
  virtual void on_message(const mosquitto_message& /*message*/, const mosquitto_property* /*props*/) {}
  /// While the session is up, once per loop pass: hand work to libmosquitto.
  virtual void pump() {}
  /// Before sleeping in poll() with the session up: return true when there is work right now (the loop
  /// then polls without waiting); otherwise arrange to be woken (wake()) when work arrives.
  virtual bool has_work_or_arm_wakeup() { return false; }
  /// At the end of every loop pass, outside libmosquitto's callbacks (whatever the session state).
  virtual void after_io() {}
  /// After the loop ended and the goodbye is done (or abandoned); libmosquitto is still alive.
  virtual void on_closed() {}

 private:
  enum class Link : std::uint8_t { idle, connecting, up };

  void run() noexcept;
  void loop_once();
  void session_started(int rc);
  void attempt_connect(Clock::time_point now);
  void schedule_retry(Clock::time_point now);
  void say_goodbye() noexcept;
  void link_lost(int rc, int saved_errno);
  std::string library_detail() const;

  static void cb_connect(mosquitto*, void* self, int rc, int flags, const mosquitto_property* props);
  static void cb_disconnect(mosquitto*, void* self, int rc, const mosquitto_property* props);
  static void cb_publish(mosquitto*, void* self, int mid, int rc, const mosquitto_property* props);
  static void cb_subscribe(mosquitto*, void* self, int mid, int count, const int* granted,
                           const mosquitto_property* props);
  static void cb_log(mosquitto*, void* self, int level, const char* text);
  static void cb_message(mosquitto*, void* self, const mosquitto_message* msg, const mosquitto_property* props);

  MqttEndpoint endpoint_;
  MqttOptions options_;
  std::string client_id_;
  const char* thread_name_;
  mosquitto* mosq_ = nullptr;
  int wake_fd_ = -1;
  std::thread thread_;
  std::atomic<std::thread::id> thread_id_{};
  std::mutex stop_mutex_;  // serialises stop() callers around the join

  // Network-thread state.
  Link link_ = Link::idle;
  Clock::time_point next_attempt_{};
  Clock::time_point connect_deadline_{};
  std::chrono::milliseconds backoff_{0};
  bool had_session_ = false;
  bool attempt_failed_reported_ = false;  // the broker's refusal is already in last_error
  std::string library_error_;             // libmosquitto's latest error log line since the attempt

  std::atomic<bool> stop_{false};
  std::atomic<bool> connected_{false};
  std::atomic<std::uint64_t> connections_{0};
  std::atomic<std::uint64_t> reconnects_{0};

  mutable std::mutex error_mutex_;
  std::string last_error_;

  std::mutex wait_mutex_;
  std::condition_variable wait_cv_;
};

}  // namespace vg::mqtt::detail
