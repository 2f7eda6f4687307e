// MqttOptions::validate: every field checked once, at construction, with the URL and field named.

#include "visiongraph/mqtt/options.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "text_util.hpp"
#include "visiongraph/core/error.hpp"

namespace vg::mqtt {

namespace {

constexpr std::size_t kMaxMessageSize = 256u * 1024u * 1024u;  // MQTT's own limit is 256 MiB - 1 per packet
constexpr unsigned long long kMaxOutboxBytes = 4ull * 1024 * 1024 * 1024;

void check_readable(const MqttEndpoint& endpoint, std::string_view field, const std::string& path) {
  if (path.empty()) return;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr)
    throw Error(endpoint.url + ": option " + std::string(field) + " '" + path +
                "' cannot be read: " + std::strerror(errno));
  std::fclose(f);
}

}  // namespace

void MqttOptions::validate(const MqttEndpoint& endpoint) const {
  const auto bad = [&](std::string_view field, const std::string& what) {
    throw Error(endpoint.url + ": option " + std::string(field) + ": " + what);
  };
  if (qos != 0 && qos != 1) bad("qos", std::to_string(qos) + " is not 0 or 1 (QoS 2 is not offered)");
  if (keepalive.count() < 5 || keepalive.count() > 65535)
    bad("keepalive", std::to_string(keepalive.count()) + " s is outside 5..65535 s");
  if (connect_timeout.count() < 1) bad("connect_timeout", "must be at least 1 ms");
  if (reconnect_initial.count() < 1) bad("reconnect_initial", "must be at least 1 ms");
  if (reconnect_max < reconnect_initial) bad("reconnect_max", "must not be less than reconnect_initial");
  if (outbox_capacity < 1 || outbox_capacity > 65536)
    bad("outbox_capacity", std::to_string(outbox_capacity) + " is outside 1..65536 messages");
  if (max_message_size < 1 || max_message_size > kMaxMessageSize)
    bad("max_message_size", std::to_string(max_message_size) + " is outside 1..268435456 bytes");
  if (static_cast<unsigned long long>(outbox_capacity) * max_message_size > kMaxOutboxBytes)
    bad("outbox_capacity", "outbox_capacity x max_message_size exceeds 4 GiB");
  if (max_inflight < 1 || max_inflight > 1024)
    bad("max_inflight", std::to_string(max_inflight) + " is outside 1..1024");
  if (!detail::is_valid_utf8(client_id) || client_id.find('\0') != std::string::npos)
    bad("client_id", "is not valid UTF-8 text");
  if (client_id.size() > 65535) bad("client_id", "is longer than 65535 bytes");
  if (!detail::is_valid_utf8(username) || username.find('\0') != std::string::npos)
    bad("username", "is not valid UTF-8 text");
  if (!password.empty() && username.empty()) bad("password", "given without a username");

  if (!endpoint.tls && tls.any())
    bad("tls", "TLS options are set but the URL is mqtt://; use mqtts:// for TLS");
  if (tls.cert_file.empty() != tls.key_file.empty())
    bad(tls.cert_file.empty() ? "tls.cert_file" : "tls.key_file",
        "a client certificate needs both tls.cert_file and tls.key_file");
  check_readable(endpoint, "tls.ca_file", tls.ca_file);
  check_readable(endpoint, "tls.cert_file", tls.cert_file);
  check_readable(endpoint, "tls.key_file", tls.key_file);
}

}  // namespace vg::mqtt
