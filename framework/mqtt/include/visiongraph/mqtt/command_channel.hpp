#pragma once
/// @file
/// @brief Control requests received over MQTT: one text line per request (the same line a Unix-socket
/// control client sends), answered by a handler, the reply published back. Topics and rules: docs/mqtt.md.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "visiongraph/core/status.hpp"
#include "visiongraph/mqtt/endpoint.hpp"
#include "visiongraph/mqtt/options.hpp"

namespace vg::mqtt {

/// @brief Answers one request line (without the `id=` prefix and without a trailing newline), e.g.
/// "decode set_score_threshold 0.6" -> "ok ...". Runs on the channel's thread; an exception it throws
/// becomes the reply "error <what()>".
using MqttRequestHandler = std::function<std::string(std::string_view request)>;

/// @brief Counters of an MqttCommandChannel.
/// @code
/// const vg::mqtt::MqttCommandChannelStats s = channel.stats();
/// if (!s.subscribed) std::cerr << "control over MQTT unavailable: " << s.last_error << '\n';
/// @endcode
/// @note A snapshot (a plain value); MqttCommandChannel::stats() may be called from any thread.
struct MqttCommandChannelStats {
  std::uint64_t requests = 0;          ///< requests received (retained ones excluded)
  std::uint64_t replies = 0;           ///< replies handed to the broker connection
  std::uint64_t rejected = 0;          ///< answered "error ..." without calling the handler (too long, not UTF-8, ...)
  std::uint64_t handler_failures = 0;  ///< the handler threw; answered "error <what()>"
  std::uint64_t ignored_retained = 0;  ///< retained messages found on the request topic, never executed
  std::uint64_t reply_failures = 0;    ///< a reply could not be published (connection lost, refused)
  std::uint64_t connections = 0;
  std::uint64_t reconnects = 0;
  bool connected = false;   ///< session up
  bool subscribed = false;  ///< the broker confirmed the subscription to the request topic
  std::string last_error;   ///< "<url>: <what went wrong>", empty if none yet
};

/// @brief Subscribes to the request topic of an MQTT URL and answers each request on a reply topic.
///
/// A request is a UTF-8 text line (one trailing "\n" or "\r\n" is ignored). If it starts with
/// `id=<token> ` (token: 1..64 printable ASCII characters), the handler gets the rest and the reply
/// starts with the same `id=<token> `. The reply goes to the MQTT 5 response-topic property of the
/// request when it has a valid one (not a wildcard, not the request topic itself), else to
/// `<topic>/reply`; an MQTT 5 correlation-data property is echoed (MQTT 5 is the default; with
/// MqttOptions::protocol = v311 only `/reply` and the `id=` prefix apply). Requests are handled one at a time,
/// in arrival order, on the channel's thread (`vg-mqtt-ctl`). A request over 4096 bytes gets
/// "error request too long ...", one that is not valid UTF-8 or holds more than one line gets an
/// "error ..." reply; the handler is not called for them. Retained messages on the request topic are
/// never executed (a stale command would otherwise run again at every reconnect). Connection handling
/// is the publisher's: reconnect with backoff, resubscribe. QoS 1 requests may be redelivered after a
/// reconnect (at least once): make commands idempotent where that matters.
///
/// Security: whoever may publish to the request topic commands the graph; the broker's access control
/// decides who that is. Commanding over MQTT is off unless the application creates a channel.
/// @code
/// vg::mqtt::MqttCommandChannel channel("mqtt://127.0.0.1:1883/vg/face_detect/control",
///     [&](std::string_view request) { return control_line(graph, request); });
/// // mosquitto_pub -t vg/face_detect/control -m 'id=7 decode set_score_threshold 0.6'
/// //   -> on vg/face_detect/control/reply: "id=7 ok decoder=blazeface score_threshold=0.6 ..."
/// @endcode
/// @note stats(), wait_subscribed() and close() from any thread. close() waits for a handler call in
///       progress, so the handler must be bounded in time; called from the handler itself it only asks
///       the thread to stop. The destructor calls close(); never destroy the channel from its handler.
class MqttCommandChannel {
 public:
  /// Longest request accepted, in bytes (id prefix included).
  static constexpr std::size_t max_request_size = 4096;

  /// @brief Throws vg::Error (naming the URL) for a bad URL or option, an empty handler, an unreadable
  /// TLS file, or when libmosquitto cannot be set up. Starts the thread; does not wait for the broker.
  MqttCommandChannel(std::string_view url, MqttRequestHandler handler, const MqttOptions& options = {});
  MqttCommandChannel(const MqttEndpoint& endpoint, MqttRequestHandler handler, const MqttOptions& options = {});
  ~MqttCommandChannel();
  MqttCommandChannel(const MqttCommandChannel&) = delete;
  MqttCommandChannel& operator=(const MqttCommandChannel&) = delete;

  /// @brief Wait until the broker confirmed the subscription (requests sent from then on are seen).
  /// ok, timeout or stopped.
  Status wait_subscribed(std::chrono::milliseconds timeout) noexcept;

  /// @brief Stop taking requests: a DISCONNECT if the socket takes one (at most 0.5 s), then join the
  /// thread (after a handler call in progress returns). Idempotent.
  void close() noexcept;

  MqttCommandChannelStats stats() const;
  const MqttEndpoint& endpoint() const noexcept;
  const std::string& reply_topic() const noexcept;  ///< `<topic>/reply`
  const std::string& client_id() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vg::mqtt
