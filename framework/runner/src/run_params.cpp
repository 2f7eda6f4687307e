#include "run_params.hpp"

#include <algorithm>
#include <iostream>
#include <memory>

#include "visiongraph/core/did_you_mean.hpp"
#include "visiongraph/kernels/detection/detections.hpp"
#include "visiongraph/runner/builtin_modules.hpp"
#if VG_RUNNER_HAVE_NPU
#include "visiongraph/npu/drm_device.hpp"
#endif
#if VG_RUNNER_HAVE_INFERENCE && VG_RUNNER_HAVE_NPU
#include "visiongraph/kernels/inference/npu_allocator.hpp"
#endif

namespace vg::runner {

namespace {

/// The graph parameters the run itself feeds or writes: the input, detections.jsonl, the annotated video.
bool handled_by_run(const std::string& name) { return name == "input" || name == "detections" || name == "annotated"; }

/// True when @p gp exposes an output of its node (the run must take its buffers back every frame).
bool is_output_parameter(yaml::LoadedGraph& loaded, const yaml::GraphParameterDesc& gp) {
  if (const KernelInfo* k = loaded.context().find_kernel(loaded.graph().node_kernel(loaded.node(gp.node))))
    for (const auto& param : k->decl.params())
      if (param.name == gp.param) return param.direction != Direction::input;
  return false;
}

/// --write NAME: an output graph parameter other than the ones the run already writes.
GraphParamId written_parameter(yaml::LoadedGraph& loaded, const yaml::GraphDesc& desc, const std::string& name) {
  if (handled_by_run(name))
    throw UsageError("--write " + name + ": '" + name + "' is already handled by the run (" +
                             (name == "input" ? "it is the input" : name == "detections" ? "detections.jsonl" : "the annotated video") + ")");
  const GraphParamId id = loaded.graph_parameter(name);
  if (!id.valid()) {
    std::string names;
    for (const auto& gp : desc.graph_parameters) names += (names.empty() ? "" : ", ") + gp.name;
    std::vector<std::string> known;
    for (const auto& gp : desc.graph_parameters) known.push_back(gp.name);
    std::string hint = did_you_mean(name, known);
    throw UsageError("--write " + name + ": the graph has no graph parameter '" + name + "'" +
                     (hint.empty() ? std::string() : " (" + hint + ")") + "; it has: " + names +
                     " (expose a node's output under graph_parameters: to write it)");
  }
  // Only outputs: an input's buffers are the application's to fill.
  const yaml::GraphParameterDesc& gp = *desc.find_graph_parameter(name);
  if (!is_output_parameter(loaded, gp))
    throw UsageError("--write " + name + ": '" + name + "' is an input of node '" + gp.node +
                     "'; only outputs can be written");
  return id;
}

}  // namespace

bool is_mqtt_url(const std::string& spec) { return spec.rfind("mqtt://", 0) == 0 || spec.rfind("mqtts://", 0) == 0; }

/// A graph name as one path component: letters, digits, '-', '_', and a '.' right after a letter or digit;
/// anything else ('/', a leading dot, "..") becomes '_', so the default output directory stays under out/.
std::string path_safe(const std::string& name) {
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); };
  std::string out;
  for (char c : name) {
    const bool ok = alnum(c) || c == '-' || c == '_' || (c == '.' && !out.empty() && alnum(out.back()));
    out += ok ? c : '_';
  }
  return out.empty() ? std::string("graph") : out;
}

/// The data object a graph parameter's node binds at its parameter, or null.
const yaml::DataDesc* data_of(const yaml::GraphDesc& desc, const yaml::GraphParameterDesc& gp) {
  const yaml::NodeDesc* node = desc.find_node(gp.node);
  if (!node) return nullptr;
  for (const auto& b : node->bindings)
    if (b.param == gp.param) return desc.find_data(b.data);
  return nullptr;
}

/// The graph's 'input' parameter, with a message naming what the run needs when it is missing.
yaml::GraphParameterDesc& input_parameter(yaml::GraphDesc& desc) {
  yaml::GraphParameterDesc* input = desc.find_graph_parameter("input");
  if (!input)
    throw yaml::LoadError(desc.position, "graph_parameters",
                          "'visiongraph run' needs a graph parameter named 'input' (the image it feeds), and reads "
                          "'detections' and 'annotated' when present");
  return *input;
}

/// Source options from the graph: ask the source for the pixel format the input takes, so a source
/// that already produces it (a camera's NV12) is imported without a conversion.
io::SourceOptions source_options(const RunOptions& opt, const yaml::DataDesc* input) {
  io::SourceOptions o;
  if (input && input->meta.kind == DataKind::image) o.format = input->meta.image.format;
  else o.format = ImageFormat::rgb24;  // an image-shaped tensor input: models take RGB
  o.reconnect = opt.reconnect;
  return o;
}

/// Latest-wins for live or paced input; buffers enough that the producer always has one to fill.
void adapt_to_source(yaml::GraphDesc& desc, yaml::GraphParameterDesc& input, const io::SourceInfo& info, bool latest_wins) {
  desc.set_auto_size(info.width, info.height);
  input.policy = latest_wins ? InputPolicy::latest_wins : InputPolicy::block;
  std::size_t depth = desc.pipeline_depth;
  if (depth == 0) {
    // As verify counts it: one frame per target used, plus one per extra replica of a replicated node.
    std::vector<std::string> targets;
    std::size_t extra_replicas = 0;
    for (const auto& n : desc.nodes) {
      if (std::find(targets.begin(), targets.end(), n.target) == targets.end()) targets.push_back(n.target);
      if (!n.replica_targets.empty()) extra_replicas += n.replica_targets.size() - 1;
    }
    depth = std::max<std::size_t>(targets.size() + extra_replicas, 3);
  }
  // One buffer per frame in flight, one per queue slot, one being filled.
  input.buffers = std::max(input.buffers, depth + input.queue_capacity + 1);
}

yaml::BuildOptions build_options(const RunOptions& opt) {
  yaml::BuildOptions build = default_build_options();
  build.allow_module_libraries = !opt.no_plugins;
  if (!opt.assets.empty()) build.variables["VG_ASSETS_DIR"] = opt.assets;
  for (const auto& [k, v] : opt.variables) build.variables[k] = v;
  bool use_dmabuf = opt.dmabuf;
#if VG_RUNNER_HAVE_NPU
  // On a board the NPU reads frames in place: default to DMA-BUF memory when the device is there.
  if (!opt.dmabuf && !opt.no_dmabuf) use_dmabuf = npu::NpuDevice::open().has_value();
#endif
  if (use_dmabuf) {
#if VG_RUNNER_HAVE_INFERENCE && VG_RUNNER_HAVE_NPU
    build.prepare_context = [](Context& ctx) -> std::shared_ptr<void> {
      // Every NPU target (npu0, npu1, ... and the replicas on them) reads frames from DMA-BUF memory.
      std::shared_ptr<inference::NpuAllocatorInstallation> memory = inference::install_npu_allocator(ctx);
      std::string targets;
      for (const std::string& t : memory->targets()) targets += (targets.empty() ? "" : ", ") + t;
      std::cerr << "NPU memory (" << targets << "): " << memory->kind()
                << (memory->reason().empty() ? std::string() : " (" + memory->reason() + ")") << '\n';
      return memory;
    };
#else
    throw std::runtime_error("--dmabuf needs a build with the NPU layer (-DVG_BUILD_NPU=ON)");
#endif
  }
  return build;
}

RunParams check_params(yaml::LoadedGraph& loaded, const yaml::GraphDesc& desc, const std::vector<std::string>& write) {
  const Graph& graph = loaded.graph();
  RunParams p{loaded.graph_parameter("input"), loaded.graph_parameter("detections"), loaded.graph_parameter("annotated"), {}};
  for (const std::string& name : write) p.written.emplace_back(name, written_parameter(loaded, desc, name));
  // An output nobody reads would keep every one of its buffers after the first frames, and the graph would
  // wait for one for ever (0 frames, no message): refuse it before anything runs, naming it.
  for (const yaml::GraphParameterDesc& gp : desc.graph_parameters) {
    if (handled_by_run(gp.name)) continue;
    if (std::find(write.begin(), write.end(), gp.name) != write.end() || !is_output_parameter(loaded, gp)) continue;
    throw yaml::LoadError(gp.position, gp.name,
                          "graph parameter '" + gp.name + "' (node '" + gp.node + "', '" + gp.param +
                              "') is an output that 'visiongraph run' does not read, so the graph would stall once its "
                              "buffers are all taken; add --write " + gp.name +
                              " to write it per frame, or remove it from graph_parameters");
  }
  const DataMeta& in = graph.meta(graph.data_of(p.input));
  if (in.kind != DataKind::image && in.kind != DataKind::tensor)
    throw yaml::LoadError(desc.find_graph_parameter("input")->position, "input",
                          "the 'input' graph parameter must be an image (or an image-shaped u8 tensor)");
  if (p.detections.valid()) {
    const DataMeta& m = graph.meta(graph.data_of(p.detections));
    if (m.kind != DataKind::user_data || m.user_data.size != sizeof(detection::DetectionPacket))
      throw yaml::LoadError(desc.find_graph_parameter("detections")->position, "detections",
                            "the 'detections' graph parameter must be a DetectionPacket (user_data, " +
                                std::to_string(sizeof(detection::DetectionPacket)) + " bytes), got " + m.describe());
  }
  if (p.annotated.valid() && graph.meta(graph.data_of(p.annotated)).kind != DataKind::image)
    throw yaml::LoadError(desc.find_graph_parameter("annotated")->position, "annotated",
                          "the 'annotated' graph parameter must be an image");
  return p;
}

}  // namespace vg::runner
