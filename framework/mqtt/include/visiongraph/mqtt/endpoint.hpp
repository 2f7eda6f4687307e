#pragma once
/// @file
/// @brief Where an MQTT client connects and which topic it uses: `mqtt://HOST[:PORT]/TOPIC` or
/// `mqtts://HOST[:PORT]/TOPIC` (TLS). Syntax and rules: docs/mqtt.md.

#include <cstdint>
#include <string>
#include <string_view>

namespace vg::mqtt {

/// @brief A parsed MQTT URL: broker host and port, TLS or not, and one topic.
///
/// Rules: the scheme is `mqtt` (default port 1883) or `mqtts` (TLS, default port 8883); the host is a
/// name, an IPv4 address or a bracketed IPv6 address (`[::1]`); the port is 1..65535; the topic is
/// everything after the first `/` following the authority, taken literally (no percent-decoding), may
/// contain `/`, must not be empty and must not contain the wildcards `+` or `#` (it is published to).
/// Credentials in the URL (`user:pass@`) are refused: they would show in `ps` and in logs; pass them in
/// MqttOptions instead.
/// @code
/// auto ep = vg::mqtt::MqttEndpoint::parse("mqtt://127.0.0.1:1883/vg/face_detect/results");
/// // ep.host == "127.0.0.1", ep.port == 1883, ep.topic == "vg/face_detect/results", ep.tls == false
/// @endcode
/// @note A plain value: copy it freely; parse() is thread-safe.
struct MqttEndpoint {
  std::string url;         ///< as given, for messages
  std::string host;        ///< without brackets for IPv6
  std::uint16_t port = 1883;
  std::string topic;
  bool tls = false;        ///< mqtts://

  /// @brief Parse @p url. Throws vg::Error naming the URL and what is wrong, e.g.
  /// "mqtt://h:99999/t: port out of range".
  static MqttEndpoint parse(std::string_view url);

  /// @brief "mqtt://HOST:PORT" (or mqtts), without the topic: the broker, for messages.
  std::string broker() const;
};

}  // namespace vg::mqtt
