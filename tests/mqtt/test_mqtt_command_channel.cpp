// MqttCommandChannel against a real mosquitto broker on 127.0.0.1: request -> handler -> reply, id and
// MQTT 5 correlation, order, bad requests, handler exceptions, retained requests, reconnects.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "mosquitto_broker.hpp"
#include "visiongraph/core/error.hpp"
#include "visiongraph/mqtt/command_channel.hpp"

namespace {

using namespace std::chrono_literals;
using vg::Status;
using vg::mqtt::MqttCommandChannel;
using vg::mqtt::MqttOptions;
using vg::mqtt::MqttProtocol;
using vg::test::MosquittoBroker;
using vg::test::MqttTestClient;

MqttOptions fast_options(int qos = 1) {
  MqttOptions o;
  o.qos = qos;
  o.reconnect_initial = 50ms;
  o.reconnect_max = 400ms;
  o.connect_timeout = 2s;
  return o;
}

/// A handler that records what it was given, in order, and answers "ok <request>".
struct RecordingHandler {
  std::mutex mutex;
  std::vector<std::string> calls;

  vg::mqtt::MqttRequestHandler fn() {
    return [this](std::string_view request) {
      std::lock_guard<std::mutex> lock(mutex);
      calls.emplace_back(request);
      if (request == "throw") throw std::runtime_error("node 'decode' rejected the command");
      if (request == "throw-int") throw 42;
      return "ok " + std::string(request);
    };
  }
  std::vector<std::string> snapshot() {
    std::lock_guard<std::mutex> lock(mutex);
    return calls;
  }
};

class MqttCommandChannelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    broker_.start();
    client_ = std::make_unique<MqttTestClient>(broker_.port());
    ASSERT_TRUE(client_->subscribe("vg/ctl/reply", 1));
  }

  std::unique_ptr<MqttCommandChannel> open_channel(const MqttOptions& options = fast_options()) {
    auto channel = std::make_unique<MqttCommandChannel>(broker_.url("vg/ctl"), handler_.fn(), options);
    EXPECT_EQ(channel->wait_subscribed(5s), Status::ok) << channel->stats().last_error;
    return channel;
  }

  /// Send @p request and return the next reply on vg/ctl/reply ("(no reply)" after 5 s).
  std::string ask(const std::string& request) {
    const std::size_t before = client_->messages().size();
    EXPECT_TRUE(client_->publish("vg/ctl", request, 1));
    if (!client_->wait_for_count(before + 1, 5s)) return "(no reply)";
    return client_->messages()[before].payload;
  }

  MosquittoBroker broker_;
  std::unique_ptr<MqttTestClient> client_;
  RecordingHandler handler_;
};

TEST_F(MqttCommandChannelTest, RequestWithIdGetsReplyOnReplyTopicWithIdEcho) {
  auto channel = open_channel();
  EXPECT_EQ(channel->reply_topic(), "vg/ctl/reply");
  EXPECT_EQ(ask("id=42 decode set_score_threshold 0.6"), "id=42 ok decode set_score_threshold 0.6");
  EXPECT_EQ(ask("help"), "ok help");
  EXPECT_EQ(ask("id=a-b_c.9 help\n"), "id=a-b_c.9 ok help");  // one trailing newline is not part of it
  EXPECT_EQ(ask("decode get_settings\r\n"), "ok decode get_settings");
  EXPECT_EQ(handler_.snapshot(),
            (std::vector<std::string>{"decode set_score_threshold 0.6", "help", "help", "decode get_settings"}));
  const auto replies = client_->messages();
  for (const auto& m : replies) EXPECT_EQ(m.topic, "vg/ctl/reply");
  const auto s = channel->stats();
  EXPECT_EQ(s.requests, 4u);
  EXPECT_EQ(s.replies, 4u);
  EXPECT_TRUE(s.subscribed);
}

TEST_F(MqttCommandChannelTest, FiftyRequestsAreHandledAndAnsweredInOrder) {
  auto channel = open_channel();
  // Sent back to back without waiting for replies: they queue at the broker and in the channel.
  for (int i = 0; i < 50; ++i)
    ASSERT_TRUE(client_->publish("vg/ctl", "id=" + std::to_string(i) + " node cmd " + std::to_string(i), 1));
  ASSERT_TRUE(client_->wait_for_count(50, 10s)) << client_->messages().size();
  const auto replies = client_->messages();
  const auto calls = handler_.snapshot();
  ASSERT_EQ(calls.size(), 50u);
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(calls[i], "node cmd " + std::to_string(i));
    EXPECT_EQ(replies[i].payload, "id=" + std::to_string(i) + " ok node cmd " + std::to_string(i));
  }
}

TEST_F(MqttCommandChannelTest, BadRequestsGetErrorRepliesWithoutCallingHandler) {
  auto channel = open_channel();
  const std::string long_request = "id=9 " + std::string(5000, 'a');
  EXPECT_EQ(ask(long_request), "id=9 error request too long (5005 bytes, at most 4096)");
  EXPECT_EQ(ask(std::string(4097, 'b')), "error request too long (4097 bytes, at most 4096)");
  EXPECT_EQ(ask("id=3 decode \xC3\x28"), "id=3 error request is not valid UTF-8 text");
  EXPECT_EQ(ask("help\nhelp"), "error a request is one line of text (send one request per message)");
  EXPECT_EQ(ask(std::string("help\0x", 6)), "error a request is one line of text (send one request per message)");
  EXPECT_EQ(ask("id= help"),
            "error the id must be 1 to 64 printable ASCII characters followed by a space: id=<token> <request>");
  EXPECT_EQ(ask("id=" + std::string(65, 'x') + " help"),
            "error the id must be 1 to 64 printable ASCII characters followed by a space: id=<token> <request>");
  EXPECT_TRUE(handler_.snapshot().empty());
  EXPECT_EQ(channel->stats().rejected, 7u);
  // The largest accepted request still reaches the handler.
  const std::string largest = std::string(4096 - 5, 'c');
  EXPECT_EQ(ask("id=1 " + largest), "id=1 ok " + largest);
}

TEST_F(MqttCommandChannelTest, HandlerExceptionsBecomeErrorRepliesAndChannelContinues) {
  auto channel = open_channel();
  EXPECT_EQ(ask("id=5 throw"), "id=5 error node 'decode' rejected the command");
  EXPECT_EQ(ask("throw-int"), "error the request handler failed");
  EXPECT_EQ(ask("id=6 help"), "id=6 ok help");
  EXPECT_EQ(channel->stats().handler_failures, 2u);
}

TEST_F(MqttCommandChannelTest, Mqtt5ResponseTopicAndCorrelationDataAreHonoured) {
  auto channel = open_channel();
  ASSERT_TRUE(client_->subscribe("app/replies/7", 1));
  const std::string correlation("\x01\x00\xFFxyz", 6);
  ASSERT_TRUE(client_->publish("vg/ctl", "id=1 help", 1, false, "app/replies/7", correlation));
  ASSERT_TRUE(client_->wait_for_count(1, 5s));
  auto m = client_->messages()[0];
  EXPECT_EQ(m.topic, "app/replies/7");
  EXPECT_EQ(m.payload, "id=1 ok help");
  EXPECT_EQ(m.correlation, correlation);

  // A response topic that is the request topic itself, or a wildcard, falls back to <topic>/reply.
  client_->clear();
  ASSERT_TRUE(client_->publish("vg/ctl", "id=2 help", 1, false, "vg/ctl", "c2"));
  ASSERT_TRUE(client_->publish("vg/ctl", "id=3 help", 1, false, "app/#", "c3"));
  ASSERT_TRUE(client_->wait_for_count(2, 5s));
  const auto replies = client_->messages();
  EXPECT_EQ(replies[0].topic, "vg/ctl/reply");
  EXPECT_EQ(replies[0].payload, "id=2 ok help");
  EXPECT_EQ(replies[0].correlation, "c2");
  EXPECT_EQ(replies[1].topic, "vg/ctl/reply");
  EXPECT_EQ(replies[1].correlation, "c3");
  EXPECT_EQ(handler_.snapshot().size(), 3u);  // no reply came back as a request
}

TEST_F(MqttCommandChannelTest, Mqtt311ChannelRepliesOnReplyTopicWithIdEcho) {
  MqttOptions o = fast_options();
  o.protocol = MqttProtocol::v311;
  auto channel = open_channel(o);
  EXPECT_EQ(ask("id=77 detector get_run_time"), "id=77 ok detector get_run_time");
}

TEST_F(MqttCommandChannelTest, RetainedRequestIsNeverExecuted) {
  ASSERT_TRUE(client_->publish("vg/ctl", "id=0 stale command", 1, /*retain=*/true));
  for (MqttProtocol protocol : {MqttProtocol::v5, MqttProtocol::v311}) {
    MqttOptions o = fast_options();
    o.protocol = protocol;
    auto channel = open_channel(o);
    client_->clear();
    EXPECT_EQ(ask("id=1 fresh"), "id=1 ok fresh");
    // MQTT 5: the broker is told not to send retained messages; MQTT 3.1.1: they are skipped.
    EXPECT_EQ(channel->stats().ignored_retained, protocol == MqttProtocol::v5 ? 0u : 1u);
    EXPECT_EQ(channel->stats().requests, 1u);
  }
  EXPECT_EQ(handler_.snapshot(), (std::vector<std::string>{"fresh", "fresh"}));
}

TEST_F(MqttCommandChannelTest, ChannelReconnectsAfterBrokerRestartAndAnswersAgain) {
  auto channel = open_channel();
  EXPECT_EQ(ask("id=1 before"), "id=1 ok before");
  client_.reset();
  broker_.kill();
  // The subscription is gone with the broker (noticed as soon as the socket closes).
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (channel->stats().subscribed && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(5ms);
  ASSERT_FALSE(channel->stats().subscribed);
  ASSERT_FALSE(channel->stats().connected);
  broker_.start();
  ASSERT_EQ(channel->wait_subscribed(10s), Status::ok) << channel->stats().last_error;
  client_ = std::make_unique<MqttTestClient>(broker_.port());
  ASSERT_TRUE(client_->subscribe("vg/ctl/reply", 1));
  EXPECT_EQ(ask("id=2 after"), "id=2 ok after");
  const auto s = channel->stats();
  EXPECT_GE(s.reconnects, 1u);
  EXPECT_NE(s.last_error.find(broker_.url("vg/ctl") + ": "), std::string::npos) << s.last_error;
}

TEST_F(MqttCommandChannelTest, CloseFromHandlerAndCloseWithStoppedBrokerAreBounded) {
  std::unique_ptr<MqttCommandChannel> channel;
  std::atomic<bool> closed_from_handler{false};
  channel = std::make_unique<MqttCommandChannel>(
      broker_.url("vg/ctl"),
      [&](std::string_view request) -> std::string {
        if (request == "quit") {
          channel->close();  // must not deadlock: only asks the thread to stop
          closed_from_handler = true;
        }
        return "ok";
      },
      fast_options());
  ASSERT_EQ(channel->wait_subscribed(5s), Status::ok);
  ASSERT_TRUE(client_->publish("vg/ctl", "quit", 1));
  ASSERT_TRUE(client_->wait_for_count(1, 5s));  // the reply still goes out
  EXPECT_TRUE(closed_from_handler);
  const auto t0 = std::chrono::steady_clock::now();
  channel.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 3s);

  auto second = open_channel();
  broker_.pause();
  const auto t1 = std::chrono::steady_clock::now();
  second.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - t1, 3s);
  broker_.resume();
}

TEST(MqttCommandChannel, ConstructWithoutHandlerOrWithBadUrlThrows) {
  EXPECT_THROW(MqttCommandChannel("mqtt://127.0.0.1:1/t", nullptr), vg::Error);
  try {
    MqttCommandChannel c("mqtt://127.0.0.1:1/a/#", [](std::string_view) { return std::string("ok"); });
    FAIL() << "no exception";
  } catch (const vg::Error& e) {
    EXPECT_NE(std::string(e.what()).find("wildcard"), std::string::npos) << e.what();
  }
}

}  // namespace
