// MosquittoBroker and MqttTestClient: see mosquitto_broker.hpp.

#include "mosquitto_broker.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <mosquitto.h>
#include <mqtt_protocol.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace vg::test {

namespace {

constexpr const char* kMosquitto = "/usr/sbin/mosquitto";

std::uint16_t pick_free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    const int e = errno;
    ::close(fd);
    throw std::runtime_error(std::string("cannot find a free port: ") + std::strerror(e));
  }
  ::close(fd);
  return ntohs(addr.sin_port);
}

bool port_accepts(std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(port);
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return ok;
}

std::string replace_all(std::string text, std::string_view from, const std::string& to) {
  for (std::size_t pos = text.find(from); pos != std::string::npos; pos = text.find(from, pos + to.size()))
    text.replace(pos, from.size(), to);
  return text;
}

std::string tail(const std::string& text, std::size_t max_chars) {
  return text.size() <= max_chars ? text : "..." + text.substr(text.size() - max_chars);
}

void init_mosquitto_library() {
  static std::once_flag once;
  std::call_once(once, [] { mosquitto_lib_init(); });
}

}  // namespace

// ---------------------------------------------------------------------------------------------------
std::uint16_t free_port() { return pick_free_port(); }

bool make_test_certificates(const std::filesystem::path& dir) {
  const std::string cmd =
      "cd '" + dir.string() + "' && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 "
      "-subj /CN=vg-test-ca -keyout ca.key -out ca.pem 2>/dev/null && "
      "openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=127.0.0.1 "
      "-keyout server.key -out server.csr 2>/dev/null && "
      "printf 'subjectAltName=IP:127.0.0.1\\n' > san.ext && "
      "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 "
      "-extfile san.ext -out server.pem 2>/dev/null && "
      "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 "
      "-subj /CN=other-ca -keyout other.key -out other.pem 2>/dev/null";
  return std::system(cmd.c_str()) == 0;
}

// MosquittoBroker

MosquittoBroker::MosquittoBroker(std::vector<std::string> extra_config) : extra_config_(std::move(extra_config)) {
  std::string pattern = (std::filesystem::temp_directory_path() / "vg-mosquitto-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw std::runtime_error(std::string("mkdtemp: ") + std::strerror(errno));
  dir_ = pattern;
  port_ = pick_free_port();
}

MosquittoBroker::~MosquittoBroker() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

std::string MosquittoBroker::url(std::string_view topic) const {
  return "mqtt://127.0.0.1:" + std::to_string(port_) + "/" + std::string(topic);
}

std::string MosquittoBroker::log() const {
  std::ifstream in(dir_ / "mosquitto.log");
  std::stringstream out;
  out << in.rdbuf();
  std::ifstream err(dir_ / "stderr.log");
  if (err) out << err.rdbuf();
  return out.str();
}

void MosquittoBroker::write_config() const {
  const bool sets_anonymous = std::any_of(extra_config_.begin(), extra_config_.end(), [](const std::string& l) {
    return l.rfind("allow_anonymous", 0) == 0;
  });
  std::ofstream conf(dir_ / "mosquitto.conf", std::ios::trunc);
  conf << "listener " << port_ << " 127.0.0.1\n";
  for (const std::string& line : extra_config_) conf << replace_all(line, "${DIR}", dir_.string()) << '\n';
  if (!sets_anonymous) conf << "allow_anonymous true\n";
  conf << "persistence false\n"
       << "log_dest file " << (dir_ / "mosquitto.log").string() << '\n'
       << "log_type error\nlog_type warning\nlog_type notice\nlog_type information\n"
       << "max_queued_messages 100000\n";
  // Started as root, mosquitto would switch to the 'mosquitto' user, which cannot write our directory.
  if (::geteuid() == 0) conf << "user root\n";
  if (!conf) throw std::runtime_error("cannot write " + (dir_ / "mosquitto.conf").string());
}

void MosquittoBroker::start(std::chrono::milliseconds timeout) {
  if (pid_ > 0) throw std::runtime_error("mosquitto is already running");
  write_config();
  const std::string conf = (dir_ / "mosquitto.conf").string();
  const std::string err_log = (dir_ / "stderr.log").string();
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {
    // Child: async-signal-safe calls only (the parent has threads).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(126);
    const int fd = ::open(err_log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (fd >= 0) {
      ::dup2(fd, STDOUT_FILENO);
      ::dup2(fd, STDERR_FILENO);
    }
    ::execl(kMosquitto, "mosquitto", "-c", conf.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  pid_ = pid;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (port_accepts(port_)) return;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      paused_ = false;
      throw std::runtime_error("mosquitto exited at start (port " + std::to_string(port_) + "): " + tail(log(), 2000));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(pid_, SIGKILL);
  reap(std::chrono::seconds(2));
  throw std::runtime_error("mosquitto did not accept connections on port " + std::to_string(port_) + " within " +
                           std::to_string(timeout.count()) + " ms: " + tail(log(), 2000));
}

void MosquittoBroker::reap(std::chrono::milliseconds timeout) {
  if (pid_ <= 0) return;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_ || (r < 0 && errno == ECHILD)) {
      pid_ = -1;
      paused_ = false;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ::kill(pid_, SIGKILL);
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
  paused_ = false;
}

void MosquittoBroker::stop(std::chrono::milliseconds grace) {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGTERM);
  ::kill(pid_, SIGCONT);  // a stopped process only acts on SIGTERM once it runs again
  reap(grace);
}

void MosquittoBroker::kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
  paused_ = false;
}

void MosquittoBroker::pause() {
  if (pid_ <= 0) throw std::runtime_error("pause: mosquitto is not running");
  if (paused_) return;
  ::kill(pid_, SIGSTOP);
  int status = 0;
  // WUNTRACED reports the child once it is really stopped: no race with the caller's next step.
  if (::waitpid(pid_, &status, WUNTRACED) != pid_ || !WIFSTOPPED(status))
    throw std::runtime_error("pause: mosquitto did not stop");
  paused_ = true;
}

void MosquittoBroker::resume() {
  if (pid_ <= 0) throw std::runtime_error("resume: mosquitto is not running");
  if (!paused_) return;
  ::kill(pid_, SIGCONT);
  int status = 0;
  ::waitpid(pid_, &status, WCONTINUED);
  paused_ = false;
}

void MosquittoBroker::restart() {
  stop();
  start();
}

// ---------------------------------------------------------------------------------------------------
// MqttTestClient

struct MqttTestClientCallbacks {
  static void on_connect(mosquitto* mosq, void* obj, int rc, int /*flags*/, const mosquitto_property*) {
    auto* self = static_cast<MqttTestClient*>(obj);
    std::lock_guard<std::mutex> lock(self->mutex_);
    self->connected_ = rc == 0;
    if (rc == 0)
      for (const auto& [topic, qos] : self->subscriptions_) {
        int mid = 0;
        mosquitto_subscribe_v5(mosq, &mid, topic.c_str(), qos, 0, nullptr);
      }
    self->cv_.notify_all();
  }
  static void on_disconnect(mosquitto*, void* obj, int, const mosquitto_property*) {
    auto* self = static_cast<MqttTestClient*>(obj);
    std::lock_guard<std::mutex> lock(self->mutex_);
    self->connected_ = false;
    self->cv_.notify_all();
  }
  static void on_subscribe(mosquitto*, void* obj, int mid, int count, const int* granted, const mosquitto_property*) {
    auto* self = static_cast<MqttTestClient*>(obj);
    std::lock_guard<std::mutex> lock(self->mutex_);
    if (count >= 1 && granted[0] >= 0 && granted[0] <= 2) self->subscribed_mids_.push_back(mid);
    self->cv_.notify_all();
  }
  static void on_publish(mosquitto*, void* obj, int mid, int, const mosquitto_property*) {
    auto* self = static_cast<MqttTestClient*>(obj);
    std::lock_guard<std::mutex> lock(self->mutex_);
    self->published_mids_.push_back(mid);
    self->cv_.notify_all();
  }
  static void on_message(mosquitto*, void* obj, const mosquitto_message* msg, const mosquitto_property* props) {
    auto* self = static_cast<MqttTestClient*>(obj);
    MqttTestClient::Message m;
    m.topic = msg->topic;
    if (msg->payloadlen > 0)
      m.payload.assign(static_cast<const char*>(msg->payload), static_cast<std::size_t>(msg->payloadlen));
    m.retain = msg->retain;
    void* data = nullptr;
    std::uint16_t len = 0;
    if (props != nullptr &&
        mosquitto_property_read_binary(props, MQTT_PROP_CORRELATION_DATA, &data, &len, false) != nullptr) {
      m.correlation.assign(static_cast<const char*>(data), len);
      std::free(data);
    }
    std::lock_guard<std::mutex> lock(self->mutex_);
    self->messages_.push_back(std::move(m));
    self->cv_.notify_all();
  }
};

MqttTestClient::MqttTestClient(std::uint16_t port, Options options) {
  init_mosquitto_library();
  static std::atomic<int> counter{0};
  const std::string id = "vg-test-" + std::to_string(::getpid()) + "-" + std::to_string(++counter);
  mosq_ = mosquitto_new(id.c_str(), true, this);
  if (mosq_ == nullptr) throw std::runtime_error("mosquitto_new failed");
  mosquitto_int_option(mosq_, MOSQ_OPT_PROTOCOL_VERSION, options.mqtt5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311);
  if (!options.username.empty())
    mosquitto_username_pw_set(mosq_, options.username.c_str(),
                              options.password.empty() ? nullptr : options.password.c_str());
  mosquitto_connect_v5_callback_set(mosq_, &MqttTestClientCallbacks::on_connect);
  mosquitto_disconnect_v5_callback_set(mosq_, &MqttTestClientCallbacks::on_disconnect);
  mosquitto_subscribe_v5_callback_set(mosq_, &MqttTestClientCallbacks::on_subscribe);
  mosquitto_publish_v5_callback_set(mosq_, &MqttTestClientCallbacks::on_publish);
  mosquitto_message_v5_callback_set(mosq_, &MqttTestClientCallbacks::on_message);
  mosquitto_reconnect_delay_set(mosq_, 1, 1, false);
  // A long keep-alive: tests pause the broker for a few seconds and this client must survive that.
  int rc = mosquitto_connect(mosq_, "127.0.0.1", port, 60);
  if (rc == MOSQ_ERR_SUCCESS) rc = mosquitto_loop_start(mosq_);
  if (rc != MOSQ_ERR_SUCCESS) {
    mosquitto_destroy(mosq_);
    throw std::runtime_error(std::string("test client cannot connect: ") + mosquitto_strerror(rc));
  }
  std::unique_lock<std::mutex> lock(mutex_);
  if (!cv_.wait_for(lock, std::chrono::seconds(5), [&] { return connected_; })) {
    lock.unlock();
    mosquitto_loop_stop(mosq_, true);
    mosquitto_destroy(mosq_);
    throw std::runtime_error("test client: no CONNACK within 5 s");
  }
}

MqttTestClient::~MqttTestClient() {
  // After a disconnect the loop thread ends by itself (at the latest after its 1 s reconnect delay);
  // cancelling it (force) could leave one of libmosquitto's mutexes locked.
  mosquitto_disconnect(mosq_);
  mosquitto_loop_stop(mosq_, false);
  mosquitto_destroy(mosq_);
}

bool MqttTestClient::subscribe(const std::string& topic, int qos, std::chrono::milliseconds timeout) {
  int mid = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    subscriptions_.emplace_back(topic, qos);
  }
  if (mosquitto_subscribe_v5(mosq_, &mid, topic.c_str(), qos, 0, nullptr) != MOSQ_ERR_SUCCESS) return false;
  std::unique_lock<std::mutex> lock(mutex_);
  return cv_.wait_for(lock, timeout, [&] {
    return std::find(subscribed_mids_.begin(), subscribed_mids_.end(), mid) != subscribed_mids_.end();
  });
}

bool MqttTestClient::publish(const std::string& topic, std::string_view payload, int qos, bool retain,
                             const std::string& response_topic, const std::string& correlation,
                             std::chrono::milliseconds timeout) {
  mosquitto_property* props = nullptr;
  if (!response_topic.empty()) mosquitto_property_add_string(&props, MQTT_PROP_RESPONSE_TOPIC, response_topic.c_str());
  if (!correlation.empty())
    mosquitto_property_add_binary(&props, MQTT_PROP_CORRELATION_DATA, correlation.data(),
                                  static_cast<std::uint16_t>(correlation.size()));
  int mid = 0;
  const int rc = mosquitto_publish_v5(mosq_, &mid, topic.c_str(), static_cast<int>(payload.size()), payload.data(),
                                      qos, retain, props);
  mosquitto_property_free_all(&props);
  if (rc != MOSQ_ERR_SUCCESS) return false;
  std::unique_lock<std::mutex> lock(mutex_);
  return cv_.wait_for(lock, timeout, [&] {
    return std::find(published_mids_.begin(), published_mids_.end(), mid) != published_mids_.end();
  });
}

bool MqttTestClient::wait_for_count(std::size_t count, std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  return cv_.wait_for(lock, timeout, [&] { return messages_.size() >= count; });
}

bool MqttTestClient::wait_for_payload(std::string_view payload, std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  return cv_.wait_for(lock, timeout, [&] {
    return std::any_of(messages_.begin(), messages_.end(), [&](const Message& m) { return m.payload == payload; });
  });
}

std::vector<MqttTestClient::Message> MqttTestClient::messages() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return messages_;
}

void MqttTestClient::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  messages_.clear();
}

bool MqttTestClient::connected() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return connected_;
}

std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages_total = 0, pages_resident = 0;
  statm >> pages_total >> pages_resident;
  return pages_resident * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}

}  // namespace vg::test
