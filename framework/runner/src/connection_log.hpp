#pragma once
// Connection events on standard error while they happen (a lost camera, a reconnect, a lost broker).
#include <chrono>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "visiongraph/io/source.hpp"
#include "visiongraph/mqtt/publisher.hpp"

namespace vg::runner {

using namespace std::chrono_literals;

/// One stderr line when a live input or an MQTT publisher loses its connection, stalls or reconnects, so
/// an outage shows while it happens rather than only in the summary. At most one line per connection
/// every 5 s; events in between are counted into the next line. Called from one thread (the watchdog's).
class ConnectionLog {
 public:
  ConnectionLog(const io::Source& source, std::vector<mqtt::MqttPublisher*> publishers)
      : source_(source), publishers_(std::move(publishers)), mqtt_(publishers_.size()) {}
  void poll() {
    const io::SourceStats s = source_.stats();
    const std::string& spec = source_.info().spec;
    if (s.errors > input_.errors) {  // lost (an error, an end, a stall): the source reconnects if asked to
      std::string why = source_.error();
      if (why.rfind(spec + ": ", 0) == 0) why.erase(0, spec.size() + 2);
      note(input_, spec + ": lost: " + why + "; reconnecting");
      input_.down = true;
      input_.frames = s.frames;
    } else if (input_.down && s.frames > input_.frames) {  // frames again: always said, once per outage
      input_.last_line = {};
      note(input_, spec + ": receiving again (" + std::to_string(s.reconnects) + " reconnect attempt(s) so far)");
      input_.down = false;
    }
    input_.errors = s.errors;
    for (std::size_t i = 0; i < publishers_.size(); ++i) {
      const mqtt::MqttPublisherStats p = publishers_[i]->stats();
      Watched& w = mqtt_[i];
      const std::string& url = publishers_[i]->endpoint().url;
      if (w.connected && !p.connected) note(w, url + ": connection lost" + (p.last_error.empty() ? "" : " (" + p.last_error + ")") + "; messages wait in the outbox");
      else if (!w.connected && p.connected && p.connections > 1) note(w, url + ": reconnected");
      w.connected = p.connected;
    }
  }

 private:
  struct Watched {
    std::uint64_t errors = 0, frames = 0;
    bool down = false;
    bool connected = true;  // publishers: assume up until seen down (the first connect is not news)
    std::chrono::steady_clock::time_point last_line{};
    std::uint64_t held_back = 0;
  };
  static void note(Watched& w, const std::string& what) {
    const auto now = std::chrono::steady_clock::now();
    if (now - w.last_line < 5s) {
      ++w.held_back;
      return;
    }
    std::cerr << "visiongraph run: " << what;
    if (w.held_back > 0) std::cerr << " (" << w.held_back << " more event(s) since the last line)";
    std::cerr << '\n';
    w.last_line = now;
    w.held_back = 0;
  }
  const io::Source& source_;
  std::vector<mqtt::MqttPublisher*> publishers_;
  Watched input_;
  std::vector<Watched> mqtt_;
};

}  // namespace vg::runner
