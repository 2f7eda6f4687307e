#include "visiongraph/service/control_protocol.hpp"

#include <vector>

#include "visiongraph/core/did_you_mean.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <sstream>

namespace vg::service {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  return s;
}

/// The kernel's reply text as it is, or as `hex:...` when it holds bytes that would break a text line.
std::string render_reply(const CommandReply& reply) {
  const std::string_view text = reply.text();
  bool printable = true;
  for (char c : text)
    if (!std::isprint(static_cast<unsigned char>(c)) && c != '\t') printable = false;
  if (printable) return std::string(text);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "hex:";
  for (char c : text) {
    out += kHex[(static_cast<unsigned char>(c) >> 4) & 0xF];
    out += kHex[static_cast<unsigned char>(c) & 0xF];
  }
  return out;
}

}  // namespace

std::string control_help(const Graph& graph, const Context& context) {
  std::ostringstream out;
  out << "ok nodes and commands:";
  for (NodeId id : graph.execution_order()) {
    const std::string kernel = graph.node_kernel(id);
    const KernelInfo* info = context.find_kernel(kernel);
    out << " " << graph.node_name(id) << "(" << kernel;
    if (const std::size_t replicas = graph.num_replicas(id); replicas > 1)
      out << "; " << replicas << " replicas, one alone as " << graph.node_name(id) << "#0.." << replicas - 1;
    out << ")";
    if (!info) continue;
    out << "[";
    bool first = true;
    for (const auto& c : info->decl.commands()) {
      out << (first ? "" : ",") << c.name << ":" << to_string(c.payload);
      first = false;
    }
    out << "]";
  }
  return out.str();
}

std::string answer_control_request(Graph& graph, const Context& context, std::string_view raw,
                                   std::chrono::milliseconds command_timeout) {
  const std::string line(trim(raw));
  if (line.empty()) return "error empty request: expected NODE COMMAND [ARGUMENT] or help";
  if (line == "help") return control_help(graph, context);
  std::istringstream in(line);
  std::string node_name, command_name;
  in >> node_name >> command_name;
  std::string rest;
  std::getline(in, rest);
  const std::string argument(trim(rest));
  // NODE#R: only replica R of a node run over several targets (plain NODE: every replica).
  std::uint32_t replica = kAllReplicas;
  if (const auto hash = node_name.find('#'); hash != std::string::npos) {
    const std::string index = node_name.substr(hash + 1);
    node_name.resize(hash);
    const NodeId named = graph.find_node(node_name);
    if (!named.valid()) return "error unknown node '" + node_name + "' (send 'help' for the nodes)";
    const std::size_t replicas = graph.num_replicas(named);
    const auto [p, ec] = std::from_chars(index.data(), index.data() + index.size(), replica);
    if (index.empty() || ec != std::errc{} || p != index.data() + index.size() || replica >= replicas)
      return "error node '" + node_name + "' has no replica '" + index + "' (it has " + std::to_string(replicas) +
             (replicas == 1 ? ": #0)" : ": #0..#" + std::to_string(replicas - 1) + ")");
  }
  const NodeId node = graph.find_node(node_name);
  if (!node.valid()) {
    std::vector<std::string> nodes;
    for (NodeId id : graph.execution_order()) nodes.push_back(graph.node_name(id));
    const std::string hint = did_you_mean(node_name, nodes);
    return "error unknown node '" + node_name + "'" + (hint.empty() ? std::string() : "; " + hint) +
           " (send 'help' for the nodes)";
  }
  if (command_name.empty()) return "error missing command for node '" + node_name + "' (send 'help' for the commands)";
  const KernelInfo* info = context.find_kernel(graph.node_kernel(node));
  const CommandDecl* decl = info ? info->decl.find_command(std::string_view(command_name)) : nullptr;
  if (!decl) {
    std::string names;
    std::vector<std::string> commands;
    if (info)
      for (const auto& c : info->decl.commands()) {
        names += (names.empty() ? "" : ", ") + c.name;
        commands.push_back(c.name);
      }
    const std::string hint = did_you_mean(command_name, commands);
    return "error node '" + node_name + "' (kernel " + graph.node_kernel(node) + ") has no command '" + command_name +
           "'" + (hint.empty() ? std::string() : "; " + hint) + " (commands: " + (names.empty() ? "none" : names) + ")";
  }
  ControlCommand command = ControlCommand::make(decl->id);
  const char* const begin = argument.data();
  const char* const end = argument.data() + argument.size();
  switch (decl->payload) {
    case PayloadKind::none:
      if (!argument.empty()) return "error command '" + command_name + "' takes no argument";
      break;
    case PayloadKind::integer: {
      std::int64_t v = 0;
      const auto [p, ec] = std::from_chars(begin, end, v);
      if (argument.empty() || ec != std::errc{} || p != end)
        return "error command '" + command_name + "' expects an integer argument, got '" + argument + "'";
      command = ControlCommand::make(decl->id, v);
      break;
    }
    case PayloadKind::number: {
      double v = 0;
      const auto [p, ec] = std::from_chars(begin, end, v);
      if (argument.empty() || ec != std::errc{} || p != end || !std::isfinite(v))
        return "error command '" + command_name + "' expects a number argument, got '" + argument + "'";
      command = ControlCommand::make(decl->id, v);
      break;
    }
    case PayloadKind::text:
      if (argument.size() >= kMaxCommandPayload) return "error argument too long";
      command = ControlCommand::make_text(decl->id, argument);
      break;
    case PayloadKind::bytes: {
      if (argument.size() % 2 != 0 || argument.size() / 2 > kMaxCommandPayload)
        return "error command '" + command_name + "' expects hex bytes, e.g. 0a1b";
      for (std::size_t i = 0; i < argument.size(); i += 2) {
        unsigned v = 0;
        const auto [p, ec] = std::from_chars(begin + i, begin + i + 2, v, 16);
        if (ec != std::errc{} || p != begin + i + 2) return "error bad hex byte '" + argument.substr(i, 2) + "'";
        command.data[i / 2] = static_cast<std::byte>(v);
      }
      command.size = static_cast<std::uint32_t>(argument.size() / 2);
      break;
    }
  }
  CommandReply reply;
  const Status s = graph.send_command(node, command, command_timeout, &reply, replica);
  std::string text = render_reply(reply);
  // A replicated node's reply says which replica it is from (the first that failed, else replica 0).
  if (graph.num_replicas(node) > 1) text = "replica=" + std::to_string(reply.replica) + (text.empty() ? "" : " " + text);
  if (s != Status::ok)
    return "error " + std::string(to_string(s)) + ": " + std::string(describe(s)) + (text.empty() ? "" : ": " + text);
  return text.empty() ? "ok" : "ok " + text;
}

std::vector<std::string> engine_report(Graph& graph, const Context& context) {
  std::vector<std::string> lines;
  for (NodeId id : graph.execution_order()) {
    const KernelInfo* info = context.find_kernel(graph.node_kernel(id));
    if (info == nullptr || info->decl.find_command(std::string_view("get_engine")) == nullptr) continue;
    const std::string name = graph.node_name(id);
    std::string reply = answer_control_request(graph, context, name + " get_engine");
    if (reply.rfind("ok ", 0) == 0) reply.erase(0, 3);
    lines.push_back(name + ": " + reply);
  }
  return lines;
}

}  // namespace vg::service
