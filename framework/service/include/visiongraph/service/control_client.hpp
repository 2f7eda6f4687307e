#pragma once
/// @file
/// @brief The client side of the control socket: send one request line, get one reply line.

#include <chrono>
#include <string>
#include <string_view>

namespace vg::service {

/// @brief Send @p line (without its newline) to the control socket at @p path and return the reply
/// line (without its newline), e.g. "ok bias=2" or "error unknown node 'x' ...": an `error` reply is a
/// normal return, not an exception.
///
/// Throws vg::Error naming the path when the socket cannot be reached ("cannot connect to control
/// socket '...'"), when @p line holds a newline, or when no complete reply arrives within @p timeout
/// (which bounds the whole exchange: connecting, sending and reading). A reply cut short by the
/// server closing the connection is returned as it came.
/// @code
/// std::string reply = vg::service::send_control_request("/tmp/vg.sock", "decode get_settings");
/// bool ok = reply.rfind("ok", 0) == 0;
/// @endcode
/// @note Safe from any thread; each call uses its own connection.
std::string send_control_request(const std::string& path, std::string_view line,
                                 std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));

/// @brief The reply to `help` (control_help) as a table for people: one row per node with its kernel
/// (and replicas) and its commands with their payload kinds. Any other reply is returned unchanged.
/// @code
/// std::cout << vg::service::help_table(vg::service::send_control_request(path, "help"));
/// // NODE     KERNEL                     COMMANDS
/// // decode   vg.detection.postprocess   set_score_threshold (number), get_settings, ...
/// @endcode
std::string help_table(std::string_view help_reply);

}  // namespace vg::service
