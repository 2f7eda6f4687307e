#pragma once
/// @file
/// @brief The control protocol: one request line in, one reply line out, answered against a running
/// graph. Transport-free: the Unix-socket server and the MQTT command channel both use it.
///
/// Request: `NODE COMMAND [ARGUMENT]` (the command by the name the kernel declares, the argument parsed
/// as the payload kind it declares), or `help`. NODE#R addresses replica R alone of a node run over
/// several targets (plain NODE: every replica); such a node's reply starts `replica=R`, the replica whose
/// answer it is. Reply: `ok [TEXT]` or `error TEXT`. Full rules:
/// docs/service.md, "Control socket".

#include <chrono>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "visiongraph/graph/graph.hpp"
#include "visiongraph/runtime/context.hpp"

namespace vg::service {

/// @brief How long answer_control_request waits for a node's target to run a command by default.
inline constexpr std::chrono::milliseconds kDefaultCommandTimeout{2000};

/// @brief Answer one request line against @p graph (built and verified against @p context).
///
/// Leading and trailing white space is ignored; the line must not hold a newline (a transport splits
/// its input into lines first). `help` lists the nodes and their commands (control_help). Otherwise the
/// argument is parsed as the command's declared payload kind: `integer`, `number` (finite), `text` (the
/// rest of the line, under kMaxCommandPayload bytes), `bytes` (hex pairs, e.g. `0a1b`), `none` (no
/// argument); then Graph::send_command runs the kernel's control callback between two frames on the
/// node's target, waiting at most @p command_timeout. The reply is `ok` plus the kernel's reply text
/// (shown as `hex:...` when it is not printable) or `error ...` naming what is wrong: unknown node or
/// command, a missing or malformed argument, or the status the command ended with.
/// @code
/// std::string reply = vg::service::answer_control_request(graph, ctx, "decode set_score_threshold 0.6");
/// // "ok decoder=blazeface score_threshold=0.6 ..."   or   "error ..."
/// @endcode
/// @note Safe from any thread, also concurrently (Graph::send_command is; at most 16 commands may be
///       outstanding per graph, more are answered `error busy: ...`). Blocks for up to @p command_timeout.
///       Never throws for bad input (it is an `error` reply); only std::bad_alloc can escape.
std::string answer_control_request(Graph& graph, const Context& context, std::string_view line,
                                   std::chrono::milliseconds command_timeout = kDefaultCommandTimeout);

/// @brief The reply to `help`: "ok nodes and commands: NODE(KERNEL)[COMMAND:PAYLOAD,...] ..." with the
/// nodes in execution order.
/// @code
/// std::cout << vg::service::control_help(graph, ctx) << '\n';
/// // ok nodes and commands: adder(vg.example.add)[set_bias:number,get_bias:none]
/// @endcode
/// @note Safe from any thread once the graph is verified.
std::string control_help(const Graph& graph, const Context& context);

/// @brief Which engine each node chose at verify, for the nodes whose kernel answers `get_engine` (e.g.
/// vg.rga.letterbox: RGA or the CPU, and why): one "NODE: REPLY" line per such node, in execution order.
/// @code
/// for (const std::string& line : vg::service::engine_report(graph, ctx)) std::cerr << line << '\n';
/// // letterbox: engine=cpu rga_frames=0 cpu_frames=0 imports=0 fills=0 why=no RGA device (...)
/// @endcode
std::vector<std::string> engine_report(Graph& graph, const Context& context);

}  // namespace vg::service
