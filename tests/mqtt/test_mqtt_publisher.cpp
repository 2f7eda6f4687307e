// MqttPublisher against a real mosquitto broker on 127.0.0.1: delivery and order, a broker that is
// stopped (SIGSTOP), absent, killed and restarted, payload limits, bounded close, credentials and TLS.

#include <gtest/gtest.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "mosquitto_broker.hpp"
#include "visiongraph/core/error.hpp"
#include "visiongraph/mqtt/publisher.hpp"

namespace {

using namespace std::chrono_literals;
using vg::Status;
using vg::mqtt::MqttOptions;
using vg::mqtt::MqttPublisher;
using vg::test::MosquittoBroker;
using vg::test::MqttTestClient;
using Clock = std::chrono::steady_clock;

/// Quick reconnects so the tests do not wait for the production backoff.
MqttOptions fast_options(int qos = 0) {
  MqttOptions o;
  o.qos = qos;
  o.reconnect_initial = 50ms;
  o.reconnect_max = 400ms;
  o.connect_timeout = 2s;
  return o;
}

/// A payload that differs per message and per byte, NUL and high bytes included (MQTT payloads are
/// binary; byte-equality must hold for all of them).
std::string numbered_payload(int index, std::size_t size) {
  std::string s = "msg-" + std::to_string(index) + ":";
  s.reserve(size);
  for (std::size_t i = s.size(); i < size; ++i) s.push_back(static_cast<char>((index * 31 + i * 7) & 0xFF));
  return s;
}

/// Messages of @p client whose payload starts with @p prefix, in arrival order.
std::vector<std::string> payloads_with_prefix(const MqttTestClient& client, const std::string& prefix) {
  std::vector<std::string> out;
  for (const auto& m : client.messages())
    if (m.payload.rfind(prefix, 0) == 0) out.push_back(m.payload);
  return out;
}

template <class Pred>
bool eventually(Pred pred, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (Clock::now() < deadline) {
    if (pred()) return true;
    std::this_thread::sleep_for(5ms);
  }
  return pred();
}

void expect_balanced(const vg::mqtt::MqttPublisherStats& s) {
  EXPECT_EQ(s.published, s.sent + s.failed + s.queued) << s.summary("publisher");
}

class MqttPublisherQos : public ::testing::TestWithParam<int> {};

// QoS 1 is the default because only it counts loss; with QoS 0 the summary says what it cannot count.
TEST(MqttPublisherSummary, QosOneByDefaultAndQosZeroSaysWhatItCannotCount) {
  EXPECT_EQ(vg::mqtt::MqttOptions{}.qos, 1);
  vg::mqtt::MqttPublisherStats s;
  s.qos = 1;
  s.connected = false;
  EXPECT_EQ(s.summary("mqtt://h/t").find("QoS 0"), std::string::npos);
  s.qos = 0;
  EXPECT_NE(s.summary("mqtt://h/t").find("QoS 0: messages written just before a connection broke may not have arrived"),
            std::string::npos);
  s.connected = true;
  EXPECT_EQ(s.summary("mqtt://h/t").find("QoS 0"), std::string::npos) << "a connection that never broke lost nothing";
}

TEST_P(MqttPublisherQos, PublishFiveHundredMessagesArriveCompleteAndInOrder) {
  const int qos = GetParam();
  MosquittoBroker broker;
  broker.start();
  MqttTestClient sub(broker.port());
  ASSERT_TRUE(sub.subscribe("vg/results", qos));

  MqttOptions o = fast_options(qos);
  o.outbox_capacity = 512;  // the whole burst fits: every publish() must succeed
  MqttPublisher pub(broker.url("vg/results"), o);
  ASSERT_EQ(pub.wait_connected(5s), Status::ok) << pub.stats().last_error;

  std::vector<std::string> sent;
  for (int i = 0; i < 500; ++i) {
    sent.push_back(numbered_payload(i, 1 + static_cast<std::size_t>(i * 37 % 3000)));
    ASSERT_EQ(pub.publish(sent.back()), Status::ok) << "message " << i;
  }
  ASSERT_EQ(pub.flush(10s), Status::ok) << pub.stats().summary(pub.endpoint().url);
  ASSERT_TRUE(sub.wait_for_count(500, 10s)) << "received " << sub.messages().size();

  const auto received = sub.messages();
  ASSERT_EQ(received.size(), 500u);
  for (int i = 0; i < 500; ++i) {
    EXPECT_EQ(received[i].topic, "vg/results");
    ASSERT_EQ(received[i].payload, sent[i]) << "message " << i << " differs or is out of order";
  }
  const auto s = pub.stats();
  EXPECT_EQ(s.published, 500u);
  EXPECT_EQ(s.sent, 500u);
  EXPECT_EQ(s.dropped, 0u);
  EXPECT_EQ(s.failed, 0u);
  EXPECT_EQ(s.queued, 0u);
  EXPECT_EQ(s.connections, 1u);
  EXPECT_TRUE(s.connected);
}

TEST_P(MqttPublisherQos, PublishWhileBrokerStoppedNeverBlocksCountsDropsAndResumes) {
  const int qos = GetParam();
  MosquittoBroker broker;
  broker.start();
  MqttTestClient sub(broker.port());
  ASSERT_TRUE(sub.subscribe("vg/stall", qos));

  MqttOptions o = fast_options(qos);
  o.outbox_capacity = 64;
  o.max_message_size = 4096;
  MqttPublisher pub(broker.url("vg/stall"), o);
  ASSERT_EQ(pub.wait_connected(5s), Status::ok) << pub.stats().last_error;

  broker.pause();
  const std::size_t rss_before = vg::test::resident_bytes();
  // One buffer, numbered in place: the loop itself must not allocate, or the resident-memory check would
  // measure the test's garbage (and a sanitizer's quarantine) instead of the publisher.
  std::string payload(4000, 'x');
  std::uint64_t calls = 0, accepted = 0, busy = 0, over_5ms = 0;
  Clock::duration longest{0};
  const auto until = Clock::now() + 1500ms;
  while (Clock::now() < until) {
    const auto end = std::to_chars(payload.data(), payload.data() + 32, calls).ptr;
    *end = ' ';
    const auto t0 = Clock::now();
    const Status st = pub.publish(payload);
    const auto took = Clock::now() - t0;
    longest = std::max(longest, took);
    if (took > 5ms) ++over_5ms;
    ++calls;
    if (st == Status::ok) ++accepted;
    else if (st == Status::busy) ++busy;
    else FAIL() << "unexpected status " << vg::to_string(st);
  }
  const std::size_t rss_after = vg::test::resident_bytes();
  const auto stalled = pub.stats();
  std::cout << "[   info   ] broker stopped: " << calls << " publish() calls, longest "
            << std::chrono::duration_cast<std::chrono::microseconds>(longest).count() << " us, " << over_5ms
            << " over 5 ms, " << busy << " busy; resident memory "
            << (static_cast<long long>(rss_after) - static_cast<long long>(rss_before)) / 1024 << " KiB more\n";

  // A publish() that waited for the stopped broker would take the whole pause (1.5 s). Bounds, not
  // performance claims: on a shared machine the scheduler may preempt this thread inside any call (a
  // few of millions of calls then take milliseconds), so the 5 ms bound is for all but 1 in 10000 calls
  // and no call may take 100 ms.
  EXPECT_LT(longest, 100ms) << calls << " calls, " << over_5ms << " over 5 ms";
  EXPECT_LE(over_5ms, calls / 10000) << calls << " calls";
  EXPECT_GT(busy, 0u) << "the outbox never filled: " << stalled.summary("pub");
  EXPECT_EQ(stalled.dropped, busy);
  EXPECT_EQ(stalled.published, accepted);
  EXPECT_LE(stalled.queued, o.outbox_capacity + o.max_inflight);
  // Bounded memory: everything offered (GBs) vs. the outbox (64 x 4 KiB) and libmosquitto's few in flight.
  EXPECT_GT(calls * payload.size(), 100ull * 1024 * 1024) << "not enough pressure to prove a bound";
  EXPECT_LT(rss_after, rss_before + 32u * 1024 * 1024) << "resident memory grew while the broker was stopped";

  broker.resume();
  ASSERT_EQ(pub.flush(20s), Status::ok) << pub.stats().summary("pub");
  for (int i = 0; i < 20; ++i) ASSERT_EQ(pub.publish("after-" + std::to_string(i)), Status::ok);
  ASSERT_EQ(pub.flush(10s), Status::ok) << pub.stats().summary("pub");
  ASSERT_TRUE(sub.wait_for_payload("after-19", 20s)) << "publishing did not resume after SIGCONT";
  std::vector<std::string> expected;
  for (int i = 0; i < 20; ++i) expected.push_back("after-" + std::to_string(i));
  EXPECT_EQ(payloads_with_prefix(sub, "after-"), expected);
  const auto s = pub.stats();
  expect_balanced(s);
  EXPECT_EQ(s.queued, 0u);
  EXPECT_TRUE(s.connected);
}

TEST_P(MqttPublisherQos, PublishAcrossBrokerKillAndRestartReconnectsAndDelivers) {
  const int qos = GetParam();
  MosquittoBroker broker;
  broker.start();
  MqttPublisher pub(broker.url("vg/restart"), fast_options(qos));
  ASSERT_EQ(pub.wait_connected(5s), Status::ok) << pub.stats().last_error;
  {
    MqttTestClient sub(broker.port());
    ASSERT_TRUE(sub.subscribe("vg/restart", qos));
    for (int i = 0; i < 10; ++i) ASSERT_EQ(pub.publish("before-" + std::to_string(i)), Status::ok);
    ASSERT_EQ(pub.flush(5s), Status::ok);
    ASSERT_TRUE(sub.wait_for_count(10, 5s));
  }

  broker.kill();
  ASSERT_TRUE(eventually([&] { return !pub.connected(); }, 5s)) << "the lost connection went unnoticed";
  EXPECT_NE(pub.stats().last_error.find(broker.url("vg/restart") + ": connection to"), std::string::npos)
      << pub.stats().last_error;
  for (int i = 0; i < 5; ++i) ASSERT_EQ(pub.publish("during-" + std::to_string(i)), Status::ok);
  EXPECT_EQ(pub.flush(100ms), Status::timeout);

  broker.start();  // same port
  ASSERT_EQ(pub.wait_connected(10s), Status::ok) << pub.stats().last_error;
  MqttTestClient sub(broker.port());
  ASSERT_TRUE(sub.subscribe("vg/restart", qos));
  for (int i = 0; i < 10; ++i) ASSERT_EQ(pub.publish("after-" + std::to_string(i)), Status::ok);
  ASSERT_EQ(pub.flush(5s), Status::ok) << pub.stats().summary("pub");
  ASSERT_TRUE(sub.wait_for_payload("after-9", 5s));
  std::vector<std::string> expected;
  for (int i = 0; i < 10; ++i) expected.push_back("after-" + std::to_string(i));
  EXPECT_EQ(payloads_with_prefix(sub, "after-"), expected);

  const auto s = pub.stats();
  EXPECT_GE(s.reconnects, 1u);
  EXPECT_EQ(s.connections, s.reconnects + 1);
  EXPECT_EQ(s.sent, 25u) << s.summary("pub");  // "during" waited in the outbox and went out after
  EXPECT_EQ(s.failed, 0u);
  expect_balanced(s);
}

INSTANTIATE_TEST_SUITE_P(Qos, MqttPublisherQos, ::testing::Values(0, 1),
                         [](const ::testing::TestParamInfo<int>& info) { return "Qos" + std::to_string(info.param); });

TEST(MqttPublisher, BrokerRestartedGracefullyIsReconnectedOnSamePort) {
  MosquittoBroker broker;
  broker.start();
  MqttPublisher pub(broker.url("vg/graceful"), fast_options(1));
  ASSERT_EQ(pub.wait_connected(5s), Status::ok);
  const std::uint16_t port = broker.port();
  broker.restart();  // SIGTERM: the broker closes its connections, then comes back on the same port
  ASSERT_EQ(broker.port(), port);
  ASSERT_TRUE(eventually([&] { return pub.stats().reconnects >= 1 && pub.connected(); }, 10s))
      << pub.stats().summary("pub");
  MqttTestClient sub(broker.port());
  ASSERT_TRUE(sub.subscribe("vg/graceful", 1));
  ASSERT_EQ(pub.publish("after restart"), Status::ok);
  ASSERT_EQ(pub.flush(5s), Status::ok);
  EXPECT_TRUE(sub.wait_for_payload("after restart", 5s));
}

TEST(MqttPublisher, Qos1UnacknowledgedMessagesAreResentAfterBrokerRestart) {
  MosquittoBroker broker;
  broker.start();
  MqttOptions o = fast_options(1);
  o.keepalive = 60s;  // the publisher must not give up on the stopped broker by itself
  MqttPublisher pub(broker.url("vg/resend"), o);
  ASSERT_EQ(pub.wait_connected(5s), Status::ok);

  broker.pause();  // no PUBACK from now on
  for (int i = 0; i < 5; ++i) ASSERT_EQ(pub.publish("unacked-" + std::to_string(i)), Status::ok);
  EXPECT_EQ(pub.flush(300ms), Status::timeout);
  EXPECT_EQ(pub.stats().sent, 0u);
  broker.kill();
  broker.start();
  // libmosquitto resends the unacknowledged messages in the new session; the broker acknowledges them.
  ASSERT_EQ(pub.flush(10s), Status::ok) << pub.stats().summary("pub");
  const auto s = pub.stats();
  EXPECT_EQ(s.sent, 5u);
  EXPECT_EQ(s.failed, 0u);
  EXPECT_GE(s.reconnects, 1u);
  // The in-flight accounting came back to zero: publishing goes on normally.
  ASSERT_EQ(pub.publish("next"), Status::ok);
  EXPECT_EQ(pub.flush(5s), Status::ok);
}

TEST(MqttPublisher, BrokerHungLongerThanKeepaliveIsDroppedAndReconnectedAfterResume) {
  MosquittoBroker broker;
  broker.start();
  MqttOptions o = fast_options(0);
  o.keepalive = 5s;  // the smallest libmosquitto accepts
  o.connect_timeout = 1s;
  MqttPublisher pub(broker.url("vg/hung"), o);
  ASSERT_EQ(pub.wait_connected(5s), Status::ok);

  broker.pause();
  // No answer to the PING: the connection is given up after one to two keep-alive intervals.
  ASSERT_TRUE(eventually([&] { return !pub.connected(); }, 15s)) << pub.stats().summary("pub");
  EXPECT_NE(pub.stats().last_error.find("stopped answering"), std::string::npos) << pub.stats().last_error;
  broker.resume();
  ASSERT_EQ(pub.wait_connected(10s), Status::ok) << pub.stats().last_error;
  EXPECT_GE(pub.stats().reconnects, 1u);

  MqttTestClient sub(broker.port());
  ASSERT_TRUE(sub.subscribe("vg/hung", 0));
  ASSERT_EQ(pub.publish("alive again"), Status::ok);
  ASSERT_EQ(pub.flush(5s), Status::ok);
  EXPECT_TRUE(sub.wait_for_payload("alive again", 5s));
}

TEST(MqttPublisher, PublishWithBrokerAbsentAtStartConnectsWhenItStarts) {
  MosquittoBroker broker;  // port reserved, not started yet
  MqttOptions o = fast_options(1);
  MqttPublisher pub(broker.url("vg/late"), o);
  for (int i = 0; i < 5; ++i) ASSERT_EQ(pub.publish("early-" + std::to_string(i)), Status::ok);
  std::this_thread::sleep_for(300ms);
  auto s = pub.stats();
  EXPECT_FALSE(s.connected);
  EXPECT_EQ(s.sent, 0u);
  EXPECT_EQ(s.queued, 5u);
  EXPECT_EQ(s.last_error,
            broker.url("vg/late") + ": cannot connect to mqtt://127.0.0.1:" + std::to_string(broker.port()) +
                ": Connection refused");

  broker.start();
  ASSERT_EQ(pub.wait_connected(5s), Status::ok) << pub.stats().last_error;
  ASSERT_EQ(pub.flush(5s), Status::ok);
  MqttTestClient sub(broker.port());
  ASSERT_TRUE(sub.subscribe("vg/late", 1));
  for (int i = 0; i < 5; ++i) ASSERT_EQ(pub.publish("late-" + std::to_string(i)), Status::ok);
  ASSERT_EQ(pub.flush(5s), Status::ok);
  ASSERT_TRUE(sub.wait_for_payload("late-4", 5s));
  EXPECT_EQ(payloads_with_prefix(sub, "late-"),
            (std::vector<std::string>{"late-0", "late-1", "late-2", "late-3", "late-4"}));
  s = pub.stats();
  EXPECT_EQ(s.sent, 10u);  // the early ones went out once the broker was there
  EXPECT_EQ(s.connections, 1u);
  EXPECT_EQ(s.reconnects, 0u);
}

TEST(MqttPublisher, PublishOversizedPayloadRefusedAndCounted) {
  MosquittoBroker broker;
  broker.start();
  MqttTestClient sub(broker.port());
  ASSERT_TRUE(sub.subscribe("vg/size", 1));
  MqttOptions o = fast_options(1);
  o.max_message_size = 1024;
  MqttPublisher pub(broker.url("vg/size"), o);
  ASSERT_EQ(pub.wait_connected(5s), Status::ok);

  EXPECT_EQ(pub.publish(std::string(1025, 'a')), Status::invalid_argument);
  EXPECT_EQ(pub.publish(std::string(1 << 20, 'b')), Status::invalid_argument);
  const std::string largest = numbered_payload(7, 1024);
  EXPECT_EQ(pub.publish(largest), Status::ok);
  EXPECT_EQ(pub.publish(""), Status::ok);  // empty payloads are valid MQTT messages
  ASSERT_EQ(pub.flush(5s), Status::ok);
  ASSERT_TRUE(sub.wait_for_count(2, 5s));
  const auto received = sub.messages();
  EXPECT_EQ(received[0].payload, largest);
  EXPECT_EQ(received[1].payload, "");
  const auto s = pub.stats();
  EXPECT_EQ(s.refused, 2u);
  EXPECT_EQ(s.published, 2u);
  EXPECT_EQ(s.sent, 2u);
  EXPECT_NE(s.summary("u").find("2 refused (> 1024 bytes)"), std::string::npos) << s.summary("u");
}

TEST(MqttPublisher, CloseWithStoppedBrokerIsBoundedAndCountsTheRest) {
  MosquittoBroker broker;
  broker.start();
  MqttOptions o = fast_options(1);
  auto pub = std::make_unique<MqttPublisher>(broker.url("vg/close"), o);
  ASSERT_EQ(pub->wait_connected(5s), Status::ok);
  for (int i = 0; i < 20; ++i) ASSERT_EQ(pub->publish("a-" + std::to_string(i)), Status::ok);
  ASSERT_EQ(pub->flush(5s), Status::ok);
  broker.pause();
  for (int i = 0; i < 100; ++i) (void)pub->publish(std::string(2000, 'z'));

  const auto t0 = Clock::now();
  pub->close();
  const auto took = Clock::now() - t0;
  EXPECT_LT(took, 3s);
  const auto s = pub->stats();
  EXPECT_EQ(s.queued, 0u);
  EXPECT_EQ(s.sent, 20u);
  EXPECT_EQ(s.failed, s.published - 20);  // everything after the pause was left undelivered
  expect_balanced(s);
  EXPECT_EQ(pub->publish("late"), Status::stopped);
  EXPECT_EQ(pub->flush(1s), Status::stopped);

  const auto t1 = Clock::now();
  pub.reset();  // destructor after close: nothing left to wait for
  EXPECT_LT(Clock::now() - t1, 1s);
  broker.resume();
}

TEST(MqttPublisher, DestroyWhileBrokerStoppedIsBounded) {
  MosquittoBroker broker;
  broker.start();
  MqttOptions o = fast_options(0);
  {
    auto pub = std::make_unique<MqttPublisher>(broker.url("vg/close"), o);
    ASSERT_EQ(pub->wait_connected(5s), Status::ok);
    broker.pause();
    // Long enough for the socket buffers to fill: the goodbye (DISCONNECT) then cannot be written.
    const std::string payload(4000, 'q');
    for (const auto until = Clock::now() + 1s; Clock::now() < until;) {
      if (pub->publish(payload) == Status::busy) std::this_thread::sleep_for(1ms);
    }
    EXPECT_GT(pub->stats().dropped, 0u);
    const auto t0 = Clock::now();
    pub.reset();
    EXPECT_LT(Clock::now() - t0, 3s);
  }
  broker.resume();
}

TEST(MqttPublisher, ConnectToStoppedBrokerTimesOutAndCloseIsBounded) {
  MosquittoBroker broker;
  broker.start();
  broker.pause();  // TCP connections are still accepted by the kernel, CONNECT is never answered
  MqttOptions o = fast_options(0);
  o.connect_timeout = 300ms;
  MqttPublisher pub(broker.url("vg/hung"), o);
  ASSERT_TRUE(eventually([&] { return pub.stats().last_error.find("CONNACK") != std::string::npos; }, 3s))
      << pub.stats().last_error;
  EXPECT_EQ(pub.stats().last_error, broker.url("vg/hung") + ": no answer (CONNACK) from mqtt://127.0.0.1:" +
                                        std::to_string(broker.port()) + " within 300 ms");
  EXPECT_FALSE(pub.connected());
  const auto t0 = Clock::now();
  pub.close();
  EXPECT_LT(Clock::now() - t0, 3s);
  broker.resume();
}

TEST(MqttPublisher, FlushWithoutBrokerTimesOutAndCloseCountsFailed) {
  MosquittoBroker broker;  // never started: connection refused
  MqttPublisher pub(broker.url("vg/none"), fast_options(0));
  ASSERT_EQ(pub.publish("one"), Status::ok);
  ASSERT_EQ(pub.publish("two"), Status::ok);
  const auto t0 = Clock::now();
  EXPECT_EQ(pub.flush(200ms), Status::timeout);
  EXPECT_LT(Clock::now() - t0, 2s);
  EXPECT_EQ(pub.wait_connected(100ms), Status::timeout);
  pub.close();
  const auto s = pub.stats();
  EXPECT_EQ(s.failed, 2u);
  EXPECT_EQ(s.queued, 0u);
  EXPECT_EQ(pub.publish("three"), Status::stopped);
}

TEST(MqttPublisher, ConcurrentPublishersKeepEveryThreadsOrder) {
  MosquittoBroker broker;
  broker.start();
  MqttTestClient sub(broker.port());
  ASSERT_TRUE(sub.subscribe("vg/mt", 1));
  MqttOptions o = fast_options(1);
  o.outbox_capacity = 1024;
  MqttPublisher pub(broker.url("vg/mt"), o);
  ASSERT_EQ(pub.wait_connected(5s), Status::ok);
  constexpr int kThreads = 4, kEach = 100;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&pub, t] {
      for (int i = 0; i < kEach; ++i)
        while (pub.publish("t" + std::to_string(t) + "-" + std::to_string(i)) == Status::busy)
          std::this_thread::yield();
    });
  for (auto& th : threads) th.join();
  ASSERT_EQ(pub.flush(10s), Status::ok);
  ASSERT_TRUE(sub.wait_for_count(kThreads * kEach, 10s));
  for (int t = 0; t < kThreads; ++t) {
    std::vector<std::string> expected;
    for (int i = 0; i < kEach; ++i) expected.push_back("t" + std::to_string(t) + "-" + std::to_string(i));
    EXPECT_EQ(payloads_with_prefix(sub, "t" + std::to_string(t) + "-"), expected) << "thread " << t;
  }
}

TEST(MqttPublisher, WrongCredentialsAreReportedRightOnesConnect) {
  MosquittoBroker broker({"allow_anonymous false", "password_file ${DIR}/passwd"});
  const std::string cmd = "mosquitto_passwd -b -c " + (broker.dir() / "passwd").string() + " camera s3cret";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  broker.start();

  MqttOptions bad = fast_options(1);
  bad.username = "camera";
  bad.password = "wrong";
  MqttPublisher refused(broker.url("vg/auth"), bad);
  const auto refusal_reported = [&] {
    return refused.stats().last_error.find("refused the connection") != std::string::npos;
  };
  ASSERT_TRUE(eventually(refusal_reported, 3s))
      << refused.stats().last_error;
  EXPECT_FALSE(refused.connected());

  MqttOptions good = fast_options(1);
  good.username = "camera";
  good.password = "s3cret";
  MqttPublisher pub(broker.url("vg/auth"), good);
  ASSERT_EQ(pub.wait_connected(5s), Status::ok) << pub.stats().last_error;
  ASSERT_EQ(pub.publish("authenticated"), Status::ok);
  EXPECT_EQ(pub.flush(5s), Status::ok);
  EXPECT_EQ(pub.stats().sent, 1u);
}

TEST(MqttPublisher, TlsBrokerWithOwnCaDeliversAndUntrustedCaIsReported) {
  MosquittoBroker broker({"cafile ${DIR}/ca.pem", "certfile ${DIR}/server.pem", "keyfile ${DIR}/server.key"});
  const std::string d = broker.dir().string();
  ASSERT_TRUE(vg::test::make_test_certificates(d)) << "openssl could not make test certificates";
  broker.start();
  const std::string url = "mqtts://127.0.0.1:" + std::to_string(broker.port()) + "/vg/tls";

  MqttOptions o = fast_options(1);
  o.tls.ca_file = d + "/ca.pem";
  MqttPublisher pub(url, o);
  ASSERT_EQ(pub.wait_connected(5s), Status::ok) << pub.stats().last_error;
  ASSERT_EQ(pub.publish("over tls"), Status::ok);
  ASSERT_EQ(pub.flush(5s), Status::ok);
  EXPECT_EQ(pub.stats().sent, 1u);

  MqttOptions untrusted = fast_options(1);
  untrusted.tls.ca_file = d + "/other.pem";
  MqttPublisher rejected(url, untrusted);
  EXPECT_EQ(rejected.wait_connected(1s), Status::timeout);
  EXPECT_NE(rejected.stats().last_error.find(url + ": "), std::string::npos) << rejected.stats().last_error;
  EXPECT_NE(rejected.stats().last_error.find("certificate verify failed"), std::string::npos)
      << rejected.stats().last_error;

  // Without ca_file the system's CAs are used (and TLS is still on): our throw-away CA is not among them.
  MqttPublisher system_cas(url, fast_options(1));
  EXPECT_EQ(system_cas.wait_connected(1s), Status::timeout);
  EXPECT_NE(system_cas.stats().last_error.find("certificate verify failed"), std::string::npos)
      << system_cas.stats().last_error;
}

}  // namespace
