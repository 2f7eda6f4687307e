// MQTT URLs and options: what is accepted, and the exact message for what is not.

#include <gtest/gtest.h>

#include <string>

#include "visiongraph/core/error.hpp"
#include "visiongraph/mqtt/endpoint.hpp"
#include "visiongraph/mqtt/options.hpp"
#include "visiongraph/mqtt/publisher.hpp"

namespace {

using vg::mqtt::MqttEndpoint;
using vg::mqtt::MqttOptions;

std::string parse_error(const std::string& url) {
  try {
    (void)MqttEndpoint::parse(url);
  } catch (const vg::Error& e) {
    return e.what();
  }
  return "(no error)";
}

std::string options_error(const MqttOptions& options, const std::string& url = "mqtt://h/t") {
  try {
    options.validate(MqttEndpoint::parse(url));
  } catch (const vg::Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(MqttEndpoint, ParseFullUrlGivesHostPortTopic) {
  const MqttEndpoint ep = MqttEndpoint::parse("mqtt://127.0.0.1:1884/vg/face_detect/results");
  EXPECT_EQ(ep.host, "127.0.0.1");
  EXPECT_EQ(ep.port, 1884);
  EXPECT_EQ(ep.topic, "vg/face_detect/results");
  EXPECT_FALSE(ep.tls);
  EXPECT_EQ(ep.url, "mqtt://127.0.0.1:1884/vg/face_detect/results");
  EXPECT_EQ(ep.broker(), "mqtt://127.0.0.1:1884");
}

TEST(MqttEndpoint, ParseWithoutPortUsesSchemeDefault) {
  EXPECT_EQ(MqttEndpoint::parse("mqtt://broker.local/t").port, 1883);
  const MqttEndpoint tls = MqttEndpoint::parse("mqtts://broker.local/a/b");
  EXPECT_EQ(tls.port, 8883);
  EXPECT_TRUE(tls.tls);
  EXPECT_EQ(tls.topic, "a/b");
  EXPECT_EQ(tls.broker(), "mqtts://broker.local:8883");
}

TEST(MqttEndpoint, ParseBracketedIpv6KeepsAddressWithoutBrackets) {
  const MqttEndpoint ep = MqttEndpoint::parse("mqtt://[::1]:2000/x");
  EXPECT_EQ(ep.host, "::1");
  EXPECT_EQ(ep.port, 2000);
  EXPECT_EQ(ep.broker(), "mqtt://[::1]:2000");
}

TEST(MqttEndpoint, ParseTopicKeepsSlashesAndSpecialCharactersLiterally) {
  EXPECT_EQ(MqttEndpoint::parse("mqtt://h//leading/slash").topic, "/leading/slash");
  EXPECT_EQ(MqttEndpoint::parse("mqtt://h/a//b/").topic, "a//b/");
  EXPECT_EQ(MqttEndpoint::parse("mqtt://h/caf\xC3\xA9/%20?x=1").topic, "caf\xC3\xA9/%20?x=1");
  EXPECT_EQ(MqttEndpoint::parse("MQTT://h/t").port, 1883);  // the scheme is case-insensitive
}

TEST(MqttEndpoint, ParseBadUrlsThrowsExactMessages) {
  EXPECT_EQ(parse_error("mqtt://h:99999/t"), "mqtt://h:99999/t: port out of range");
  EXPECT_EQ(parse_error("mqtt://h:0/t"), "mqtt://h:0/t: port out of range");
  EXPECT_EQ(parse_error("mqtt://h:123456789012/t"), "mqtt://h:123456789012/t: port out of range");
  EXPECT_EQ(parse_error("mqtt://h:abc/t"), "mqtt://h:abc/t: port 'abc' is not a number");
  EXPECT_EQ(parse_error("mqtt://h:/t"), "mqtt://h:/t: port is empty (leave out ':' to use the default)");
  EXPECT_EQ(parse_error("mqtt://h:1883"),
            "mqtt://h:1883: topic is missing (expected mqtt://HOST[:PORT]/TOPIC or mqtts://HOST[:PORT]/TOPIC)");
  EXPECT_EQ(parse_error("mqtt://h/"),
            "mqtt://h/: topic is missing (expected mqtt://HOST[:PORT]/TOPIC or mqtts://HOST[:PORT]/TOPIC)");
  EXPECT_EQ(parse_error("mqtt:///t"), "mqtt:///t: host is missing");
  EXPECT_EQ(parse_error("mqtt://:1883/t"), "mqtt://:1883/t: host is missing");
  EXPECT_EQ(parse_error("http://h/t"), "http://h/t: expected mqtt://HOST[:PORT]/TOPIC or mqtts://HOST[:PORT]/TOPIC");
  EXPECT_EQ(parse_error("h:1883/t"), "h:1883/t: expected mqtt://HOST[:PORT]/TOPIC or mqtts://HOST[:PORT]/TOPIC");
  EXPECT_EQ(parse_error(""), "MQTT URL is empty (expected mqtt://HOST[:PORT]/TOPIC or mqtts://HOST[:PORT]/TOPIC)");
  EXPECT_EQ(parse_error("mqtt://h/a/+/b"),
            "mqtt://h/a/+/b: topic 'a/+/b' contains a wildcard ('+' or '#'); "
            "a topic that is published to cannot have one");
  EXPECT_EQ(parse_error("mqtt://h/a/#"),
            "mqtt://h/a/#: topic 'a/#' contains a wildcard ('+' or '#'); a topic that is published to cannot have one");
  EXPECT_EQ(parse_error("mqtt://user:secret@h/t"),
            "mqtt://***@h/t: credentials in the URL are not accepted (they would show in process lists "
            "and logs); give them as --mqtt-username and --mqtt-password (VG_MQTT_PASSWORD) to `visiongraph run`, "
            "or MqttOptions::username/password in the API");
  EXPECT_EQ(parse_error("mqtt://user:secret@h/t").find("secret"), std::string::npos) << "the secret is not repeated";
  EXPECT_EQ(parse_error("mqtt://::1/t"),
            "mqtt://::1/t: an IPv6 address must be written in brackets, e.g. mqtt://[::1]:1883/TOPIC");
  EXPECT_EQ(parse_error("mqtt://[::1/t"), "mqtt://[::1/t: '[' of an IPv6 address is not closed by ']'");
  EXPECT_EQ(parse_error("mqtt://[::1]x/t"), "mqtt://[::1]x/t: unexpected 'x' after the IPv6 address");
  EXPECT_EQ(parse_error("mqtt://bad host/t"), "mqtt://bad host/t: host 'bad host' contains invalid characters");
  EXPECT_EQ(parse_error("mqtt://h/\xFF\xFE"), "mqtt://h/\xFF\xFE: topic is not valid UTF-8");
  EXPECT_EQ(parse_error(std::string("mqtt://h/a\0b", 12)), "mqtt://h/a\\x00b: topic contains a NUL character");
}

TEST(MqttOptions, ValidateDefaultsAccepted) {
  EXPECT_EQ(options_error(MqttOptions{}), "(no error)");
}

TEST(MqttOptions, ValidateBadValuesThrowsNamingField) {
  MqttOptions o;
  o.qos = 2;
  EXPECT_EQ(options_error(o), "mqtt://h/t: option qos: 2 is not 0 or 1 (QoS 2 is not offered)");
  o = {};
  o.keepalive = std::chrono::seconds(2);
  EXPECT_EQ(options_error(o), "mqtt://h/t: option keepalive: 2 s is outside 5..65535 s");
  o = {};
  o.outbox_capacity = 0;
  EXPECT_EQ(options_error(o), "mqtt://h/t: option outbox_capacity: 0 is outside 1..65536 messages");
  o = {};
  o.max_message_size = 0;
  EXPECT_EQ(options_error(o), "mqtt://h/t: option max_message_size: 0 is outside 1..268435456 bytes");
  o = {};
  o.reconnect_max = std::chrono::milliseconds(100);
  EXPECT_EQ(options_error(o), "mqtt://h/t: option reconnect_max: must not be less than reconnect_initial");
  o = {};
  o.max_inflight = 0;
  EXPECT_EQ(options_error(o), "mqtt://h/t: option max_inflight: 0 is outside 1..1024");
  o = {};
  o.password = "secret";
  EXPECT_EQ(options_error(o), "mqtt://h/t: option password: given without a username");
}

TEST(MqttOptions, ValidateTlsMismatchAndUnreadableFilesThrow) {
  MqttOptions o;
  o.tls.ca_file = "/etc/hostname";
  EXPECT_EQ(options_error(o, "mqtt://h/t"),
            "mqtt://h/t: option tls: TLS options are set but the URL is mqtt://; use mqtts:// for TLS");
  EXPECT_EQ(options_error(o, "mqtts://h/t"), "(no error)");
  o.tls.ca_file = "/nonexistent/ca.pem";
  EXPECT_EQ(options_error(o, "mqtts://h/t"),
            "mqtts://h/t: option tls.ca_file '/nonexistent/ca.pem' cannot be read: No such file or directory");
  o = {};
  o.tls.cert_file = "/etc/hostname";
  EXPECT_EQ(options_error(o, "mqtts://h/t"),
            "mqtts://h/t: option tls.key_file: a client certificate needs both tls.cert_file and tls.key_file");
}

TEST(MqttPublisher, ConstructWithBadOptionThrowsBeforeStarting) {
  MqttOptions o;
  o.qos = 3;
  try {
    vg::mqtt::MqttPublisher pub("mqtt://127.0.0.1:1/t", o);
    FAIL() << "no exception";
  } catch (const vg::Error& e) {
    EXPECT_STREQ(e.what(), "mqtt://127.0.0.1:1/t: option qos: 3 is not 0 or 1 (QoS 2 is not offered)");
  }
  EXPECT_THROW(vg::mqtt::MqttPublisher("mqtt://h:99999/t"), vg::Error);
}

}  // namespace
