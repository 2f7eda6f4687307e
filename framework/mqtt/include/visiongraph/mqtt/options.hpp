#pragma once
/// @file
/// @brief How an MQTT client (MqttPublisher, MqttCommandChannel) talks to its broker: QoS, identity,
/// credentials, TLS, timing and the publisher's outbox. Every field and its default: docs/mqtt.md.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "visiongraph/mqtt/endpoint.hpp"

namespace vg::mqtt {

/// @brief The MQTT protocol version spoken to the broker.
enum class MqttProtocol : std::uint8_t {
  v311,  ///< MQTT 3.1.1: replies go to `<topic>/reply`; correlation only through the `id=` prefix
  v5,    ///< MQTT 5 (default): also the response-topic and correlation-data properties
};

/// @brief TLS settings, used with `mqtts://` URLs only (given with `mqtt://` they are an error).
/// @code
/// vg::mqtt::MqttOptions o;
/// o.tls.ca_file = "/etc/visiongraph/broker-ca.pem";
/// vg::mqtt::MqttPublisher pub("mqtts://broker.local/vg/results", o);
/// @endcode
/// @note A plain value.
struct MqttTlsOptions {
  std::string ca_file;    ///< PEM CA certificate(s) trusted for the broker; empty: the system's CAs
  std::string cert_file;  ///< client certificate (PEM), with key_file
  std::string key_file;   ///< the client certificate's private key (PEM, not encrypted)
  /// Skip the check that the broker's certificate names HOST (the chain is still verified). For test
  /// set-ups with an IP address and a certificate made for a name; never in production.
  bool insecure = false;

  bool any() const noexcept { return !ca_file.empty() || !cert_file.empty() || !key_file.empty() || insecure; }
};

/// @brief Options shared by MqttPublisher and MqttCommandChannel (the outbox fields only matter to the
/// publisher). Checked when a client is constructed: a bad value throws vg::Error naming the field.
/// @code
/// vg::mqtt::MqttOptions o;
/// o.qos = 1;
/// o.username = "camera7";
/// o.password = read_secret();
/// o.outbox_capacity = 64;
/// vg::mqtt::MqttPublisher pub("mqtt://broker.local/vg/results", o);
/// @endcode
/// @note A plain value; validate() is thread-safe.
struct MqttOptions {
  /// 1 (default): at least once (the broker acknowledges each message, libmosquitto resends unacknowledged
  /// ones after a reconnect, so duplicates are possible, losses are counted); 0: at most once (fire and
  /// forget: what a broken connection swallows is not known). QoS 2 is not offered.
  int qos = 1;
  /// Empty: "visiongraph-<pid>" for the first publisher of the process and "visiongraph-<pid>-control"
  /// for the first command channel; further clients of the same kind get "-2", "-3", ... appended.
  /// Two connections with the same id take the session from each other, so give each client its own.
  std::string client_id;
  std::string username;  ///< empty: none
  std::string password;  ///< only sent with a username
  MqttTlsOptions tls;
  MqttProtocol protocol = MqttProtocol::v5;
  /// Keep-alive interval (5..65535 s). A broker that stops answering (hung, network cut) is noticed
  /// after 1.5 to 2 intervals, then the client reconnects.
  std::chrono::seconds keepalive{10};
  /// From the start of a connection attempt to the broker's CONNACK; then the attempt is abandoned.
  std::chrono::milliseconds connect_timeout{5000};
  /// Delay before the next attempt after a failed or lost connection: initial, doubling up to max.
  std::chrono::milliseconds reconnect_initial{250};
  std::chrono::milliseconds reconnect_max{5000};
  /// Publisher: messages the outbox holds (its only queue), preallocated (1..65536).
  std::size_t outbox_capacity = 256;
  /// Publisher: the largest payload accepted, in bytes (1 .. 256 MiB); larger ones are refused and
  /// counted. Each outbox slot reserves this much address space (pages are used only as written).
  std::size_t max_message_size = 64 * 1024;
  /// Publisher: messages handed to libmosquitto and not yet written (QoS 0) or acknowledged (QoS 1)
  /// (1..1024). Keeps libmosquitto's own queue short so the outbox stays the only queue.
  std::uint32_t max_inflight = 8;

  /// @brief Throws vg::Error "<url>: option <field>: <what is wrong>" for a value out of range, TLS
  /// options with an mqtt:// URL, a certificate without its key, or a TLS file that cannot be read.
  void validate(const MqttEndpoint& endpoint) const;
};

}  // namespace vg::mqtt
