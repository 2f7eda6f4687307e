#pragma once
/// @file
/// @brief Publishing messages (one JSON line per frame, typically) to one MQTT topic without ever
/// blocking the caller: a bounded, preallocated outbox drained by the publisher's own network thread.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "visiongraph/core/status.hpp"
#include "visiongraph/mqtt/endpoint.hpp"
#include "visiongraph/mqtt/options.hpp"

namespace vg::mqtt {

/// @brief Counters of an MqttPublisher. Every message given to publish() ends up in exactly one of
/// dropped, refused, or published; every published message ends in sent or failed, or is still queued:
/// `published == sent + failed + queued` once the counters are read at a quiet moment.
/// @code
/// const vg::mqtt::MqttPublisherStats s = pub.stats();
/// if (s.dropped > 0) std::cerr << s.summary(pub.endpoint().url) << '\n';
/// @endcode
/// @note A snapshot (a plain value); MqttPublisher::stats() may be called from any thread.
struct MqttPublisherStats {
  /// What happens when the outbox is full: the new message is not taken (publish() returns busy) and
  /// the messages already queued are kept, so what reaches the broker is a gap-free run in order.
  static constexpr std::string_view drop_policy = "drop-newest";

  std::uint64_t published = 0;  ///< accepted into the outbox (publish() returned ok)
  std::uint64_t sent = 0;       ///< QoS 0: written to the socket; QoS 1: acknowledged by the broker
  std::uint64_t dropped = 0;    ///< publish() returned busy: the outbox was full (drop_policy)
  std::uint64_t refused = 0;    ///< publish() returned invalid_argument: payload > max_message_size
  /// Accepted but not delivered: QoS 0 messages libmosquitto still held when a connection was lost,
  /// messages the broker rejected, and whatever was still queued at close().
  std::uint64_t failed = 0;
  std::uint64_t queued = 0;       ///< in the outbox or in flight now
  std::uint64_t connections = 0;  ///< sessions established (CONNACK accepted)
  std::uint64_t reconnects = 0;   ///< sessions established after an earlier one was lost
  bool connected = false;
  int qos = 1;  ///< the publisher's QoS: with 0, "sent" is written to the socket, not known to have arrived
  std::size_t outbox_capacity = 0;
  std::size_t max_message_size = 0;
  std::string last_error;  ///< "<url>: <what went wrong>" (the latest problem), empty if none yet

  /// @brief One line for logs: "mqtt://h:1883/t: 500 sent, 0 failed, 3 dropped (outbox full, drop-newest),
  /// 0 refused (> 65536 bytes), 0 queued, 1 reconnects, connected; last error: ...".
  std::string summary(std::string_view url) const;
};

/// @brief Publishes payloads to the topic of an `mqtt://` / `mqtts://` URL.
///
/// publish() copies the payload into a fixed slot of the outbox (allocated at construction, one slot
/// per message, `max_message_size` bytes each) and returns: it never waits for the network, never
/// allocates and takes no lock. The publisher's thread (`vg-mqtt-pub`) connects, drains the outbox in
/// order, hands at most `max_inflight` messages at a time to libmosquitto, and reconnects with
/// backoff (250 ms doubling to 5 s by default) whenever the broker is absent, refuses, dies or stops
/// answering; publishing resumes when it is back. Construction does not wait for the broker.
///
/// Delivery: messages leave in publish order. QoS 0 is at most once: a message written into the socket
/// of a connection that then dies may be lost, and messages libmosquitto still held then are counted
/// as failed. QoS 1 is at least once: unacknowledged messages are resent by libmosquitto after a
/// reconnect (the broker may then see duplicates). Neither survives the process (no disk queue).
/// @code
/// vg::mqtt::MqttPublisher pub("mqtt://127.0.0.1:1883/vg/results");
/// for (const std::string& line : results)
///   if (pub.publish(line) == vg::Status::busy) { /* outbox full: this message is dropped */ }
/// (void)pub.flush(std::chrono::seconds(2));   // at the end of the run
/// std::cerr << pub.stats().summary(pub.endpoint().url) << '\n';
/// @endcode
/// @note publish() is safe from any number of threads at once (the outbox is a lock-free ring);
///       flush(), stats(), wait_connected() and close() from any thread. The destructor calls close().
class MqttPublisher {
 public:
  /// @brief Throws vg::Error (naming the URL) for a bad URL or option, an unreadable TLS file, or when
  /// libmosquitto cannot be set up. Starts the network thread; does not wait for the connection.
  explicit MqttPublisher(std::string_view url, const MqttOptions& options = {});
  explicit MqttPublisher(const MqttEndpoint& endpoint, const MqttOptions& options = {});
  ~MqttPublisher();
  MqttPublisher(const MqttPublisher&) = delete;
  MqttPublisher& operator=(const MqttPublisher&) = delete;

  /// @brief Queue @p payload (copied) for the endpoint's topic. ok: queued; busy: the outbox is full,
  /// the message is dropped and counted; invalid_argument: longer than max_message_size, refused and
  /// counted; stopped: after close() (not counted). Never waits for the broker or the network.
  Status publish(std::string_view payload) noexcept;

  /// @brief Wait until every message published before this call is sent or failed. ok, timeout (still
  /// queued: e.g. no broker), stopped (closed meanwhile).
  Status flush(std::chrono::milliseconds timeout) noexcept;

  /// @brief Wait until a session with the broker is up. ok, timeout or stopped.
  Status wait_connected(std::chrono::milliseconds timeout) noexcept;

  /// @brief Stop: messages still queued are counted as failed (flush() first to deliver them), the
  /// broker gets a DISCONNECT if its socket takes one (never waited for more than 0.5 s), the thread is
  /// joined. Bounded in time even when the broker is hung or gone (the one exception: a host name whose
  /// DNS lookup hangs, because a lookup in progress cannot be interrupted; use an address to avoid it).
  /// Idempotent.
  void close() noexcept;

  MqttPublisherStats stats() const;
  bool connected() const noexcept;
  const MqttEndpoint& endpoint() const noexcept;
  const std::string& client_id() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vg::mqtt
