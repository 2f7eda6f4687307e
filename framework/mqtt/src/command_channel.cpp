// MqttCommandChannel: requests arrive through libmosquitto's on_message on the channel's thread and are
// copied; right after that read the same thread checks them, calls the handler (one at a time, in
// arrival order) and publishes each reply on the same connection.

#include "visiongraph/mqtt/command_channel.hpp"

#include <atomic>
#include <cstdlib>
#include <deque>
#include <exception>
#include <string>

#include "client_core.hpp"
#include "text_util.hpp"
#include "visiongraph/core/error.hpp"

namespace vg::mqtt {

namespace {

constexpr std::size_t kMaxIdToken = 64;

void strip_one_newline(std::string_view& text) noexcept {
  if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
}

bool printable_ascii(std::string_view token) noexcept {
  for (char c : token)
    if (c < 0x21 || c > 0x7E) return false;
  return true;
}

/// Frees what mosquitto_property_read_* allocated.
struct FreeOnExit {
  void* p = nullptr;
  ~FreeOnExit() { std::free(p); }
};

}  // namespace

struct MqttCommandChannel::Impl final : detail::ClientCore {
  Impl(const MqttEndpoint& endpoint, MqttRequestHandler handler, const MqttOptions& options)
      : ClientCore(endpoint, options, detail::resolve_client_id(options, "control"), "vg-mqtt-ctl"),
        handler_(std::move(handler)),
        reply_topic_(endpoint.topic + "/reply") {
    if (!handler_) throw Error(endpoint.url + ": the command channel needs a request handler");
    start();
  }
  ~Impl() override { stop(); }

  MqttCommandChannelStats stats() const {
    MqttCommandChannelStats s;
    s.requests = requests_.load(std::memory_order_relaxed);
    s.replies = replies_.load(std::memory_order_relaxed);
    s.rejected = rejected_.load(std::memory_order_relaxed);
    s.handler_failures = handler_failures_.load(std::memory_order_relaxed);
    s.ignored_retained = ignored_retained_.load(std::memory_order_relaxed);
    s.reply_failures = reply_failures_.load(std::memory_order_relaxed);
    s.connections = connections();
    s.reconnects = reconnects();
    s.connected = connected();
    s.subscribed = subscribed_.load(std::memory_order_acquire);
    s.last_error = last_error();
    return s;
  }

  bool subscribed() const noexcept { return subscribed_.load(std::memory_order_acquire); }
  const std::string& reply_topic() const noexcept { return reply_topic_; }

 private:
  bool v5() const noexcept { return options().protocol == MqttProtocol::v5; }

  void on_session_up() override {
    subscribed_.store(false, std::memory_order_release);
    // MQTT 5: the broker must not hand us retained requests at all. MQTT 3.1.1 has no such option;
    // on_message() skips messages flagged retained instead.
    const int sub_options = v5() ? MQTT_SUB_OPT_SEND_RETAIN_NEVER : 0;
    const int rc = mosquitto_subscribe_v5(handle(), &subscribe_mid_, endpoint().topic.c_str(), options().qos,
                                          sub_options, nullptr);
    if (rc != MOSQ_ERR_SUCCESS)
      set_error("cannot subscribe to '" + endpoint().topic + "': " + mosquitto_strerror(rc));
  }

  void on_session_down() override {
    subscribed_.store(false, std::memory_order_release);
    notify_waiters();
  }

  void on_subscribed(int mid, int qos_count, const int* granted) override {
    if (mid != subscribe_mid_) return;
    // Granted QoS 0..2 means accepted; 0x80 (MQTT 3.1.1) or a reason code >= 0x80 (MQTT 5) refused.
    if (qos_count >= 1 && granted != nullptr && granted[0] >= 0 && granted[0] <= 2) {
      subscribed_.store(true, std::memory_order_release);
    } else {
      const int code = qos_count >= 1 && granted != nullptr ? granted[0] : 0x80;
      set_error("the broker refused the subscription to '" + endpoint().topic + "' (" +
                (v5() ? std::string(mosquitto_reason_string(code)) : "not authorised?") + ")");
    }
    notify_waiters();
  }

  /// A request as received, kept until after_io() answers it.
  struct Request {
    std::string payload;
    std::string reply_topic;
    std::string correlation;
    bool has_correlation = false;
  };

  // libmosquitto holds its callback lock here: only copy the request. It is answered in after_io(),
  // outside libmosquitto, so a slow handler blocks no lock and the reply is published like any message.
  void on_message(const mosquitto_message& message, const mosquitto_property* props) override {
    if (message.retain) {
      ignored_retained_.fetch_add(1, std::memory_order_relaxed);
      return;
    }
    requests_.fetch_add(1, std::memory_order_relaxed);
    Request request;
    if (message.payload != nullptr && message.payloadlen > 0)
      request.payload.assign(static_cast<const char*>(message.payload), static_cast<std::size_t>(message.payloadlen));
    request.reply_topic = reply_topic_for(props);
    if (v5() && props != nullptr) {
      void* data = nullptr;
      std::uint16_t length = 0;
      if (mosquitto_property_read_binary(props, MQTT_PROP_CORRELATION_DATA, &data, &length, false) != nullptr) {
        FreeOnExit guard{data};
        request.correlation.assign(static_cast<const char*>(data), length);
        request.has_correlation = true;
      }
    }
    pending_.push_back(std::move(request));
  }

  void after_io() override {
    // Requests handled one at a time, in arrival order. The list only grows inside on_message(), on
    // this thread, so it holds at most what one read delivered.
    while (!pending_.empty()) {
      Request request = std::move(pending_.front());
      pending_.pop_front();
      send_reply(request, answer(request.payload));
    }
  }

  /// The reply text for one request payload, "id=<token> " prefix included.
  std::string answer(std::string_view raw) {
    std::string prefix;
    std::string_view request = raw;
    if (raw.substr(0, 3) == "id=") {
      const std::size_t space = raw.substr(0, 3 + kMaxIdToken + 1).find(' ');
      const std::string_view token =
          space == std::string_view::npos ? std::string_view{} : raw.substr(3, space - 3);
      if (token.empty() || !printable_ascii(token)) {
        rejected_.fetch_add(1, std::memory_order_relaxed);
        return "error the id must be 1 to " + std::to_string(kMaxIdToken) +
               " printable ASCII characters followed by a space: id=<token> <request>";
      }
      prefix = "id=" + std::string(token) + " ";
      request = raw.substr(space + 1);
    }
    if (raw.size() > max_request_size) {
      rejected_.fetch_add(1, std::memory_order_relaxed);
      return prefix + "error request too long (" + std::to_string(raw.size()) + " bytes, at most " +
             std::to_string(max_request_size) + ")";
    }
    if (!detail::is_valid_utf8(raw)) {
      rejected_.fetch_add(1, std::memory_order_relaxed);
      return prefix + "error request is not valid UTF-8 text";
    }
    strip_one_newline(request);
    if (request.find_first_of(std::string_view("\r\n\0", 3)) != std::string_view::npos) {
      rejected_.fetch_add(1, std::memory_order_relaxed);
      return prefix + "error a request is one line of text (send one request per message)";
    }
    std::string text;
    try {
      text = handler_(request);
    } catch (const std::exception& e) {
      handler_failures_.fetch_add(1, std::memory_order_relaxed);
      text = std::string("error ") + e.what();
    } catch (...) {
      handler_failures_.fetch_add(1, std::memory_order_relaxed);
      text = "error the request handler failed";
    }
    std::string_view body = text;
    strip_one_newline(body);
    return prefix + std::string(body);
  }

  /// Where the reply goes: a valid MQTT 5 response topic of the request, else `<topic>/reply`.
  std::string reply_topic_for(const mosquitto_property* props) const {
    if (!v5() || props == nullptr) return reply_topic_;
    char* value = nullptr;
    if (mosquitto_property_read_string(props, MQTT_PROP_RESPONSE_TOPIC, &value, false) == nullptr || value == nullptr)
      return reply_topic_;
    FreeOnExit guard{value};
    const std::string topic(value);
    // Never answer onto the request topic itself (the reply would come back as a request) nor onto a
    // wildcard (cannot be published to).
    if (topic.empty() || topic == endpoint().topic || mosquitto_pub_topic_check(topic.c_str()) != MOSQ_ERR_SUCCESS)
      return reply_topic_;
    return topic;
  }

  void send_reply(const Request& request, const std::string& reply) {
    mosquitto_property* reply_props = nullptr;
    if (request.has_correlation &&
        mosquitto_property_add_binary(&reply_props, MQTT_PROP_CORRELATION_DATA, request.correlation.data(),
                                      static_cast<std::uint16_t>(request.correlation.size())) != MOSQ_ERR_SUCCESS) {
      mosquitto_property_free_all(&reply_props);
      reply_props = nullptr;
    }
    const int rc = mosquitto_publish_v5(handle(), nullptr, request.reply_topic.c_str(), static_cast<int>(reply.size()),
                                        reply.data(), options().qos, /*retain=*/false, reply_props);
    mosquitto_property_free_all(&reply_props);
    if (rc == MOSQ_ERR_SUCCESS) {
      replies_.fetch_add(1, std::memory_order_relaxed);
    } else {
      reply_failures_.fetch_add(1, std::memory_order_relaxed);
      set_error("cannot publish a reply on '" + request.reply_topic + "': " + mosquitto_strerror(rc));
    }
  }

  MqttRequestHandler handler_;
  std::string reply_topic_;
  std::deque<Request> pending_;  // network thread only
  int subscribe_mid_ = -1;  // network thread only
  std::atomic<bool> subscribed_{false};
  std::atomic<std::uint64_t> requests_{0};
  std::atomic<std::uint64_t> replies_{0};
  std::atomic<std::uint64_t> rejected_{0};
  std::atomic<std::uint64_t> handler_failures_{0};
  std::atomic<std::uint64_t> ignored_retained_{0};
  std::atomic<std::uint64_t> reply_failures_{0};
};

MqttCommandChannel::MqttCommandChannel(std::string_view url, MqttRequestHandler handler, const MqttOptions& options)
    : MqttCommandChannel(MqttEndpoint::parse(url), std::move(handler), options) {}

MqttCommandChannel::MqttCommandChannel(const MqttEndpoint& endpoint, MqttRequestHandler handler,
                                       const MqttOptions& options)
    : impl_(std::make_unique<Impl>(endpoint, std::move(handler), options)) {}

MqttCommandChannel::~MqttCommandChannel() { close(); }

Status MqttCommandChannel::wait_subscribed(std::chrono::milliseconds timeout) noexcept {
  return impl_->wait_until([this] { return impl_->subscribed(); }, timeout);
}

void MqttCommandChannel::close() noexcept { impl_->stop(); }

MqttCommandChannelStats MqttCommandChannel::stats() const { return impl_->stats(); }
const MqttEndpoint& MqttCommandChannel::endpoint() const noexcept { return impl_->endpoint(); }
const std::string& MqttCommandChannel::reply_topic() const noexcept { return impl_->reply_topic(); }
const std::string& MqttCommandChannel::client_id() const noexcept { return impl_->client_id(); }

}  // namespace vg::mqtt
