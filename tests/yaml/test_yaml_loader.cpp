// The YAML graph loader: one negative test per error class (file:line:col and key in the message),
// the round trip YAML -> graph -> DOT against a golden file, and the description the application adjusts.

#include <gtest/gtest.h>

#include <dirent.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "visiongraph/kernels/examples/module.hpp"
#include "visiongraph/visiongraph.hpp"
#include "visiongraph/yaml/yaml.hpp"
#if VG_TEST_HAVE_DETECTION
#include "visiongraph/kernels/detection/module.hpp"
#endif
#if VG_TEST_HAVE_INFERENCE
#include "visiongraph/kernels/inference/module.hpp"
#endif

namespace {

using namespace std::chrono_literals;

vg::yaml::BuildOptions options() {
  vg::yaml::BuildOptions o;
  o.modules["vg.example"] = [] { return vg::examples::make_module(); };
#if VG_TEST_HAVE_DETECTION
  o.modules["vg.detection"] = [] { return vg::detection::make_detection_module(); };
#endif
#if VG_TEST_HAVE_INFERENCE
  o.modules["vg.inference"] = [] { return vg::inference::make_inference_module(); };
#endif
  o.use_environment = false;
  return o;
}

/// The LoadError message of loading @p text as "test.yaml", or "no error".
std::string load_error(const std::string& text, vg::yaml::BuildOptions o = options()) {
  try {
    auto loaded = vg::yaml::build(vg::yaml::parse_string(text, "test.yaml"), o);
  } catch (const vg::yaml::LoadError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("not a LoadError: ") + e.what();
  }
  return "no error";
}

#define EXPECT_HAS(haystack, needle) EXPECT_NE((haystack).find(needle), std::string::npos) << (haystack)

const char* kGood = R"(graph: g
modules: [vg.example]
data:
  a: {kind: scalar, type: f64}
  b: {kind: scalar, type: f64}
  s: {kind: scalar, virtual: true}
nodes:
  add:
    kernel: vg.example.add
    parameters: {a: a, b: b, sum: s}
)";

std::size_t thread_count() {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& t : std::filesystem::directory_iterator("/proc/self/task")) ++n;
  return n;
}

TEST(YamlLoaderTest, AValidFileBuildsAndRuns) {
  auto loaded = vg::yaml::build(vg::yaml::parse_string(kGood, "test.yaml"), options());
  vg::Graph& g = loaded->graph();
  g.scalar(loaded->data("a")).set(2.0);
  g.scalar(loaded->data("b")).set(5.0);
  ASSERT_EQ(g.process(), vg::Status::ok);
  EXPECT_DOUBLE_EQ(g.scalar(loaded->data("s")).get<double>(), 7.0);
}

TEST(YamlLoaderTest, SpinUsMapsOntoTheContextConfig) {
  EXPECT_EQ(vg::yaml::parse_string(kGood, "test.yaml").context_config().spin_us, vg::ContextConfig{}.spin_us);
  const auto desc = vg::yaml::parse_string(std::string(kGood) + "spin_us: 0\n", "test.yaml");
  EXPECT_EQ(desc.context_config().spin_us, 0u);
  EXPECT_EQ(desc.context_config().targets.size(), vg::ContextConfig::defaults().targets.size());
  auto loaded = vg::yaml::build(desc, options());
  EXPECT_EQ(loaded->context().spin_us(), 0u);
  EXPECT_HAS(load_error(std::string(kGood) + "spin_us: -3\n"), "test.yaml:11:10: key 'spin_us': out of range");
}

TEST(YamlLoaderTest, UnknownTopLevelKeyNamesLineColumnAndKey) {
  const auto msg = load_error(std::string(kGood) + "nodez: {}\n");
  EXPECT_HAS(msg, "test.yaml:11:1: key 'nodez': unknown key");
  EXPECT_HAS(msg, "expected one of: graph,");
}

TEST(YamlLoaderTest, UnknownKeyInANodeNamesIt) {
  const auto msg = load_error(std::string(kGood) + "    atributes: {bias: 1}\n");
  EXPECT_HAS(msg, "test.yaml:11:5: key 'atributes': unknown key in 'add'");
  EXPECT_HAS(msg, "kernel, target, parameters, attributes");
}

TEST(YamlLoaderTest, UnknownKernelPointsAtTheKernelValue) {
  std::string text = kGood;
  text.replace(text.find("vg.example.add"), 14, "vg.example.sub");
  const auto msg = load_error(text);
  EXPECT_HAS(msg, "test.yaml:9:13: key 'kernel': unknown kernel 'vg.example.sub' in node 'add'");
  EXPECT_HAS(msg, "registered: ");
}

TEST(YamlLoaderTest, WrongTypeOfASchemaValueIsReported) {
  const auto msg = load_error(std::string(kGood) + "pipeline_depth: many\n");
  EXPECT_HAS(msg, "test.yaml:11:17: key 'pipeline_depth': wrong type: expected an integer, got 'many'");
}

TEST(YamlLoaderTest, WrongTypeOfAnAttributeNamesTheDeclaredType) {
  const auto msg = load_error(std::string(kGood) + "    attributes: {bias: \"big\"}\n");
  EXPECT_HAS(msg, "test.yaml:11:24: key 'bias': wrong type: attribute 'bias' of kernel 'vg.example.add' expects number");
}

TEST(YamlLoaderTest, UnknownAttributeListsTheKernelsAttributes) {
  const auto msg = load_error(std::string(kGood) + "    attributes: {biass: 1}\n");
  EXPECT_HAS(msg, "test.yaml:11:25: key 'biass': unknown attribute 'biass' of kernel 'vg.example.add'");
  EXPECT_HAS(msg, "(attributes: bias)");
}

TEST(YamlLoaderTest, MissingParameterNamesTheNodeLine) {
  std::string text = kGood;
  text.replace(text.find("b: b, "), 6, "");
  const auto msg = load_error(text);
  EXPECT_HAS(msg, "test.yaml:8:3: key 'parameters': missing parameter 'b' in node 'add'");
}

TEST(YamlLoaderTest, UnknownParameterNameIsReported) {
  std::string text = kGood;
  text.replace(text.find("b: b"), 4, "c: b");
  const auto msg = load_error(text);
  EXPECT_HAS(msg, "test.yaml:10:27: key 'c': unknown parameter 'c' of kernel 'vg.example.add'");
  EXPECT_HAS(msg, "(parameters: a, b, sum)");
}

TEST(YamlLoaderTest, BadReferenceToADataObjectIsReported) {
  std::string text = kGood;
  text.replace(text.find("sum: s"), 6, "sum: t");
  const auto msg = load_error(text);
  EXPECT_HAS(msg, "test.yaml:10:35: key 'sum': bad reference: unknown data object 't' (data objects: a, b, s)");
}

TEST(YamlLoaderTest, BadReferenceToANodeIsReported) {
  const auto msg = load_error(std::string(kGood) + "graph_parameters:\n  x: {node: ad, parameter: a}\n");
  EXPECT_HAS(msg, "test.yaml:12:13: key 'node': bad reference: unknown node 'ad' (nodes: add)");
}

TEST(YamlLoaderTest, AMisspelledParameterThatIsAlsoAGraphParameterIsReportedAtTheMisspelling) {
  // The node binds 'aa' instead of 'a', and a graph parameter exposes 'a': the error is the misspelling
  // under the node's 'parameters:', not a missing binding at 'graph_parameters:'.
  std::string text = kGood;
  text.replace(text.find("{a: a,"), 6, "{aa: a,");
  text += "graph_parameters:\n  x: {node: add, parameter: a}\n";
  const auto msg = load_error(text);
  EXPECT_HAS(msg, "test.yaml:10:22: key 'aa': unknown parameter 'aa' of kernel 'vg.example.add' in node 'add'");
  EXPECT_HAS(msg, "did you mean 'a'?");
  EXPECT_EQ(msg.find("exemplar"), std::string::npos) << msg;
}

TEST(YamlLoaderTest, AGraphParameterOnAnUnboundParameterIsStillReportedAtGraphParameters) {
  std::string text = kGood;
  text.replace(text.find("nodes:"), 6, "  c: {kind: scalar, type: f64}\nnodes:");
  text += "  nop: {kernel: vg.example.nop, parameters: {out: c}}\n";
  text += "graph_parameters:\n  x: {node: nop, parameter: in}\n";
  const auto msg = load_error(text);
  EXPECT_HAS(msg, "test.yaml:14:29: key 'parameter': bad reference: node 'nop' binds no parameter 'in'");
}

#if VG_TEST_HAVE_DETECTION && VG_TEST_HAVE_INFERENCE
TEST(YamlLoaderTest, AMisspelledInputInTheFaceGraphIsReportedAtTheNode) {
  std::ifstream in(VG_TEST_APPS_DIR "/face_detect/face_detect.yaml");
  std::stringstream file;
  file << in.rdbuf();
  std::string text = file.str();
  const auto at = text.find("parameters: {input: frame");
  ASSERT_NE(at, std::string::npos) << "face_detect.yaml changed: update this test";
  const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  text.replace(at, 25, "parameters: {inptu: frame");
  auto desc = vg::yaml::parse_string(text, "face_detect.yaml");
  desc.set_auto_size(640, 480);
  std::string msg = "no error";
  try {
    (void)vg::yaml::build(desc, options());
  } catch (const vg::yaml::LoadError& e) {
    msg = e.what();
  }
  EXPECT_HAS(msg, "face_detect.yaml:" + std::to_string(line) + ":25: key 'inptu': unknown parameter 'inptu' of kernel "
                  "'vg.detection.letterbox' in node 'letterbox'");
  EXPECT_HAS(msg, "did you mean 'input'?");
}
#endif

TEST(YamlLoaderTest, UnknownNamesComeWithASuggestion) {
  std::string kernel = kGood;
  kernel.replace(kernel.find("vg.example.add"), 14, "vg.example.ad");
  EXPECT_HAS(load_error(kernel), "unknown kernel 'vg.example.ad'");
  EXPECT_HAS(load_error(kernel), "did you mean 'vg.example.add'?");

  std::string param = kGood;
  param.replace(param.find("sum: s"), 6, "sun: s");
  EXPECT_HAS(load_error(param), "test.yaml:10:35: key 'sun': unknown parameter 'sun'");
  EXPECT_HAS(load_error(param), "did you mean 'sum'?");

  const auto attr = load_error(std::string(kGood) + "    attributes: {Bias: 1}\n");
  EXPECT_HAS(attr, "test.yaml:11:24: key 'Bias': unknown attribute 'Bias'");
  EXPECT_HAS(attr, "did you mean 'bias'?");

  const auto key = load_error(std::string(kGood) + "    atributes: {bias: 1}\n");
  EXPECT_HAS(key, "did you mean 'attributes'?");

  std::string data = kGood;
  data.replace(data.find("sum: s"), 6, "sum: ss");
  EXPECT_HAS(load_error(data), "did you mean 's'?");

  const auto node = load_error(std::string(kGood) + "graph_parameters:\n  x: {node: ad, parameter: a}\n");
  EXPECT_HAS(node, "did you mean 'add'?");

  const auto exposed = load_error(std::string(kGood) + "graph_parameters:\n  x: {node: add, parameter: sun}\n");
  EXPECT_HAS(exposed, "test.yaml:12:29: key 'parameter': node 'add' has no parameter 'sun' (parameters: a, b, sum)");
  EXPECT_HAS(exposed, "did you mean 'sum'?");

  const auto module = load_error("modules: [vg.exampel]\nnodes: {n: {kernel: vg.example.nop}}\n");
  EXPECT_HAS(module, "did you mean 'vg.example'?");

  // Nothing close: no suggestion.
  std::string far = kGood;
  far.replace(far.find("vg.example.add"), 14, "acme.blur");
  EXPECT_EQ(load_error(far).find("did you mean"), std::string::npos) << load_error(far);
}

TEST(YamlLoaderTest, FileNotFoundNamesTheFile) {
  try {
    (void)vg::yaml::parse_file("/nonexistent/graph.yaml");
    FAIL();
  } catch (const vg::yaml::LoadError& e) {
    EXPECT_HAS(std::string(e.what()), "/nonexistent/graph.yaml: file not found");
  }
}

TEST(YamlLoaderTest, MalformedYamlNamesLineAndColumn) {
  const auto msg = load_error("graph: g\nnodes:\n  a: [1, 2\n");
  EXPECT_HAS(msg, "test.yaml:4:1: malformed YAML: ");
}

TEST(YamlLoaderTest, MissingKindOfADataObjectIsReported) {
  const auto msg = load_error("data:\n  a: {type: f64}\nnodes: {n: {kernel: vg.example.nop}}\n");
  EXPECT_HAS(msg, "test.yaml:2:3: key 'a': missing key 'kind'");
}

TEST(YamlLoaderTest, DuplicateKeysAreRejected) {
  const auto msg = load_error(std::string(kGood) + "graph: h\n");
  EXPECT_HAS(msg, "test.yaml:11:1: key 'graph': duplicate key");
}

TEST(YamlLoaderTest, VerifyErrorsAreReReportedAtTheNodesLine) {
  std::string text = kGood;
  text.replace(text.find("a: {kind: scalar, type: f64}"), 28, "a: {kind: scalar, type: i32}");
  const auto msg = load_error(text);
  EXPECT_HAS(msg, "test.yaml:10:21: key 'a': verify failed: node 'add' (kernel 'vg.example.add')");
  EXPECT_HAS(msg, "expects an f64 scalar");
}

TEST(YamlLoaderTest, AnUnknownTargetIsReportedAtTheTargetKey) {
  const auto msg = load_error(std::string(kGood) + "    target: dsp7\n");
  EXPECT_HAS(msg, "test.yaml:11:13: key 'target': verify failed: node 'add' (kernel 'vg.example.add'): unknown target 'dsp7'");
}

const char* kReplicated = R"(graph: replicated
modules: [vg.example]
targets: {cpu0: {kind: cpu}, cpu1: {kind: cpu}, cpu2: {kind: cpu}}
data:
  x: {kind: scalar, type: f64}
  y: {kind: scalar, virtual: true}
nodes:
  scale:
    kernel: vg.example.scale
    target: [cpu0, cpu1, cpu2]
    parameters: {in: x, out: y}
    attributes: {factor: 3.0}
graph_parameters:
  input: {node: scale, parameter: in}
  output: {node: scale, parameter: out, buffers: auto}
)";

TEST(YamlLoaderTest, ATargetListReplicatesTheNodeAndBuffersFollowTheDepth) {
  auto loaded = vg::yaml::build(vg::yaml::parse_string(kReplicated, "test.yaml"), options());
  vg::Graph& g = loaded->graph();
  const vg::NodeId scale = loaded->node("scale");
  EXPECT_EQ(g.num_replicas(scale), 3u);
  EXPECT_EQ(g.node_targets(scale), (std::vector<std::string>{"cpu0", "cpu1", "cpu2"}));
  EXPECT_EQ(g.pipeline_depth(), 3u);                    // one target used, plus two extra replicas
  EXPECT_EQ(g.num_buffers(loaded->data("y")), 4u);      // output: depth + 1
  EXPECT_EQ(g.num_buffers(loaded->data("x")), 5u);      // input: depth + queue capacity + 1
  const vg::GraphParamId in = loaded->graph_parameter("input"), out = loaded->graph_parameter("output");
  ASSERT_EQ(g.start(), vg::Status::ok);
  for (std::uint32_t k = 0; k < 4; ++k) ASSERT_EQ(g.enqueue(out, k), vg::Status::ok);
  for (std::uint32_t k = 0; k < 5; ++k) {
    g.scalar(loaded->data("x"), k).set(double(k));
    ASSERT_EQ(g.enqueue(in, k), vg::Status::ok);
  }
  for (std::uint64_t f = 0; f < 5; ++f) {
    vg::DequeuedBuffer done;
    ASSERT_EQ(g.dequeue(out, done, 5s), vg::Status::ok);
    EXPECT_EQ(done.sequence, f);
    EXPECT_DOUBLE_EQ(g.scalar(loaded->data("y"), done.index).get<double>(), 3.0 * double(f));
    ASSERT_EQ(g.enqueue(out, done.index), vg::Status::ok);
  }
  EXPECT_EQ(g.stop(), vg::Status::ok);
}

TEST(YamlLoaderTest, BadTargetListsAreReportedAtTheTargetKey) {
  auto with_targets = [](const std::string& list) {
    std::string text = kReplicated;
    text.replace(text.find("[cpu0, cpu1, cpu2]"), 18, list);
    return load_error(text);
  };
  EXPECT_HAS(with_targets("[]"), "test.yaml:10:13: key 'target': expected a target name or a list of them, got an empty list");
  EXPECT_EQ(with_targets("[cpu0, cpu0]"), "no error");  // two replicas sharing a target (asynchronous kernels)
  EXPECT_HAS(with_targets("[cpu0, cpu9]"), "test.yaml:10:13: key 'target': verify failed: node 'scale'");
  EXPECT_HAS(with_targets("[cpu0, cpu9]"), "unknown target 'cpu9'");
  EXPECT_HAS(with_targets("[cpu0, {a: 1}]"), "test.yaml:10");
  EXPECT_EQ(with_targets("[cpu2]"), "no error");  // a list of one is one target
  std::string text = kReplicated;
  text.replace(text.find("buffers: auto"), 13, "buffers: many");
  EXPECT_HAS(load_error(text), "key 'buffers'");
}

TEST(YamlLoaderTest, ABindingOfTheWrongKindIsReportedAtTheBinding) {
  std::string text = kGood;
  text.replace(text.find("a: {kind: scalar, type: f64}"), 28, "a: {kind: image, width: 4, height: 4}");
  const auto msg = load_error(text);
  EXPECT_HAS(msg, "test.yaml:10:21: key 'a': node 'add' (kernel 'vg.example.add'), parameter 'a': wrong type");
}

TEST(YamlLoaderTest, UnknownModuleListsTheBuiltInOnes) {
  const auto msg = load_error("modules: [vg.nope]\nnodes: {n: {kernel: vg.example.nop}}\n");
  EXPECT_HAS(msg, "test.yaml:1:11: key 'modules': unknown module 'vg.nope' (built-in modules: ");
  EXPECT_HAS(msg, "vg.example");
}

TEST(YamlLoaderTest, AModuleLibraryThatDoesNotExistIsReported) {
  const auto msg = load_error("modules: [{library: ./libnope.so}]\nnodes: {n: {kernel: vg.example.nop}}\n");
  EXPECT_HAS(msg, "test.yaml:1:11: key 'modules': module library");
  EXPECT_HAS(msg, "libnope.so");
}

TEST(YamlLoaderTest, UndefinedVariableInAStringAttributeIsReported) {
  const std::string text = R"(modules: [vg.example]
nodes:
  w: {kernel: vg.example.wait, attributes: {micros: 5}}
)";
  EXPECT_EQ(load_error(text), "no error");
  vg::yaml::BuildOptions o = options();
  EXPECT_THROW((void)vg::yaml::substitute("${NOPE}/x", o, {"f.yaml", 3, 4}, "model"), vg::yaml::LoadError);
  try {
    (void)vg::yaml::substitute("${NOPE}/x", o, {"f.yaml", 3, 4}, "model");
  } catch (const vg::yaml::LoadError& e) {
    EXPECT_HAS(std::string(e.what()), "f.yaml:3:4: key 'model': undefined variable 'NOPE'");
  }
  o.variables["DIR"] = "/assets";
  EXPECT_EQ(vg::yaml::substitute("${DIR}/m.onnx", o, {}, "model"), "/assets/m.onnx");
  EXPECT_EQ(vg::yaml::substitute("${MISSING:-/d}/m.onnx $$5", o, {}, "model"), "/d/m.onnx $5");
}

TEST(YamlLoaderTest, DeadlineMsOverridesTheKernelsDefaultPerNode) {
  const std::string text = R"(modules: [vg.example]
nodes:
  kernel_default: {kernel: vg.example.wait, attributes: {micros: 5}}
  shorter: {kernel: vg.example.wait, attributes: {micros: 5}, deadline_ms: 50, create_deadline_ms: 2000}
  none: {kernel: vg.example.wait, attributes: {micros: 5}, deadline_ms: 0}
)";
  auto loaded = vg::yaml::build(vg::yaml::parse_string(text, "test.yaml"), options());
  std::map<std::string, std::int64_t> deadline;
  for (const auto& n : loaded->graph().stats().nodes) deadline[n.name] = n.deadline_ns;
  EXPECT_EQ(deadline["kernel_default"], 10'000'000'000) << "vg.example.wait's own 10 s";
  EXPECT_EQ(deadline["shorter"], 50'000'000);
  EXPECT_EQ(deadline["none"], 0);
  EXPECT_EQ(loaded->graph().process(), vg::Status::ok);
  EXPECT_HAS(load_error("modules: [vg.example]\nnodes:\n  w: {kernel: vg.example.wait, deadline_ms: -5}\n"),
             "test.yaml:3:45: key 'deadline_ms': out of range");
}

TEST(YamlLoaderTest, AutoSizeMustBeFilledByTheApplication) {
  const std::string text = R"(modules: [vg.example]
data:
  img: {kind: image, width: auto, height: 4}
nodes:
  n: {kernel: vg.example.nop}
)";
  EXPECT_HAS(load_error(text), "test.yaml:3:22: key 'width': data object 'img' is 'auto'");
  auto desc = vg::yaml::parse_string(text, "test.yaml");
  EXPECT_TRUE(desc.has_auto_size());
  EXPECT_EQ(desc.set_auto_size(64, 48), 1u);
  auto loaded = vg::yaml::build(desc, options());
  EXPECT_EQ(loaded->graph().meta(loaded->data("img")).image.width, 64u);
  EXPECT_EQ(loaded->graph().meta(loaded->data("img")).image.height, 4u);
}

TEST(YamlLoaderTest, AFailedBuildLeavesNoThreadRunning) {
  const std::size_t before = thread_count();
  std::string text = kGood;
  text.replace(text.find("a: {kind: scalar, type: f64}"), 28, "a: {kind: scalar, type: i32}");
  EXPECT_NE(load_error(text), "no error");
  EXPECT_EQ(thread_count(), before);
}

TEST(YamlLoaderTest, TheApplicationAdjustsTheDescriptionBeforeBuilding) {
  auto desc = vg::yaml::parse_file(VG_TEST_DATA_DIR "/streaming.yaml");
  ASSERT_EQ(desc.targets.size(), 3u);
  EXPECT_EQ(desc.targets[0].config.core, 0);
  EXPECT_EQ(desc.targets[0].config.queue_capacity, 64u);
  EXPECT_EQ(desc.targets[2].config.kind, "npu");
  auto* in = desc.find_graph_parameter("in");
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(in->policy, vg::InputPolicy::latest_wins);
  in->policy = vg::InputPolicy::block;
  desc.find_node("double")->set_attribute("factor", 3.0);
  desc.set_auto_size(8, 6);
  auto loaded = vg::yaml::build(desc, options());
  vg::Graph& g = loaded->graph();
  EXPECT_EQ(g.meta(loaded->data("t")).describe(), "tensor u8 nhwc [1,4,4,3]");
  EXPECT_EQ(g.meta(loaded->data("record")).user_data.size, 64u);
  EXPECT_EQ(g.meta(loaded->data("list")).array.capacity, 8u);
  const auto gin = loaded->graph_parameter("in"), gout = loaded->graph_parameter("out");
  ASSERT_TRUE(gin.valid());
  ASSERT_TRUE(gout.valid());
  ASSERT_EQ(g.enqueue(gout, 0), vg::Status::ok);
  ASSERT_EQ(g.start(), vg::Status::ok);
  g.scalar(g.data_of(gin), 0).set(7.0);
  ASSERT_EQ(g.enqueue(gin, 0), vg::Status::ok);
  vg::DequeuedBuffer done;
  ASSERT_EQ(g.dequeue(gout, done, 5s), vg::Status::ok);
  EXPECT_EQ(done.status, vg::Status::ok);
  EXPECT_DOUBLE_EQ(g.scalar(g.data_of(gout), done.index).get<double>(), 21.0);
}

TEST(YamlLoaderTest, RoundTripYamlToGraphToDotMatchesTheGoldenFile) {
  auto loaded = vg::yaml::load_file(VG_TEST_DATA_DIR "/small.yaml", options());
  vg::Graph& g = loaded->graph();
  ASSERT_EQ(g.process(), vg::Status::ok);
  EXPECT_DOUBLE_EQ(g.scalar(loaded->data("out")).get<double>(), 60.0);  // (2 + 3 + 1) * 10
  std::ostringstream dot;
  g.write_dot(dot);
  const std::string golden_path = VG_TEST_GOLDEN_DIR "/small.dot";
  if (std::getenv("VG_UPDATE_GOLDEN")) std::ofstream(golden_path) << dot.str();
  std::ifstream golden(golden_path);
  ASSERT_TRUE(golden) << "missing " << golden_path << " (run with VG_UPDATE_GOLDEN=1 to write it)";
  std::stringstream expected;
  expected << golden.rdbuf();
  EXPECT_EQ(dot.str(), expected.str());
}

TEST(YamlLoaderTest, TheProjectsGraphFilesParse) {
  for (const char* path : {VG_TEST_APPS_DIR "/face_detect/face_detect.yaml", VG_TEST_APPS_DIR "/yolo/yolov5.yaml",
                           VG_TEST_APPS_DIR "/yolo/yolov8.yaml", VG_TEST_APPS_DIR "/examples/bright_spot.yaml"}) {
    SCOPED_TRACE(path);
    auto desc = vg::yaml::parse_file(path);
    EXPECT_FALSE(desc.nodes.empty());
  }
}

}  // namespace

TEST(YamlLoaderTest, MemoryDeviceMarksTheObjectDeviceOnly) {
  // The object is device-only memory; nothing reads it as a graph input, which verify refuses by name.
  std::string yaml = kGood;
  yaml.insert(yaml.find("nodes:"), "  frame: {kind: image, width: 8, height: 8, format: gray8, memory: device}\n");
  const auto desc = vg::yaml::parse_string(yaml, "test.yaml");
  ASSERT_NE(desc.find_data("frame"), nullptr);
  EXPECT_TRUE(desc.find_data("frame")->device_only);
  EXPECT_FALSE(desc.find_data("a")->device_only);
  EXPECT_HAS(load_error(yaml), "data object 'frame' is device-only memory");
  std::string bad = yaml;
  bad.replace(bad.find("memory: device"), 14, "memory: gpu");
  EXPECT_HAS(load_error(bad), "test.yaml:7:68: key 'memory': expected one of: host, device, got 'gpu'");
}

namespace {

TEST(YamlLoaderTest, StreamsListTheInputsOfARunWithTheirNames) {
  const auto desc = vg::yaml::parse_string(std::string(kGood) +
                                               "streams:\n"
                                               "  - {name: door, input: rtsp://127.0.0.1:8554/door}\n"
                                               "  - name: yard\n"
                                               "    input: ${VG_ASSETS_DIR}/yard.mp4\n",
                                           "test.yaml");
  ASSERT_EQ(desc.streams.size(), 2u);
  EXPECT_EQ(desc.streams[0].name, "door");
  EXPECT_EQ(desc.streams[0].input, "rtsp://127.0.0.1:8554/door");
  EXPECT_EQ(desc.streams[1].name, "yard");
  EXPECT_EQ(desc.streams[1].input, "${VG_ASSETS_DIR}/yard.mp4");  // the application substitutes it
  EXPECT_EQ(desc.streams[1].position.line, 13);
  // The graph itself does not use them: it builds and runs as without.
  auto loaded = vg::yaml::build(desc, options());
  EXPECT_EQ(loaded->graph().num_nodes(), 1u);
}

TEST(YamlLoaderTest, MalformedStreamsAreRefusedWhereTheyAre) {
  EXPECT_HAS(load_error(std::string(kGood) + "streams: {door: x}\n"), "test.yaml:11:10: key 'streams': expected a non-empty list");
  EXPECT_HAS(load_error(std::string(kGood) + "streams: []\n"), "key 'streams': expected a non-empty list");
  EXPECT_HAS(load_error(std::string(kGood) + "streams:\n  - {input: a.mp4}\n"), "key 'name': missing in a stream");
  EXPECT_HAS(load_error(std::string(kGood) + "streams:\n  - {name: a}\n"), "key 'input': missing in stream 'a'");
  EXPECT_HAS(load_error(std::string(kGood) + "streams:\n  - {name: a/b, input: x}\n"),
             "stream name 'a/b': use up to 64 letters, digits, '-' or '_'");
  EXPECT_HAS(load_error(std::string(kGood) + "streams:\n  - {name: a, input: x}\n  - {name: a, input: y}\n"),
             "test.yaml:13:5: key 'name': stream 'a' defined twice");
  EXPECT_HAS(load_error(std::string(kGood) + "streams:\n  - {name: a, input: x, fps: 3}\n"),
             "key 'fps': unknown key in 'streams'");
  EXPECT_HAS(load_error(std::string(kGood) + "streams:\n  - a.mp4\n"), "key 'streams': expected {name: NAME, input: SOURCE}");
}

}  // namespace
