// The `visiongraph` command: run, verify, dot, kernels, doctor, ctl.
// Exit status: 0 success, 1 runtime failure (bad graph file, failed frames, unreachable socket), 2 usage error.

#include <opencv2/core.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/videoio/registry.hpp>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "visiongraph/service/control_client.hpp"
#include "visiongraph/runner/builtin_modules.hpp"
#include "visiongraph/runner/run.hpp"
#include "visiongraph/io/gstreamer_elements.hpp"
#include "visiongraph/core/did_you_mean.hpp"
#include "visiongraph/visiongraph.hpp"
#include "visiongraph/yaml/yaml.hpp"
#if VG_CLI_HAVE_NPU
#include "visiongraph/kernels/inference/board_check.hpp"
#if VG_CLI_HAVE_RGA
#include "visiongraph/kernels/rga/board_check.hpp"
#endif
#include "visiongraph/npu/doctor.hpp"
#endif

namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

struct Common {
  bool no_plugins = false;
  std::string assets;
  std::vector<std::string> sets;
  std::string size = "640x480";
};

vg::yaml::BuildOptions build_options(const Common& c) {
  vg::yaml::BuildOptions options = vg::runner::default_build_options();
  options.allow_module_libraries = !c.no_plugins;
  if (!c.assets.empty()) options.variables["VG_ASSETS_DIR"] = c.assets;
  for (const auto& s : c.sets) {
    const auto eq = s.find('=');
    options.variables[s.substr(0, eq)] = eq == std::string::npos ? std::string() : s.substr(eq + 1);
  }
  return options;
}

bool parse_size(const std::string& text, std::uint32_t& w, std::uint32_t& h) {
  unsigned a = 0, b = 0;
  char x = 0;
  std::istringstream in(text);
  if (!(in >> a >> x >> b) || (x != 'x' && x != 'X') || a == 0 || b == 0 || a > 16384 || b > 16384) return false;
  w = a;
  h = b;
  return true;
}

/// "512M", "2G", "1.5GiB", "4096" (bytes) -> bytes; 0 when malformed.
std::int64_t parse_bytes(const std::string& text) {
  std::size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    return 0;
  }
  std::string unit = text.substr(used);
  for (char& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit.size() > 1 && unit.back() == 'B') unit.pop_back();
  if (unit.size() > 1 && unit.back() == 'I') unit.pop_back();
  double scale = 1;
  if (unit == "K") scale = 1024.0;
  else if (unit == "M") scale = 1024.0 * 1024;
  else if (unit == "G") scale = 1024.0 * 1024 * 1024;
  else if (!unit.empty() && unit != "B") return 0;
  const double bytes = value * scale;
  return bytes >= 1 && bytes < 9e18 ? static_cast<std::int64_t>(bytes) : 0;
}

/// Load (and verify) a graph file, filling `auto` sizes with --size.
std::unique_ptr<vg::yaml::LoadedGraph> load(const std::string& path, const Common& c) {
  vg::yaml::GraphDesc desc = vg::yaml::parse_file(path);
  if (c.no_plugins) vg::runner::refuse_code_loading(desc);
  std::uint32_t w = 0, h = 0;
  (void)parse_size(c.size, w, h);
  desc.set_auto_size(w, h);
  return vg::yaml::build(desc, build_options(c));
}

std::string attr_default(const vg::AttrDecl& a) {
  return a.default_value ? vg::to_text(*a.default_value) : std::string("required");
}

int cmd_verify(const std::string& path, const Common& c) {
  auto loaded = load(path, c);
  vg::Graph& g = loaded->graph();
  std::cout << path << ": ok: graph '" << g.name() << "', " << g.num_nodes() << " nodes, " << g.num_data()
            << " data objects, pipeline depth " << g.pipeline_depth() << '\n';
  for (vg::NodeId id : g.execution_order())
    std::cout << "  " << g.node_name(id) << "  " << g.node_kernel(id) << " @" << g.node_target(id) << '\n';
  return kExitOk;
}

int cmd_dot(const std::string& path, const std::string& output, const Common& c) {
  auto loaded = load(path, c);
  if (output.empty() || output == "-") {
    loaded->graph().write_dot(std::cout);
  } else {
    std::ofstream out(output);
    if (!out) {
      std::cerr << "visiongraph dot: cannot write '" << output << "'\n";
      return kExitFailure;
    }
    loaded->graph().write_dot(out);
  }
  return kExitOk;
}

/// `kernels`: the built-in modules' kernels or, with --module, only the kernels of those module libraries.
int cmd_kernels(const std::string& filter, const std::vector<std::string>& libraries, const Common& c) {
  vg::yaml::BuildOptions options = build_options(c);
  vg::Context ctx;
  for (const auto& [name, factory] : options.modules) ctx.load_module(factory());
  std::vector<std::string> plugin_modules;
  if (c.no_plugins && !libraries.empty())
    throw vg::runner::UsageError("kernels: --module loads code; refused by --no-plugins");
  for (const std::string& library : libraries) {
    // A bare name.so would be looked up on the library path; a plugin on disk is meant here.
    const std::string path = library.find('/') == std::string::npos ? "./" + library : library;
    plugin_modules.push_back(ctx.load_module_library(path));
  }
  int shown = 0;
  for (const std::string& name : ctx.kernel_names()) {
    if (!filter.empty() && name.find(filter) == std::string::npos) continue;
    const vg::KernelInfo* info = ctx.find_kernel(name);
    if (!plugin_modules.empty() &&
        std::find(plugin_modules.begin(), plugin_modules.end(), info->module) == plugin_modules.end())
      continue;
    ++shown;
    std::cout << name << "  (module " << info->module << ")\n";
    if (!info->decl.description().empty()) std::cout << "  " << info->decl.description() << '\n';
    std::cout << "  targets:";
    for (const auto& impl : info->impls) std::cout << ' ' << impl.target;
    std::cout << '\n';
    if (!info->decl.params().empty()) std::cout << "  parameters:\n";
    for (const auto& p : info->decl.params()) {
      std::cout << "    " << p.name << "  " << vg::to_string(p.direction) << ' ' << vg::to_string(p.kind)
                << (p.is_static ? " static" : "") << (p.required ? "" : " optional");
      if (!p.description.empty()) std::cout << "  - " << p.description;
      std::cout << '\n';
    }
    if (!info->decl.attributes().empty()) std::cout << "  attributes:\n";
    for (const auto& a : info->decl.attributes()) {
      std::cout << "    " << a.name << "  " << vg::to_string(a.type) << " = " << attr_default(a);
      if (!a.description.empty()) std::cout << "  - " << a.description;
      std::cout << '\n';
    }
    if (!info->decl.commands().empty()) std::cout << "  commands:\n";
    for (const auto& cmd : info->decl.commands()) {
      std::cout << "    " << cmd.name << "  (" << vg::to_string(cmd.payload) << ")";
      if (!cmd.description.empty()) std::cout << "  - " << cmd.description;
      std::cout << '\n';
    }
    std::cout << '\n';
  }
  if (shown == 0) {
    if (filter.empty()) std::cerr << "visiongraph kernels: the module(s) declare no kernel\n";
    else {
      std::cerr << "visiongraph kernels: no kernel matches '" << filter << "'";
      if (const std::string hint = vg::did_you_mean(filter, ctx.kernel_names()); !hint.empty()) std::cerr << "; " << hint;
      std::cerr << '\n';
    }
    return kExitFailure;
  }
  return kExitOk;
}

/// `doctor --board`: the checks that need a Rockchip board, as one report; exit 1 when one fails.
int cmd_board_check(const std::string& model) {
#if VG_CLI_HAVE_NPU
  vg::inference::BoardCheckOptions options;
  options.model_path = model;
#if VG_CLI_HAVE_RGA
  options.rga_letterbox_check = [] {
    const vg::rga::RgaBoardCheck rga = vg::rga::letterbox_board_check();
    vg::inference::BoardCheck c;
    c.result = rga.result == vg::rga::RgaBoardCheck::Result::pass   ? vg::inference::BoardCheck::Result::pass
               : rga.result == vg::rga::RgaBoardCheck::Result::fail ? vg::inference::BoardCheck::Result::fail
                                                                    : vg::inference::BoardCheck::Result::skip;
    c.detail = rga.detail;
    return c;
  };
#endif
  const vg::inference::BoardReport report = vg::inference::run_board_check(options);
  std::cout << "visiongraph " << VG_CLI_VERSION << " board report (visiongraph doctor --board"
            << (model.empty() ? "" : " --model " + model) << ")\n"
            << vg::inference::format(report);
  return report.passed() ? kExitOk : kExitFailure;
#else
  (void)model;
  std::cerr << "visiongraph doctor --board: this build has no NPU support (configure with -DVG_BUILD_NPU=ON)\n";
  return kExitFailure;
#endif
}

int cmd_doctor(const std::string& model, bool board) {
  if (board) return cmd_board_check(model);
  std::cout << "visiongraph " << VG_CLI_VERSION << '\n';
  std::cout << "cpu: " << std::thread::hardware_concurrency() << " hardware threads\n";
  {
    vg::Context ctx;
    std::cout << "targets (default context):";
    for (const auto& t : ctx.target_names()) std::cout << ' ' << t;
    std::cout << '\n';
  }
  std::cout << "built-in modules:";
  for (const auto& [name, f] : vg::runner::default_build_options().modules) std::cout << ' ' << name;
  std::cout << '\n';
  std::cout << "assets directory: " << vg::runner::default_assets_dir()
            << (std::filesystem::is_directory(vg::runner::default_assets_dir()) ? "" : " (missing: run scripts/fetch_assets.sh)")
            << '\n';
  std::cout << "opencv: " << CV_VERSION << ", " << cv::getNumThreads() << " threads";
  std::cout << "; video backends:";
  for (auto api : cv::videoio_registry::getStreamBackends()) std::cout << ' ' << cv::videoio_registry::getBackendName(api);
  std::cout << "; camera backends:";
  for (auto api : cv::videoio_registry::getCameraBackends()) std::cout << ' ' << cv::videoio_registry::getBackendName(api);
  std::cout << '\n';
  std::cout << vg::io::gstreamer_version() << ": elements";
  std::string missing;
  for (const vg::io::GstElementCheck& e : vg::io::check_gstreamer_elements()) {
    if (e.present) {
      std::cout << ' ' << e.element;
    } else if (!e.optional) {
      missing += "\n  missing " + e.element + " (Debian package " + e.package + "): needed for " + e.used_for;
    }
  }
  std::cout << (missing.empty() ? "; none missing" : missing) << '\n';
  const std::string encoder = vg::io::h264_encoder_choice();
  std::cout << "H.264 encoder (annotated video, --serve-rtsp): "
            << (encoder.empty() ? std::string("none (install gstreamer1.0-plugins-ugly for x264enc)")
                : encoder == "x264enc" ? std::string("x264enc (software; no hardware encoder element: mpph264enc, v4l2h264enc)")
                                       : encoder + " (hardware)")
            << '\n';
#if VG_CLI_HAVE_NPU
  vg::npu::DoctorOptions options;
  options.model_path = model;
  std::cout << vg::npu::format(vg::npu::run_doctor(options));
#else
  (void)model;
  std::cout << "npu: this build has no NPU support (configure with -DVG_BUILD_NPU=ON)\n";
#endif
  return kExitOk;
}

int cmd_ctl(const std::string& socket, const std::string& node, const std::string& command,
            const std::vector<std::string>& args) {
  std::string line = node;
  if (!command.empty()) line += ' ' + command;
  for (const auto& a : args) line += ' ' + a;
  std::string reply;
  try {
    reply = vg::service::send_control_request(socket, line);
  } catch (const std::exception& e) {
    std::cerr << "visiongraph ctl: " << e.what() << '\n';
    return kExitFailure;
  }
  if (reply.rfind("ok", 0) == 0) {
    if (node == "help" && command.empty()) std::cout << vg::service::help_table(reply);
    else std::cout << reply << '\n';
    return kExitOk;
  }
  std::cerr << "visiongraph ctl: " << reply << '\n';
  return kExitFailure;
}

void add_common(CLI::App* sub, Common& c, bool with_size) {
  if (with_size)  // verify and dot (run has its own --no-plugins)
    sub->add_flag("--no-plugins", c.no_plugins,
                  "Refuse graph files that load code (module libraries, the 'runtime_path' attribute): nothing "
                  "but the built-in modules runs");
  sub->add_option("--assets", c.assets, "Directory for ${VG_ASSETS_DIR} in the graph file (default: $VG_ASSETS_DIR, "
                                         "else " + vg::runner::default_assets_dir() + ")");
  sub->add_option("--set", c.sets, "Define ${NAME} for the graph file (NAME=VALUE; repeatable)")
      ->check([](const std::string& s) { return s.empty() || s.find('=') == std::string::npos || s.front() == '=' ? "expected NAME=VALUE" : ""; });
  if (with_size)
    sub->add_option("--size", c.size, "Image size for 'width: auto' / 'height: auto' (WxH)")->capture_default_str()
        ->check([](const std::string& s) {
          std::uint32_t w = 0, h = 0;
          return parse_size(s, w, h) ? std::string() : std::string("expected WIDTHxHEIGHT, e.g. 640x480");
        });
}

/// "visiongraph run: unknown option '--inptu'; did you mean '--input'?" for the first option of the
/// subcommand's arguments that it does not have; "" when every option is known (CLI11 reports the rest).
std::string unknown_option_message(CLI::App& app, int argc, char** argv) {
  if (argc < 3) return {};
  CLI::App* sub = nullptr;
  for (CLI::App* candidate : app.get_subcommands({}))
    if (candidate->get_name() == argv[1]) sub = candidate;
  if (sub == nullptr) return {};
  std::vector<std::string> names{"--help"};
  for (const CLI::Option* option : sub->get_options())
    for (const std::string& long_name : option->get_lnames()) names.push_back("--" + long_name);
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") break;  // the rest are positional
    if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) continue;
    const std::string name = arg.substr(0, arg.find('='));
    if (std::find(names.begin(), names.end(), name) != names.end()) continue;
    std::string message = "visiongraph " + sub->get_name() + ": unknown option '" + name + "'";
    if (const std::string hint = vg::did_you_mean(name, names); !hint.empty()) message += "; " + hint;
    return message + " (visiongraph " + sub->get_name() + " --help lists them)";
  }
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"visiongraph: run and inspect vision graphs described in YAML files", "visiongraph"};
  app.set_version_flag("--version", std::string(VG_CLI_VERSION));
  app.require_subcommand(1);
  app.footer("Exit status: 0 success, 1 runtime failure, 2 usage error, 3 some of several streams failed (OUT/streams.json says which). Schema: docs/yaml.md; commands: docs/cli.md.");

  Common common;
  vg::runner::RunOptions run;
  std::vector<std::string> run_sets;
  const auto port_check = [](const std::string& v) -> std::string {
    const auto colon = v.rfind(':');
    const std::string port = colon == std::string::npos ? v : v.substr(colon + 1);
    if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
        std::stoul(port) > 65535)
      return "expected [ADDRESS:]PORT with PORT in 0..65535, got '" + v + "'";
    return {};
  };
  auto* run_cmd = app.add_subcommand("run", "Run a graph over images, a video, a stream (RTSP, HTTP), a camera or a GStreamer pipeline");
  run_cmd->add_option("graph", run.graph, "Graph file (.yaml)")->required()->check(CLI::ExistingFile);
  run_cmd->add_option("-i,--input", run.inputs,
                      "Image, directory of images, video file, rtsp://..., http(s)://..., /dev/videoN, or "
                      "'gst:PIPELINE ! appsink' (docs/sources.md). Repeat it for several streams, each run by its own "
                      "instance of the graph in one process (sharing the NPU): NAME=SOURCE names a stream (outputs in "
                      "OUT/NAME/, MQTT topic TOPIC/NAME); default stream0, stream1, ... Without --input: the graph "
                      "file's 'streams:' list")
      ->take_all();
  run_cmd->add_option("-n,--frames", run.frames, "Stop after N frames")->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  run_cmd->add_option("-o,--output-dir", run.output_dir, "Output directory (default: out/<graph name>/)");
  run_cmd->add_flag("--realtime", run.realtime, "Pace file input at its frame rate; late frames are dropped (latest wins)");
  run_cmd->add_flag("--stage-times", run.stage_times,
                    "Add each frame's stages to its detections.jsonl line (\"stages\": each node's start and duration "
                    "from capture, its status and runtime code, when the results were written) and the newest "
                    "frame's to the stats");
  run_cmd->add_flag("--reconnect", run.reconnect,
                    "Live sources: reconnect with backoff after an error or end of stream instead of ending the run");
  run_cmd->add_flag("--allow-partial", run.allow_partial,
                    "Exit 0 even when the input failed part-way (a truncated file, a lost stream); the error is still printed");
  run_cmd->add_option("--control", run.control,
                      "Take live commands on a Unix socket PATH (see 'visiongraph ctl') or an MQTT topic "
                      "mqtt://HOST:PORT/TOPIC (replies on TOPIC/reply); repeatable");
  run_cmd->add_option("--publish", run.publish,
                      "Publish one JSON message per frame (the detections.jsonl line) to mqtt(s)://HOST:PORT/TOPIC, "
                      "or to standard output with '-'; repeatable");
  run_cmd->add_option("--serve-rtsp", run.serve_rtsp,
                      "Serve the annotated video live at rtsp://ADDRESS:PORT/annotated ([ADDRESS:]PORT; the "
                      "address defaults to 127.0.0.1, 0.0.0.0 serves every interface)")
      ->check(port_check);
  run_cmd->add_option("--h264-encoder", run.h264_encoder,
                      "H.264 encoder element of the annotated video and --serve-rtsp: auto (the SoC's hardware encoder, "
                      "mpph264enc or v4l2h264enc, when present; else x264enc), or an element name")
      ->default_str("auto");
  run_cmd->add_option("--metrics", run.metrics,
                      "Serve the run's figures (per node, fps, drops, latency, reconnects, memory) in the Prometheus "
                      "text format at http://ADDRESS:PORT/metrics ([ADDRESS:]PORT; the address defaults to 127.0.0.1)")
      ->check(port_check);
  run_cmd->add_option("--write", run.write,
                      "Write the output graph parameter NAME to files per frame under the output directory: images "
                      "as PNG, tensors as .npy, scalars as NAME.jsonl, other data as raw .bin; repeatable");
  run_cmd->add_option("--mqtt-qos", run.mqtt.qos, "MQTT QoS for published results: 1 counts every message the broker does not acknowledge; 0 is fire and "
                      "forget (loss on a broken connection is not counted)")
      ->check(CLI::Range(0, 1))->capture_default_str();
  run_cmd->add_option("--mqtt-client-id", run.mqtt.client_id, "MQTT client id (default visiongraph-PID)");
  run_cmd->add_option("--mqtt-username", run.mqtt.username, "MQTT user name");
  run_cmd->add_option("--mqtt-password", run.mqtt.password, "MQTT password (or the VG_MQTT_PASSWORD environment variable)")
      ->envname("VG_MQTT_PASSWORD");
  run_cmd->add_option("--mqtt-ca", run.mqtt.tls.ca_file, "TLS: CA certificate file for mqtts://")->check(CLI::ExistingFile);
  run_cmd->add_option("--mqtt-cert", run.mqtt.tls.cert_file, "TLS: client certificate file")->check(CLI::ExistingFile);
  run_cmd->add_option("--mqtt-key", run.mqtt.tls.key_file, "TLS: client key file")->check(CLI::ExistingFile);
  run_cmd->add_flag("--mqtt-insecure", run.mqtt.tls.insecure, "TLS: do not check the broker's host name (testing only)");
  run_cmd->add_option("--mqtt-outbox", run.mqtt.outbox_capacity,
                      "Messages an MQTT publisher holds while the broker is slow or away; newer ones are dropped "
                      "and counted")
      ->check(CLI::Range(1, 1 << 20))->capture_default_str();
  bool no_progress = false;
  run_cmd->add_flag("--no-progress", no_progress, "No progress line");
  run_cmd->add_flag("--dmabuf", run.dmabuf,
                    "Allocate the npu0 target's buffers from DMA-BUF memory (rknpu, DMA heap or memfd) for zero-copy "
                    "NPU input; the default when an rknpu device is present");
  run_cmd->add_flag("--no-dmabuf", run.no_dmabuf, "Use host memory for npu0 even when an NPU is present");
  run_cmd->add_flag("--no-plugins", run.no_plugins,
                    "Refuse graph files that load code: module libraries ({library: ...}) and the 'runtime_path' "
                    "attribute");
  double drain_seconds = 10;
  run_cmd->add_option("--drain-timeout", drain_seconds,
                      "After SIGINT/SIGTERM, seconds the frames in flight get to finish before they are abandoned")
      ->check(CLI::Range(0.0, 3600.0))
      ->capture_default_str();
  double stop_seconds = 20;
  run_cmd->add_option("--stop-timeout", stop_seconds,
                      "Seconds the whole stop may take beyond --drain-timeout; past it (or on a third signal) the "
                      "process ends at once, naming the node still running, with exit status 1")
      ->check(CLI::Range(0.0, 3600.0))
      ->capture_default_str();
  std::string max_rss;
  run_cmd->add_option("--max-rss", max_rss,
                      "End the run (outputs written, exit status 1) when the process's resident memory passes SIZE "
                      "(e.g. 2G, 512M; a leaking kernel)")
      ->check([](const std::string& v) { return parse_bytes(v) > 0 ? std::string() : "expected a size such as 512M or 2G, got '" + v + "'"; });
  add_common(run_cmd, common, false);

  std::string graph_path, dot_output, kernel_filter, doctor_model;
  auto* verify_cmd = app.add_subcommand("verify", "Load and verify a graph file; report the first problem");
  verify_cmd->add_option("graph", graph_path, "Graph file (.yaml)")->required()->check(CLI::ExistingFile);
  add_common(verify_cmd, common, true);

  auto* dot_cmd = app.add_subcommand("dot", "Write the verified graph as Graphviz DOT");
  dot_cmd->add_option("graph", graph_path, "Graph file (.yaml)")->required()->check(CLI::ExistingFile);
  dot_cmd->add_option("-o,--output", dot_output, "Output file (default: standard output)");
  add_common(dot_cmd, common, true);

  auto* kernels_cmd = app.add_subcommand("kernels", "List the registered kernels: parameters, attributes, commands, targets");
  kernels_cmd->add_option("filter", kernel_filter, "Show only kernels whose name contains this");
  std::vector<std::string> kernel_modules;
  kernels_cmd->add_option("--module", kernel_modules,
                          "Load this module library (a plugin .so) and list only its kernels; repeatable")
      ->check(CLI::ExistingFile);
  kernels_cmd->add_flag("--no-plugins", common.no_plugins, "Refuse --module: list only the built-in kernels");

  auto* doctor_cmd = app.add_subcommand("doctor", "Report targets, NPU, runtime, DMA heaps and the OpenCV build");
  doctor_cmd->add_option("--model", doctor_model, "An .rknn model, to read the runtime's SDK version")->check(CLI::ExistingFile);
  bool doctor_board = false;
  doctor_cmd->add_flag("--board", doctor_board,
                       "Run every check that needs a Rockchip board (NPU driver, SoC cores, DMA heaps, librknnrt, a "
                       "DMA-BUF bound with rknn_create_mem_from_fd, one frame of --model on each NPU core, librga) "
                       "and print a report to paste into an issue; exit status 1 when a check fails");

  std::string socket, node, command;
  std::vector<std::string> args;
  auto* ctl_cmd = app.add_subcommand("ctl", "Send a command to a node of a running 'visiongraph run --control SOCKET'");
  ctl_cmd->add_option("socket", socket, "Control socket path")->required();
  ctl_cmd->add_option("node", node,
                      "Node name (with several streams: STREAM NODE, or STREAM stats), 'help' to list nodes and commands, 'stats' for the run's live statistics (JSON), 'streams' for the stream names")
      ->required();
  ctl_cmd->add_option("command", command, "Command name (as 'visiongraph kernels' lists it)");
  ctl_cmd->add_option("args", args, "Command argument (integer, number, text or hex bytes)");

  // An unknown subcommand gets a suggestion (CLI11 would only say the argument was not expected).
  if (argc >= 2 && argv[1][0] != '-') {
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands({})) names.push_back(sub->get_name());
    if (std::find(names.begin(), names.end(), argv[1]) == names.end()) {
      std::string message = "visiongraph: unknown command '" + std::string(argv[1]) + "'";
      if (const std::string hint = vg::did_you_mean(argv[1], names); !hint.empty()) message += "; " + hint;
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
      std::cerr << message << " (commands: " << list << "; visiongraph --help)\n";
      return kExitUsage;
    }
  }
  if (const std::string unknown = unknown_option_message(app, argc, argv); !unknown.empty()) {
    std::cerr << unknown << '\n';
    return kExitUsage;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }

  try {
    if (*run_cmd) {
      run.assets = common.assets;
      for (const auto& s : common.sets) {
        const auto eq = s.find('=');
        run.variables[s.substr(0, eq)] = s.substr(eq + 1);
      }
      run.drain_timeout = std::chrono::milliseconds(static_cast<std::int64_t>(drain_seconds * 1000));
      run.stop_timeout = std::chrono::milliseconds(static_cast<std::int64_t>(stop_seconds * 1000));
      if (!max_rss.empty()) run.max_rss_bytes = parse_bytes(max_rss);
      run.progress = !no_progress;
      return vg::runner::run_graph(run);
    }
    if (*verify_cmd) return cmd_verify(graph_path, common);
    if (*dot_cmd) return cmd_dot(graph_path, dot_output, common);
    if (*kernels_cmd) return cmd_kernels(kernel_filter, kernel_modules, common);
    if (*doctor_cmd) return cmd_doctor(doctor_model, doctor_board);
    if (*ctl_cmd) {
      if (node != "help" && node != "stats" && node != "streams" && command.empty()) {
        std::cerr << "visiongraph ctl: missing COMMAND (usage: visiongraph ctl SOCKET NODE COMMAND [ARGS]; "
                     "'visiongraph ctl SOCKET help' lists them)\n";
        return kExitUsage;
      }
      return cmd_ctl(socket, node, command, args);
    }
  } catch (const vg::runner::UsageError& e) {
    std::cerr << "visiongraph: " << e.what() << '\n';
    return kExitUsage;
  } catch (const vg::Error& e) {
    std::cerr << e.what() << '\n';
    return kExitFailure;
  } catch (const std::exception& e) {
    std::cerr << "visiongraph: " << e.what() << '\n';
    return kExitFailure;
  }
  return kExitUsage;
}
