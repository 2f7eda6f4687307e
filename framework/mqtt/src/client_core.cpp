// ClientCore: one libmosquitto client, our own network thread, reconnect with backoff. See client_core.hpp.

#include "client_core.hpp"

#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <mutex>

#include "visiongraph/core/error.hpp"

namespace vg::mqtt::detail {

namespace {

void init_library_once() {
  static std::once_flag once;
  // Process-wide and never undone: mosquitto_lib_cleanup would pull the rug from other users of the
  // library in the same process.
  std::call_once(once, [] { mosquitto_lib_init(); });
}

/// A key file with a passphrase must fail with an error, not prompt on the terminal (libmosquitto's
/// default without a callback is OpenSSL's interactive prompt).
int refuse_passphrase(char* /*buf*/, int /*size*/, int /*rwflag*/, void* /*userdata*/) { return 0; }

std::string describe_rc(int rc, int saved_errno) {
  switch (rc) {
    case MOSQ_ERR_ERRNO: return std::strerror(saved_errno);
    case MOSQ_ERR_EAI: return "the host name cannot be resolved";
    case MOSQ_ERR_KEEPALIVE: return "the broker stopped answering (nothing within the keep-alive interval)";
    case MOSQ_ERR_CONN_LOST: return "the connection was closed";
    case MOSQ_ERR_TLS: return "TLS error (certificate not trusted, wrong host name, or not a TLS port)";
    default: return mosquitto_strerror(rc);
  }
}

constexpr std::chrono::milliseconds kGoodbyeBound{500};
constexpr const char* kSystemCaDir = "/etc/ssl/certs";

int ms_until(ClientCore::Clock::time_point now, ClientCore::Clock::time_point then, int cap) {
  if (then <= now) return 0;
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(then - now).count();
  return static_cast<int>(std::min<std::int64_t>(ms, cap));
}

}  // namespace

std::string resolve_client_id(const MqttOptions& options, std::string_view kind) {
  if (!options.client_id.empty()) return options.client_id;
  static std::atomic<std::uint64_t> publishers{0};
  static std::atomic<std::uint64_t> others{0};
  const std::uint64_t n = (kind.empty() ? publishers : others).fetch_add(1) + 1;
  std::string id = "visiongraph-" + std::to_string(::getpid());
  if (!kind.empty()) id += "-" + std::string(kind);
  if (n > 1) id += "-" + std::to_string(n);
  return id;
}

ClientCore::ClientCore(MqttEndpoint endpoint, MqttOptions options, std::string client_id, const char* thread_name)
    : endpoint_(std::move(endpoint)),
      options_(std::move(options)),
      client_id_(std::move(client_id)),
      thread_name_(thread_name) {
  options_.validate(endpoint_);
  init_library_once();
  const std::string& url = endpoint_.url;
  mosq_ = mosquitto_new(client_id_.c_str(), /*clean_session=*/true, this);
  if (mosq_ == nullptr) throw Error(url + ": cannot create the MQTT client: " + std::strerror(errno));
  try {
    const auto check = [&](int rc, const char* what) {
      if (rc != MOSQ_ERR_SUCCESS) throw Error(url + ": " + what + ": " + mosquitto_strerror(rc));
    };
    check(mosquitto_int_option(mosq_, MOSQ_OPT_PROTOCOL_VERSION,
                               options_.protocol == MqttProtocol::v5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311),
          "cannot set the protocol version");
    // One message per frame: waiting for Nagle to fill a segment would only add latency.
    check(mosquitto_int_option(mosq_, MOSQ_OPT_TCP_NODELAY, 1), "cannot set TCP_NODELAY");
    check(mosquitto_max_inflight_messages_set(mosq_, options_.max_inflight), "cannot set max_inflight");
    if (!options_.username.empty())
      check(mosquitto_username_pw_set(mosq_, options_.username.c_str(),
                                      options_.password.empty() ? nullptr : options_.password.c_str()),
            "cannot set the username");
    if (endpoint_.tls) {
      const MqttTlsOptions& tls = options_.tls;
      // Without a ca_file: the system's CAs. libmosquitto 2.0 still insists on a cafile or capath
      // then, so name Debian's CA directory as well as asking for OpenSSL's default locations.
      if (tls.ca_file.empty())
        check(mosquitto_int_option(mosq_, MOSQ_OPT_TLS_USE_OS_CERTS, 1), "cannot use the system's CA certificates");
      check(mosquitto_tls_set(mosq_, tls.ca_file.empty() ? nullptr : tls.ca_file.c_str(),
                              tls.ca_file.empty() ? kSystemCaDir : nullptr,
                              tls.cert_file.empty() ? nullptr : tls.cert_file.c_str(),
                              tls.key_file.empty() ? nullptr : tls.key_file.c_str(), refuse_passphrase),
            "TLS setup failed (ca_file, cert_file or key_file)");
      if (tls.insecure) check(mosquitto_tls_insecure_set(mosq_, true), "cannot set tls.insecure");
    }
    mosquitto_connect_v5_callback_set(mosq_, &ClientCore::cb_connect);
    mosquitto_disconnect_v5_callback_set(mosq_, &ClientCore::cb_disconnect);
    mosquitto_publish_v5_callback_set(mosq_, &ClientCore::cb_publish);
    mosquitto_subscribe_v5_callback_set(mosq_, &ClientCore::cb_subscribe);
    mosquitto_message_v5_callback_set(mosq_, &ClientCore::cb_message);
    mosquitto_log_callback_set(mosq_, &ClientCore::cb_log);
    wake_fd_ = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (wake_fd_ < 0) throw Error(url + ": cannot create an eventfd: " + std::strerror(errno));
  } catch (...) {
    mosquitto_destroy(mosq_);
    mosq_ = nullptr;
    throw;
  }
}

ClientCore::~ClientCore() {
  stop();
  if (mosq_ != nullptr) mosquitto_destroy(mosq_);  // closes the socket if the goodbye was abandoned
  if (wake_fd_ >= 0) ::close(wake_fd_);
}

void ClientCore::start() {
  thread_ = std::thread([this] { run(); });
}

bool ClientCore::on_network_thread() const noexcept {
  return thread_id_.load(std::memory_order_acquire) == std::this_thread::get_id();
}

void ClientCore::stop() noexcept {
  stop_.store(true, std::memory_order_release);
  wake();
  notify_waiters();
  if (on_network_thread()) return;  // a hook or handler asked: the loop ends when it returns
  std::lock_guard<std::mutex> lock(stop_mutex_);
  if (thread_.joinable()) thread_.join();
}

void ClientCore::wake() noexcept {
  if (wake_fd_ < 0) return;
  const std::uint64_t one = 1;
  // Non-blocking; can only fail with EAGAIN when the counter is near 2^64, i.e. already signalled.
  [[maybe_unused]] const ssize_t n = ::write(wake_fd_, &one, sizeof one);
}

std::string ClientCore::last_error() const {
  std::lock_guard<std::mutex> lock(error_mutex_);
  return last_error_;
}

void ClientCore::set_error(const std::string& what) noexcept {
  try {
    std::string text = endpoint_.url + ": " + what;
    std::lock_guard<std::mutex> lock(error_mutex_);
    last_error_ = std::move(text);
  } catch (...) {
    // Out of memory while formatting an error message: keep the previous one.
  }
}

Status ClientCore::wait_until(const std::function<bool()>& ready, std::chrono::milliseconds timeout) noexcept {
  std::unique_lock<std::mutex> lock(wait_mutex_);
  wait_cv_.wait_for(lock, timeout, [&] { return ready() || stop_requested(); });
  if (ready()) return Status::ok;
  return stop_requested() ? Status::stopped : Status::timeout;
}

void ClientCore::notify_waiters() noexcept {
  // Taking the mutex orders the state change before a waiter's next check of its condition.
  { std::lock_guard<std::mutex> lock(wait_mutex_); }
  wait_cv_.notify_all();
}

void ClientCore::schedule_retry(Clock::time_point now) {
  next_attempt_ = now + backoff_;
  backoff_ = std::min(backoff_ * 2, options_.reconnect_max);
}

void ClientCore::attempt_connect(Clock::time_point now) {
  attempt_failed_reported_ = false;
  library_error_.clear();
  errno = 0;
  // connect_async: a non-blocking TCP connect (the DNS lookup before it does block). It also closes a
  // socket left over from an abandoned attempt and resets libmosquitto's queues for the new session
  // (unacknowledged QoS 1 messages are kept and resent).
  const int rc = mosquitto_connect_async(mosq_, endpoint_.host.c_str(), endpoint_.port,
                                         static_cast<int>(options_.keepalive.count()));
  const int saved_errno = errno;
  if (rc == MOSQ_ERR_SUCCESS) {
    link_ = Link::connecting;
    connect_deadline_ = now + options_.connect_timeout;
    return;
  }
  set_error("cannot connect to " + endpoint_.broker() + ": " + describe_rc(rc, saved_errno) + library_detail());
  schedule_retry(now);
}

void ClientCore::link_lost(int rc, int saved_errno) {
  const Link was = link_;
  if (was == Link::idle) return;
  link_ = Link::idle;
  if (was == Link::up) {
    // The error first: whoever sees connected() turn false finds the reason already in last_error().
    if (!stop_requested() || rc != MOSQ_ERR_SUCCESS)
      set_error("connection to " + endpoint_.broker() + " lost: " + describe_rc(rc, saved_errno) + library_detail());
    connected_.store(false, std::memory_order_release);
    on_session_down();
    notify_waiters();
  } else if (!attempt_failed_reported_) {
    set_error("cannot connect to " + endpoint_.broker() + ": " + describe_rc(rc, saved_errno) + library_detail());
  }
  library_error_.clear();
  if (!stop_requested()) schedule_retry(Clock::now());
}

std::string ClientCore::library_detail() const {
  return library_error_.empty() ? std::string() : " (libmosquitto: " + library_error_ + ")";
}

void ClientCore::run() noexcept {
  thread_id_.store(std::this_thread::get_id(), std::memory_order_release);
  pthread_setname_np(pthread_self(), thread_name_);
  backoff_ = options_.reconnect_initial;
  next_attempt_ = Clock::now();

  while (!stop_requested()) {
    try {
      loop_once();
    } catch (...) {  // out of memory while formatting a message: keep going, never spin
      set_error("out of memory");
      ::usleep(10000);
    }
  }
  say_goodbye();
  on_closed();
  connected_.store(false, std::memory_order_release);
  notify_waiters();
}

void ClientCore::loop_once() {
  Clock::time_point now = Clock::now();
  if (link_ == Link::idle && now >= next_attempt_) attempt_connect(now);
  if (link_ == Link::connecting && now >= connect_deadline_) {
    // The broker took the TCP connection but never answered CONNECT (hung, overloaded, or not an
    // MQTT server). Give up on this attempt; the next connect_async closes the half-open socket.
    set_error("no answer (CONNACK) from " + endpoint_.broker() + " within " +
              std::to_string(options_.connect_timeout.count()) + " ms");
    link_ = Link::idle;
    schedule_retry(now);
  }
  if (link_ == Link::up) pump();

  std::array<pollfd, 2> fds{};
  fds[0] = pollfd{wake_fd_, POLLIN, 0};
  nfds_t nfds = 1;
  const int sock = link_ == Link::idle ? -1 : mosquitto_socket(mosq_);
  if (sock >= 0) {
    fds[1] = pollfd{sock, static_cast<short>(POLLIN | (mosquitto_want_write(mosq_) ? POLLOUT : 0)), 0};
    nfds = 2;
  }
  now = Clock::now();
  int timeout_ms = 1000;  // loop_misc (keep-alive) wants a pass about once a second
  if (link_ == Link::idle) timeout_ms = ms_until(now, next_attempt_, 1000);
  if (link_ == Link::connecting) timeout_ms = ms_until(now, connect_deadline_, 1000);
  if (link_ == Link::up && has_work_or_arm_wakeup()) timeout_ms = 0;

  const int ready = ::poll(fds.data(), nfds, timeout_ms);
  if (ready < 0 && errno != EINTR) {
    set_error(std::string("poll failed: ") + std::strerror(errno));
    ::usleep(10000);  // never spin on a persistent failure
    return;
  }
  if (ready > 0 && (fds[0].revents & POLLIN)) {
    std::uint64_t count = 0;
    [[maybe_unused]] const ssize_t n = ::read(wake_fd_, &count, sizeof count);
  }
  if (nfds == 2 && fds[1].revents != 0) {
    if (fds[1].revents & (POLLIN | POLLERR | POLLHUP)) (void)mosquitto_loop_read(mosq_, 1);
    if (link_ != Link::idle && mosquitto_socket(mosq_) >= 0 && (fds[1].revents & POLLOUT))
      (void)mosquitto_loop_write(mosq_, 1);
  }
  if (link_ != Link::idle && mosquitto_socket(mosq_) >= 0) (void)mosquitto_loop_misc(mosq_);
  // libmosquitto reports a dropped socket through cb_disconnect; this catches any path that does not.
  if (link_ != Link::idle && mosquitto_socket(mosq_) < 0) link_lost(MOSQ_ERR_CONN_LOST, 0);
  after_io();
}

void ClientCore::say_goodbye() noexcept {
  if (link_ != Link::up) return;
  // libmosquitto 2.0 writes DISCONNECT at once when the socket takes it and closes the socket either
  // way. Should a libmosquitto leave it queued instead, give it a short, fixed time to go out; then
  // mosquitto_destroy closes the socket.
  if (mosquitto_disconnect(mosq_) != MOSQ_ERR_SUCCESS) return;
  const Clock::time_point deadline = Clock::now() + kGoodbyeBound;
  for (;;) {
    const int sock = mosquitto_socket(mosq_);
    const Clock::time_point now = Clock::now();
    if (sock < 0 || now >= deadline) break;
    pollfd fd{sock, static_cast<short>(POLLIN | (mosquitto_want_write(mosq_) ? POLLOUT : 0)), 0};
    if (::poll(&fd, 1, ms_until(now, deadline, 100)) <= 0) continue;
    if (fd.revents & (POLLIN | POLLERR | POLLHUP)) (void)mosquitto_loop_read(mosq_, 1);
    if (mosquitto_socket(mosq_) >= 0 && (fd.revents & POLLOUT)) (void)mosquitto_loop_write(mosq_, 1);
  }
}

// ---- libmosquitto callbacks (network thread, inside loop_read / loop_write / loop_misc / publish) ----

void ClientCore::cb_connect(mosquitto*, void* self_ptr, int rc, int /*flags*/, const mosquitto_property*) {
  auto* self = static_cast<ClientCore*>(self_ptr);
  try {
    self->session_started(rc);
  } catch (...) {  // nothing may unwind into libmosquitto's C code
    self->set_error("out of memory");
  }
}

void ClientCore::session_started(int rc) {
  if (rc != 0) {
    const char* reason =
        options_.protocol == MqttProtocol::v5 ? mosquitto_reason_string(rc) : mosquitto_connack_string(rc);
    set_error(endpoint_.broker() + " refused the connection: " + reason);
    attempt_failed_reported_ = true;  // libmosquitto drops the socket next; keep this message
    return;
  }
  link_ = Link::up;
  backoff_ = options_.reconnect_initial;
  connections_.fetch_add(1, std::memory_order_relaxed);
  if (had_session_) reconnects_.fetch_add(1, std::memory_order_relaxed);
  had_session_ = true;
  connected_.store(true, std::memory_order_release);
  on_session_up();
  notify_waiters();
}

void ClientCore::cb_disconnect(mosquitto*, void* self_ptr, int rc, const mosquitto_property*) {
  const int saved_errno = errno;
  auto* self = static_cast<ClientCore*>(self_ptr);
  try {
    self->link_lost(rc, saved_errno);
  } catch (...) {
    self->set_error("out of memory");
  }
}

void ClientCore::cb_log(mosquitto*, void* self_ptr, int level, const char* text) {
  // libmosquitto says why a TLS handshake failed only in its log ("OpenSSL Error[0]: ... certificate
  // verify failed"): keep the latest error line for the next connection failure message.
  if ((level & MOSQ_LOG_ERR) == 0 || text == nullptr) return;
  auto* self = static_cast<ClientCore*>(self_ptr);
  try {
    self->library_error_ = text;
  } catch (...) {
  }
}

void ClientCore::cb_publish(mosquitto*, void* self_ptr, int mid, int rc, const mosquitto_property*) {
  auto* self = static_cast<ClientCore*>(self_ptr);
  try {
    self->on_published(mid, rc);
  } catch (...) {
    self->set_error("out of memory");
  }
}

void ClientCore::cb_subscribe(mosquitto*, void* self_ptr, int mid, int count, const int* granted,
                              const mosquitto_property*) {
  auto* self = static_cast<ClientCore*>(self_ptr);
  try {
    self->on_subscribed(mid, count, granted);
  } catch (...) {
    self->set_error("out of memory");
  }
}

void ClientCore::cb_message(mosquitto*, void* self_ptr, const mosquitto_message* msg, const mosquitto_property* props) {
  auto* self = static_cast<ClientCore*>(self_ptr);
  if (msg == nullptr) return;
  try {
    self->on_message(*msg, props);
  } catch (...) {
    self->set_error("out of memory");
  }
}

}  // namespace vg::mqtt::detail
