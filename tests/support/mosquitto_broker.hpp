#pragma once
/// @file
/// @brief A real mosquitto broker as a child process on 127.0.0.1 (start, pause, resume, kill, restart on
/// the same port) and a small libmosquitto client that collects messages, for the MQTT tests.

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

struct mosquitto;

namespace vg::test {

/// @brief `/usr/sbin/mosquitto` with a generated configuration in its own temporary directory:
/// `listener <free port> 127.0.0.1`, anonymous clients allowed (unless the extra lines say otherwise),
/// no persistence, log in `<dir>/mosquitto.log`. The port is chosen at construction (bind to port 0) and
/// kept for every start(), so a restarted broker comes back where clients expect it. Every call is
/// bounded in time and throws std::runtime_error (with the log's tail) when the broker misbehaves; the
/// destructor always kills it. The child also dies with the thread that started it (PR_SET_PDEATHSIG),
/// so a crashed test leaves no broker behind.
/// @code
/// vg::test::MosquittoBroker broker;
/// broker.start();
/// vg::mqtt::MqttPublisher pub(broker.url("vg/test"));
/// broker.pause();   // SIGSTOP: connections stay open, nothing is read
/// broker.resume();  // SIGCONT
/// @endcode
/// @note One thread drives a broker object.
class MosquittoBroker {
 public:
  /// @param extra_config lines appended to the generated mosquitto.conf (e.g. a password_file, TLS);
  ///        `${DIR}` in them is replaced by the broker's temporary directory.
  explicit MosquittoBroker(std::vector<std::string> extra_config = {});
  ~MosquittoBroker();
  MosquittoBroker(const MosquittoBroker&) = delete;
  MosquittoBroker& operator=(const MosquittoBroker&) = delete;

  /// Start and wait (at most @p timeout) until the port accepts connections.
  void start(std::chrono::milliseconds timeout = std::chrono::seconds(5));
  /// SIGTERM (and SIGCONT, in case it is paused), SIGKILL after @p grace, then reap it.
  void stop(std::chrono::milliseconds grace = std::chrono::seconds(2));
  /// SIGKILL at once (a crash: no goodbye to the clients), then reap it.
  void kill();
  void pause();   ///< SIGSTOP; returns once the process is stopped
  void resume();  ///< SIGCONT (no-op unless paused)
  /// stop() then start() on the same port.
  void restart();

  bool running() const noexcept { return pid_ > 0; }
  bool paused() const noexcept { return paused_; }
  std::uint16_t port() const noexcept { return port_; }
  std::string url(std::string_view topic) const;  ///< mqtt://127.0.0.1:PORT/TOPIC
  const std::filesystem::path& dir() const noexcept { return dir_; }
  std::string log() const;  ///< the broker's log so far

 private:
  void write_config() const;
  void reap(std::chrono::milliseconds timeout);

  std::vector<std::string> extra_config_;
  std::filesystem::path dir_;
  std::uint16_t port_ = 0;
  pid_t pid_ = -1;
  bool paused_ = false;
};

/// @brief A libmosquitto client on its own thread (mosquitto_loop_start) that collects what arrives on
/// its subscriptions and can publish, MQTT 5 properties included. Resubscribes after a reconnect.
/// @code
/// vg::test::MqttTestClient sub(broker.port());
/// ASSERT_TRUE(sub.subscribe("vg/test", 1));
/// ASSERT_TRUE(sub.wait_for_count(500, std::chrono::seconds(10)));
/// @endcode
/// @note subscribe/publish/wait/messages from any thread.
class MqttTestClient {
 public:
  struct Message {
    std::string topic;
    std::string payload;
    std::string correlation;     ///< MQTT 5 correlation data, empty if none
    bool retain = false;
  };
  struct Options {
    bool mqtt5 = true;
    std::string username;
    std::string password;
  };

  explicit MqttTestClient(std::uint16_t port, Options options);
  explicit MqttTestClient(std::uint16_t port) : MqttTestClient(port, Options{}) {}
  ~MqttTestClient();
  MqttTestClient(const MqttTestClient&) = delete;
  MqttTestClient& operator=(const MqttTestClient&) = delete;

  /// Subscribe and wait for the broker's SUBACK (false on timeout or refusal).
  bool subscribe(const std::string& topic, int qos,
                 std::chrono::milliseconds timeout = std::chrono::seconds(5));
  /// Publish and wait until libmosquitto wrote it (QoS 0) or the broker acknowledged it (QoS 1).
  bool publish(const std::string& topic, std::string_view payload, int qos = 1, bool retain = false,
               const std::string& response_topic = {}, const std::string& correlation = {},
               std::chrono::milliseconds timeout = std::chrono::seconds(5));

  /// Wait until at least @p count messages arrived in total (since the last clear()).
  bool wait_for_count(std::size_t count, std::chrono::milliseconds timeout);
  /// Wait until a message whose payload equals @p payload arrived.
  bool wait_for_payload(std::string_view payload, std::chrono::milliseconds timeout);
  std::vector<Message> messages() const;
  void clear();
  bool connected() const;

 private:
  friend struct MqttTestClientCallbacks;
  mosquitto* mosq_ = nullptr;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  bool connected_ = false;
  std::vector<std::pair<std::string, int>> subscriptions_;
  std::vector<int> subscribed_mids_;
  std::vector<int> published_mids_;
  std::vector<Message> messages_;
};

/// @brief A free TCP port on 127.0.0.1 (bound to port 0, then released), e.g. for a broker's second listener.
std::uint16_t free_port();

/// @brief A throw-away CA and a server certificate for 127.0.0.1 in @p dir, made with the openssl command
/// line: ca.pem, server.pem and server.key (signed by ca.pem), and other.pem (an unrelated CA, for the
/// untrusted case). False if openssl failed.
bool make_test_certificates(const std::filesystem::path& dir);

/// @brief Resident set size of this process in bytes (from /proc/self/statm).
std::size_t resident_bytes();

}  // namespace vg::test
