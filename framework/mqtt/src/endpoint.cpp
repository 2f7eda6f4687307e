// MqttEndpoint::parse: mqtt(s)://HOST[:PORT]/TOPIC, every rejection naming the URL and the part at fault.

#include "visiongraph/mqtt/endpoint.hpp"

#include <cctype>
#include <string>

#include "text_util.hpp"
#include "visiongraph/core/error.hpp"

namespace vg::mqtt {

namespace {

constexpr std::string_view kSyntax = "mqtt://HOST[:PORT]/TOPIC or mqtts://HOST[:PORT]/TOPIC";

/// The URL as it can be shown in a message: control characters (a NUL would cut the message short)
/// written as \xNN.
std::string printable(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7F) {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 0xF];
    } else {
      out += c;
    }
  }
  return out;
}

[[noreturn]] void fail(std::string_view url, const std::string& what) {
  throw Error(printable(url) + ": " + what);
}

bool starts_with_nocase(std::string_view s, std::string_view prefix) noexcept {
  if (s.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
  return true;
}

bool host_name_char(char c) noexcept {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_';
}

bool ipv6_char(char c) noexcept {
  return std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.';
}

std::uint16_t parse_port(std::string_view url, std::string_view text) {
  if (text.empty()) fail(url, "port is empty (leave out ':' to use the default)");
  for (char c : text)
    if (c < '0' || c > '9') fail(url, "port '" + std::string(text) + "' is not a number");
  if (text.size() > 5) fail(url, "port out of range");
  unsigned long value = 0;
  for (char c : text) value = value * 10 + static_cast<unsigned long>(c - '0');
  if (value < 1 || value > 65535) fail(url, "port out of range");
  return static_cast<std::uint16_t>(value);
}

}  // namespace

MqttEndpoint MqttEndpoint::parse(std::string_view url) {
  if (url.empty()) throw Error("MQTT URL is empty (expected " + std::string(kSyntax) + ")");
  MqttEndpoint ep;
  ep.url = std::string(url);
  std::string_view rest;
  if (starts_with_nocase(url, "mqtts://")) {
    ep.tls = true;
    ep.port = 8883;
    rest = url.substr(8);
  } else if (starts_with_nocase(url, "mqtt://")) {
    ep.tls = false;
    ep.port = 1883;
    rest = url.substr(7);
  } else {
    fail(url, "expected " + std::string(kSyntax));
  }

  const std::size_t slash = rest.find('/');
  const std::string_view authority = rest.substr(0, slash);
  if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos)
    // The message names the URL with its user information hidden: it would otherwise repeat the secret.
    fail(std::string(url.substr(0, url.size() - rest.size())) + "***" + std::string(rest.substr(at)),
         "credentials in the URL are not accepted (they would show in process lists and logs); "
              "give them as --mqtt-username and --mqtt-password (VG_MQTT_PASSWORD) to `visiongraph run`, or "
              "MqttOptions::username/password in the API");
  if (authority.empty()) fail(url, "host is missing");

  std::string_view host;
  std::string_view port_text;
  bool has_port = false;
  if (authority.front() == '[') {
    const std::size_t close = authority.find(']');
    if (close == std::string_view::npos) fail(url, "'[' of an IPv6 address is not closed by ']'");
    host = authority.substr(1, close - 1);
    const std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') fail(url, "unexpected '" + std::string(after) + "' after the IPv6 address");
      has_port = true;
      port_text = after.substr(1);
    }
    if (host.empty()) fail(url, "host is missing");
    for (char c : host)
      if (!ipv6_char(c)) fail(url, "IPv6 address '" + std::string(host) + "' contains invalid characters");
  } else {
    const std::size_t colon = authority.find(':');
    if (colon != std::string_view::npos && authority.find(':', colon + 1) != std::string_view::npos)
      fail(url, "an IPv6 address must be written in brackets, e.g. mqtt://[::1]:1883/TOPIC");
    host = authority.substr(0, colon);
    if (colon != std::string_view::npos) {
      has_port = true;
      port_text = authority.substr(colon + 1);
    }
    if (host.empty()) fail(url, "host is missing");
    for (char c : host)
      if (!host_name_char(c)) fail(url, "host '" + std::string(host) + "' contains invalid characters");
  }
  ep.host = std::string(host);
  if (has_port) ep.port = parse_port(url, port_text);

  if (slash == std::string_view::npos || slash + 1 == rest.size())
    fail(url, "topic is missing (expected " + std::string(kSyntax) + ")");
  const std::string_view topic = rest.substr(slash + 1);
  if (topic.find_first_of("+#") != std::string_view::npos)
    fail(url, "topic '" + std::string(topic) +
                  "' contains a wildcard ('+' or '#'); a topic that is published to cannot have one");
  if (topic.find('\0') != std::string_view::npos) fail(url, "topic contains a NUL character");
  if (!detail::is_valid_utf8(topic)) fail(url, "topic is not valid UTF-8");
  if (topic.size() > 65535) fail(url, "topic is longer than 65535 bytes");
  ep.topic = std::string(topic);
  return ep;
}

std::string MqttEndpoint::broker() const {
  std::string out = tls ? "mqtts://" : "mqtt://";
  if (host.find(':') != std::string::npos)
    out += "[" + host + "]";
  else
    out += host;
  out += ":" + std::to_string(port);
  return out;
}

}  // namespace vg::mqtt
