#pragma once
/// @file
/// @brief A minimal HTTP/1.1 server for Prometheus to scrape: `GET /metrics` answers the provider's text
/// (prometheus_text); anything else gets 404 (405 for methods other than GET and HEAD). Off unless an
/// application starts it; binds 127.0.0.1 unless told otherwise.

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace vg::service {

/// @brief Limits of a MetricsServer.
struct MetricsServerOptions {
  /// A client must send its whole request head within this long, and take the reply within it.
  std::chrono::milliseconds client_timeout{2000};
  /// Longest request head (request line and headers) in bytes; a longer one gets 431 and is closed.
  std::size_t max_request_size = 8192;
};

/// @brief Serves the provider's text at http://ADDRESS:PORT/metrics from one thread.
///
/// Clients are served one at a time, each bounded by client_timeout, so a slow or silent client delays
/// a scrape by at most that long and cannot hold the server. Every response closes its connection
/// (`Connection: close`). The provider runs on the server's thread once per `GET /metrics`.
/// @code
/// vg::service::MetricsServer metrics([&] { return vg::service::prometheus_text(graph.stats(), counters()); });
/// metrics.start("127.0.0.1", 9464);   // throws vg::Error: address in use, bad address
/// // curl http://127.0.0.1:9464/metrics
/// @endcode
/// @note start() and stop() from the owner's thread; port() and url() from any thread after start().
class MetricsServer {
 public:
  using Provider = std::function<std::string()>;
  explicit MetricsServer(Provider provider, const MetricsServerOptions& options = {});
  ~MetricsServer();  ///< stop()
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  /// @brief Listen on @p address (an IPv4 address such as 127.0.0.1 or 0.0.0.0) and @p port (0: any free
  /// port). Throws vg::Error naming ADDRESS:PORT when it cannot (in use, no such address).
  void start(const std::string& address, std::uint16_t port);
  /// @brief Stop listening and join the thread (waits for the client being served, at most client_timeout).
  void stop() noexcept;
  std::uint16_t port() const noexcept;  ///< the port bound (after start)
  std::string url() const;              ///< http://ADDRESS:PORT/metrics
  std::uint64_t scrapes() const noexcept;  ///< GET /metrics answered so far

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace vg::service
