// visiongraph.Graph and the run-time types: building, verify, data in and out, running, commands,
// detections, statistics, DOT and traces.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "arrays.hpp"
#include "convert.hpp"
#include "errors.hpp"
#include "py_graph.hpp"
#include "visiongraph/core/error.hpp"
#include "visiongraph/kernels/detection/detections.hpp"
#if VG_PY_HAVE_SERVICE
#include "visiongraph/service/control_protocol.hpp"
#endif

namespace py = pybind11;

namespace vg::python {

namespace {

using detection::DetectionPacket;

/// One detection as Python sees it.
struct PyDetection {
  int class_id = 0;
  float score = 0;
  int track_id = 0;  // vg.detection.track's id; 0 = not tracked
  std::array<float, 4> box{};  // x0, y0, x1, y1 in source pixels
  std::vector<std::pair<float, float>> keypoints;
};

PyGraph& graph_of(py::handle self) { return self.cast<PyGraph&>(); }

// A target name, or a list of them (one replica of the node per target: Graph::set_targets).
void set_node_target(PyGraph& self, NodeId node, py::handle target) {
  if (py::isinstance<py::str>(target)) self.graph().set_target(node, target.cast<std::string>());
  else self.graph().set_targets(node, target.cast<std::vector<std::string>>());
}

std::optional<std::uint32_t> index_from(py::handle buffer) {
  if (buffer.is_none()) return std::nullopt;
  return buffer.cast<std::uint32_t>();
}

CopyMode copy_mode_from(py::handle copy) {
  if (copy.is_none()) return CopyMode::automatic;
  return copy.cast<bool>() ? CopyMode::always : CopyMode::never;
}

const DetectionPacket& packet_of(PyGraph& g, const std::string& name, py::handle buffer) {
  const DataId id = g.data(name);
  const DataMeta& meta = g.graph().meta(id);
  if (meta.kind != DataKind::user_data || meta.user_data.size != sizeof(DetectionPacket))
    throw py::type_error(g.label(name) + ": is " + meta.describe() + ", not a DetectionPacket (user_data of " +
                         std::to_string(sizeof(DetectionPacket)) + " bytes)");
  return *reinterpret_cast<const DetectionPacket*>(g.buffer(id, index_from(buffer)).plane[0]);
}

std::vector<PyDetection> detections_of(const DetectionPacket& pkt) {
  std::vector<PyDetection> out;
  const std::uint32_t count = std::min<std::uint32_t>(pkt.count, detection::kMaxDetections);
  for (std::uint32_t i = 0; i < count; ++i) {
    const detection::Detection& d = pkt.items[i];
    PyDetection p;
    p.class_id = d.class_id;
    p.score = d.score;
    p.track_id = d.track_id;
    p.box = {d.x0, d.y0, d.x1, d.y1};
    const int nk = std::clamp(d.num_keypoints, 0, detection::kMaxKeypoints);
    for (int k = 0; k < nk; ++k) p.keypoints.emplace_back(d.keypoints[k].x, d.keypoints[k].y);
    out.push_back(std::move(p));
  }
  return out;
}

py::dict detection_arrays(const DetectionPacket& pkt) {
  const std::uint32_t count = std::min<std::uint32_t>(pkt.count, detection::kMaxDetections);
  int max_kp = 0;
  for (std::uint32_t i = 0; i < count; ++i) max_kp = std::max(max_kp, std::clamp(pkt.items[i].num_keypoints, 0, detection::kMaxKeypoints));
  const auto n = static_cast<py::ssize_t>(count);
  py::array_t<float> boxes({n, py::ssize_t{4}}), scores(n), keypoints({n, py::ssize_t{max_kp}, py::ssize_t{2}});
  py::array_t<std::int32_t> class_ids(n), num_keypoints(n), track_ids(n);
  auto b = boxes.mutable_unchecked<2>();
  auto s = scores.mutable_unchecked<1>();
  auto k = keypoints.mutable_unchecked<3>();
  auto c = class_ids.mutable_unchecked<1>();
  auto nk = num_keypoints.mutable_unchecked<1>();
  auto t = track_ids.mutable_unchecked<1>();
  for (py::ssize_t i = 0; i < n; ++i) {
    const detection::Detection& d = pkt.items[i];
    b(i, 0) = d.x0, b(i, 1) = d.y0, b(i, 2) = d.x1, b(i, 3) = d.y1;
    s(i) = d.score;
    c(i) = d.class_id;
    t(i) = d.track_id;
    nk(i) = std::clamp(d.num_keypoints, 0, detection::kMaxKeypoints);
    for (int j = 0; j < max_kp; ++j) {  // rows with fewer keypoints are padded with NaN
      const bool real = j < nk(i);
      k(i, j, 0) = real ? d.keypoints[j].x : std::numeric_limits<float>::quiet_NaN();
      k(i, j, 1) = real ? d.keypoints[j].y : std::numeric_limits<float>::quiet_NaN();
    }
  }
  py::dict out;
  out["boxes"] = boxes;
  out["scores"] = scores;
  out["class_ids"] = class_ids;
  out["track_ids"] = track_ids;
  out["keypoints"] = keypoints;
  out["num_keypoints"] = num_keypoints;
  out["sequence"] = pkt.sequence;
  out["timestamp_ns"] = pkt.timestamp_ns;
  out["valid"] = pkt.valid();
  out["truncated"] = pkt.truncated();
  return out;
}

std::string repr_detection(const PyDetection& d) {
  std::ostringstream o;
  o.precision(4);
  o << "Detection(class_id=" << d.class_id << ", score=" << d.score;
  if (d.track_id > 0) o << ", track_id=" << d.track_id;
  o << ", box=(" << d.box[0] << ", " << d.box[1] << ", "
    << d.box[2] << ", " << d.box[3] << "), keypoints=" << d.keypoints.size() << ")";
  return o.str();
}

void write_text_file(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  out.flush();
  if (!out) throw Error("cannot write '" + path + "'");
}

}  // namespace

void bind_graph(py::module_& m) {
  py::class_<PyDetection>(m, "Detection", "One detection in source-image pixels.")
      .def_readonly("class_id", &PyDetection::class_id)
      .def_readonly("score", &PyDetection::score)
      .def_readonly("track_id", &PyDetection::track_id)
      .def_property_readonly("box", [](const PyDetection& d) { return py::make_tuple(d.box[0], d.box[1], d.box[2], d.box[3]); },
                             "(x0, y0, x1, y1)")
      .def_readonly("keypoints", &PyDetection::keypoints, "[(x, y), ...]")
      .def("__repr__", &repr_detection);

  py::class_<DequeuedBuffer>(m, "Dequeued", "A buffer handed back by Graph.dequeue().")
      .def_readonly("index", &DequeuedBuffer::index)
      .def_readonly("status", &DequeuedBuffer::status)
      .def_readonly("sequence", &DequeuedBuffer::sequence)
      .def_readonly("timestamp_ns", &DequeuedBuffer::timestamp_ns)
      .def_readonly("capture_ns", &DequeuedBuffer::capture_ns)
      .def_readonly("completed_ns", &DequeuedBuffer::completed_ns)
      .def_readonly("tag", &DequeuedBuffer::tag)
      .def("__repr__", [](const DequeuedBuffer& d) {
        return "<Dequeued index=" + std::to_string(d.index) + " status=" + std::string(to_string(d.status)) +
               " sequence=" + std::to_string(d.sequence) + " tag=" + std::to_string(d.tag) + ">";
      });

  py::class_<RunError>(m, "RunError", "The most recent failure while running (Graph.last_error).")
      .def_readonly("status", &RunError::status)
      .def_readonly("frame", &RunError::frame)
      .def_readonly("node", &RunError::node)
      .def_readonly("kernel", &RunError::kernel)
      .def_readonly("target", &RunError::target)
      .def_readonly("message", &RunError::message)
      .def("describe", &RunError::describe)
      .def("__repr__", [](const RunError& e) { return "<RunError " + e.describe() + ">"; });

  py::class_<NodeStats>(m, "NodeStats", "Execution statistics of one node (times in nanoseconds).")
      .def_readonly("name", &NodeStats::name)
      .def_readonly("kernel", &NodeStats::kernel)
      .def_readonly("target", &NodeStats::target)
      .def_readonly("replica_of", &NodeStats::replica_of, "for one replica of a node run over several targets: the node")
      .def_readonly("executions", &NodeStats::executions)
      .def_readonly("failures", &NodeStats::failures)
      .def_readonly("min_ns", &NodeStats::min_ns)
      .def_readonly("max_ns", &NodeStats::max_ns)
      .def_readonly("avg_ns", &NodeStats::avg_ns)
      .def_readonly("p50_ns", &NodeStats::p50_ns)
      .def_readonly("p99_ns", &NodeStats::p99_ns)
      .def_readonly("conversions", &NodeStats::conversions)
      .def_readonly("deadline_ns", &NodeStats::deadline_ns)
      .def_readonly("deadline_misses", &NodeStats::deadline_misses)
      .def_readonly("stuck", &NodeStats::stuck)
      .def_readonly("running_ns", &NodeStats::running_ns)
      .def("__repr__", [](const NodeStats& n) {
        return "<NodeStats " + n.name + " (" + n.kernel + " on " + n.target + "): " + std::to_string(n.executions) +
               " executions, " + std::to_string(n.failures) + " failures>";
      });
  py::class_<QueueStats>(m, "QueueStats", "Queue state of one graph parameter.")
      .def_readonly("name", &QueueStats::name)
      .def_readonly("is_input", &QueueStats::is_input)
      .def_readonly("waiting", &QueueStats::waiting)
      .def_readonly("capacity", &QueueStats::capacity)
      .def_readonly("done", &QueueStats::done)
      .def_readonly("conversions", &QueueStats::conversions);
  py::class_<GraphStats>(m, "GraphStats", "Frame accounting, latency and per-node statistics.")
      .def_readonly("name", &GraphStats::name)
      .def_readonly("frames_in", &GraphStats::frames_in)
      .def_readonly("frames_started", &GraphStats::frames_started)
      .def_readonly("frames_completed", &GraphStats::frames_completed)
      .def_readonly("frames_failed", &GraphStats::frames_failed)
      .def_readonly("frames_dropped", &GraphStats::frames_dropped)
      .def_readonly("frames_rejected", &GraphStats::frames_rejected)
      .def_readonly("frames_aborted", &GraphStats::frames_aborted)
      .def_readonly("pipeline_depth", &GraphStats::pipeline_depth)
      .def_readonly("frames_in_flight", &GraphStats::frames_in_flight)
      .def_readonly("latency_p50_ns", &GraphStats::latency_p50_ns)
      .def_readonly("latency_p99_ns", &GraphStats::latency_p99_ns)
      .def_readonly("latency_max_ns", &GraphStats::latency_max_ns)
      .def_readonly("capture_latency_p50_ns", &GraphStats::capture_latency_p50_ns)
      .def_readonly("capture_latency_p99_ns", &GraphStats::capture_latency_p99_ns)
      .def_readonly("capture_latency_max_ns", &GraphStats::capture_latency_max_ns)
      .def_readonly("wall_seconds", &GraphStats::wall_seconds)
      .def_readonly("nodes", &GraphStats::nodes)
      .def_readonly("queues", &GraphStats::queues)
      .def("__repr__", [](const GraphStats& s) {
        return "<GraphStats " + s.name + ": " + std::to_string(s.frames_completed) + " completed, " +
               std::to_string(s.frames_failed) + " failed, " + std::to_string(s.frames_dropped) + " dropped>";
      });

  py::class_<PyGraph> g(m, "Graph",
                        "A graph of nodes (kernel instances) connected by data objects, addressed by name. Build "
                        "it (or load_graph), verify() once, then process() frames or stream them with "
                        "start()/enqueue()/dequeue().");
  g.def(py::init([](py::object context, std::string name) {
          PyContext& ctx = context.cast<PyContext&>();
          return std::make_unique<PyGraph>(ctx, context, std::move(name));
        }),
        py::arg("context"), py::arg("name") = "graph", "Graph(context, name='graph'): an empty graph on context.");

  // ---- building ----
  g.def(
       "add_image",
       [](PyGraph& self, std::string name, std::uint32_t width, std::uint32_t height, const std::string& format,
          std::uint32_t row_stride) {
         self.graph().add_data(name, DataMeta::image_of(width, height, image_format_from(format), row_stride));
         self.add_data_name(name);
         return name;
       },
       py::arg("name"), py::arg("width"), py::arg("height"), py::arg("format") = "bgr24", py::arg("row_stride") = 0,
       "An image object (formats rgb24, bgr24, gray8, nv12). Returns its name.")
      .def(
          "add_tensor",
          [](PyGraph& self, std::string name, const std::vector<std::int64_t>& shape, py::handle dtype,
             const std::string& layout, float scale, std::int32_t zero_point) {
            if (shape.empty() || shape.size() > kMaxTensorDims)
              throw py::value_error("tensor '" + name + "': shape needs 1.." + std::to_string(kMaxTensorDims) + " dimensions");
            TensorMeta t;
            t.rank = static_cast<std::uint32_t>(shape.size());
            std::copy(shape.begin(), shape.end(), t.dims.begin());
            t.type = element_type_from(dtype);
            t.layout = tensor_layout_from(layout);
            t.scale = scale;
            t.zero_point = zero_point;
            self.graph().add_data(name, DataMeta::tensor_of(t));
            self.add_data_name(name);
            return name;
          },
          py::arg("name"), py::arg("shape"), py::arg("dtype") = "f32", py::arg("layout") = "unspecified",
          py::arg("scale") = 1.0f, py::arg("zero_point") = 0,
          "A tensor object; dtype is a visiongraph name (u8 .. f64) or a numpy dtype. Returns its name.")
      .def(
          "add_scalar",
          [](PyGraph& self, std::string name, py::handle dtype, py::object value) {
            const DataId id = self.graph().add_data(name, DataMeta::scalar_of(element_type_from(dtype)));
            self.add_data_name(name);
            if (!value.is_none()) self.set_scalar_after_verify(id, value);
            return name;
          },
          py::arg("name"), py::arg("dtype") = "f64", py::arg("value") = py::none(),
          "A scalar object; value (if given) is written into it at verify. Returns its name.")
      .def(
          "add_user_data",
          [](PyGraph& self, std::string name, const std::string& type_name, std::size_t size, std::size_t alignment) {
            self.graph().add_data(name, DataMeta::user_data_of(type_name, size, alignment));
            self.add_data_name(name);
            return name;
          },
          py::arg("name"), py::arg("type_name"), py::arg("size"), py::arg("alignment") = alignof(std::max_align_t))
      .def(
          "add_array",
          [](PyGraph& self, std::string name, const std::string& item_type, std::size_t item_size, std::size_t capacity) {
            self.graph().add_data(name, DataMeta::array_of(item_type, item_size, capacity));
            self.add_data_name(name);
            return name;
          },
          py::arg("name"), py::arg("item_type"), py::arg("item_size"), py::arg("capacity"))
      .def(
          "add_virtual",
          [](PyGraph& self, std::string name, const std::string& kind) {
            self.graph().add_virtual(name, data_kind_from(kind));
            self.add_data_name(name);
            return name;
          },
          py::arg("name"), py::arg("kind"),
          "An object whose metadata the node writing it sets at verify (kind: image, tensor, scalar, user_data, array).")
      .def(
          "bind",
          [](PyGraph& self, const std::string& node, py::handle param, const std::string& data) {
            const NodeId n = self.node(node);
            const DataId d = self.data(data);
            if (py::isinstance<py::str>(param)) self.graph().bind(n, param.cast<std::string>(), d);
            else self.graph().bind(n, param.cast<std::size_t>(), d);
          },
          py::arg("node"), py::arg("param"), py::arg("data"), "Bind a node parameter (name or index) to a data object.")
      .def(
          "set_attribute",
          [](PyGraph& self, const std::string& node, std::string key, py::handle value) {
            const NodeId n = self.node(node);
            const KernelInfo* info = self.context().get().find_kernel(self.graph().node_kernel(n));
            const AttrDecl* decl = info ? info->decl.find_attribute(key) : nullptr;
            self.graph().set_attribute(n, key, attr_value_from(value, decl, "node '" + node + "', attribute '" + key + "'"));
          },
          py::arg("node"), py::arg("key"), py::arg("value"),
          "Set an attribute, converted to the type the kernel declares (TypeError if it cannot be).")
      .def(
          "set_target", [](PyGraph& self, const std::string& node, py::handle target) { set_node_target(self, self.node(node), target); },
          py::arg("node"), py::arg("target"),
          "One target (str), or a list of targets: one replica of the node per target, results in frame order.")
      .def(
          "set_deadline",
          [](PyGraph& self, const std::string& node, double run_ms, py::object create_ms) {
            auto ns = [](double ms) { return std::chrono::nanoseconds(static_cast<std::int64_t>(ms * 1e6)); };
            self.graph().set_deadline(self.node(node), ns(run_ms),
                                      create_ms.is_none() ? std::chrono::nanoseconds(-1) : ns(create_ms.cast<double>()));
          },
          py::arg("node"), py::arg("run_ms"), py::arg("create_ms") = py::none(),
          "Deadlines of one node in milliseconds (0 = none), overriding its kernel's.")
      .def(
          "add_node",
          [](PyGraph& self, std::string name, const std::string& kernel, py::object target, py::object parameters,
             py::object attributes) {
            const NodeId n = self.graph().add_node(name, kernel);
            if (!target.is_none()) set_node_target(self, n, target);
            if (!parameters.is_none())
              for (auto [param, data] : parameters.cast<py::dict>()) self.graph().bind(n, py::str(param).cast<std::string>(), self.data(py::str(data)));
            if (!attributes.is_none()) {
              const KernelInfo* info = self.context().get().find_kernel(kernel);
              for (auto [key, value] : attributes.cast<py::dict>()) {
                const std::string k = py::str(key);
                const AttrDecl* decl = info ? info->decl.find_attribute(k) : nullptr;
                self.graph().set_attribute(n, k, attr_value_from(value, decl, "node '" + name + "', attribute '" + k + "'"));
              }
            }
            return name;
          },
          py::arg("name"), py::arg("kernel"), py::arg("target") = py::none(), py::arg("parameters") = py::none(),
          py::arg("attributes") = py::none(),
          "Add a node of a registered kernel; parameters {param: data name}, attributes {key: value}. Returns its name.")
      .def(
          "add_graph_parameter",
          [](PyGraph& self, const std::string& node, const std::string& param, std::size_t buffers, py::object name,
             py::object policy, std::size_t queue_capacity) {
            const GraphParamId gp = self.graph().add_graph_parameter(self.node(node), param, buffers);
            std::string n = name.is_none() ? self.data_name(self.graph().data_of(gp)) : name.cast<std::string>();
            self.name_param(n, gp);
            if (!policy.is_none()) self.graph().set_input_policy(gp, input_policy_from(policy.cast<std::string>()), queue_capacity);
            return n;
          },
          py::arg("node"), py::arg("param"), py::arg("buffers") = 0, py::arg("name") = py::none(),
          py::arg("policy") = py::none(), py::arg("queue_capacity") = 1,
          "Expose a node parameter for enqueue/dequeue with `buffers` buffers. Named `name` (default: the bound data "
          "object's name). Inputs may set policy (block, latest_wins, reject_new). Returns the name.")
      .def(
          "set_input_policy",
          [](PyGraph& self, const std::string& name, const std::string& policy, std::size_t queue_capacity) {
            self.graph().set_input_policy(self.param(name), input_policy_from(policy), queue_capacity);
          },
          py::arg("name"), py::arg("policy"), py::arg("queue_capacity") = 1)
      .def("set_pipeline_depth", [](PyGraph& self, std::size_t depth) { self.graph().set_pipeline_depth(depth); },
           py::arg("depth"), "Frames in flight at once (0 = one per target the graph uses).")
      .def("set_telemetry_capacity", [](PyGraph& self, std::size_t n) { self.graph().set_telemetry_capacity(n); })
      .def("verify", &PyGraph::verify,
           "Check the graph, allocate its buffers and create every node (GIL released). Raises visiongraph.Error "
           "naming the node and key at fault.")
      .def("release", &PyGraph::release, "Stop, delete every node, free memory (verify() may be called again).")
      .def_property_readonly("is_verified", [](const PyGraph& self) { return self.graph().is_verified(); });

  // ---- data in and out ----
  g.def(
       "set_input",
       [](PyGraph& self, const std::string& name, py::handle value, std::uint32_t buffer, py::handle copy) {
         return self.set_input(name, value, buffer, copy_mode_from(copy));
       },
       py::arg("name"), py::arg("value"), py::arg("buffer") = 0, py::arg("copy") = py::none(),
       "Give a value to buffer `buffer` (default 0, the one process() uses) of a data object or graph parameter. "
       "Arrays: dtype and shape must match (TypeError / ValueError); read in place when the layout allows and "
       "copy is None (the graph keeps the array alive while it holds it), copied when copy=True; copy=False "
       "refuses to copy. Scalars take a number, user data bytes. Returns True when the array is read in place.")
      .def(
          "get",
          [](py::object self, const std::string& name, py::handle buffer, bool copy) {
            return graph_of(self).get(name, index_from(buffer), copy, self);
          },
          py::arg("name"), py::arg("buffer") = py::none(), py::arg("copy") = false,
          "A buffer's content: images and tensors as numpy arrays (views into the graph's memory unless copy=True; "
          "a view is valid until the graph reuses or frees the buffer), scalars as numbers, user data as bytes. "
          "buffer None = the buffer of the most recently completed frame.")
      .def(
          "image",
          [](py::object self, const std::string& name, py::handle buffer, bool copy) {
            PyGraph& g = graph_of(self);
            if (g.graph().meta(g.data(name)).kind != DataKind::image) throw py::type_error(g.label(name) + ": is not an image");
            return g.get(name, index_from(buffer), copy, self);
          },
          py::arg("name"), py::arg("buffer") = py::none(), py::arg("copy") = false,
          "An image as a uint8 array (H, W, 3) / (H, W) / NV12 (H*3/2, W): a view, or a copy.")
      .def(
          "tensor",
          [](py::object self, const std::string& name, py::handle buffer, bool copy) {
            PyGraph& g = graph_of(self);
            if (g.graph().meta(g.data(name)).kind != DataKind::tensor) throw py::type_error(g.label(name) + ": is not a tensor");
            return g.get(name, index_from(buffer), copy, self);
          },
          py::arg("name"), py::arg("buffer") = py::none(), py::arg("copy") = false,
          "A tensor as a numpy array of its shape and dtype: a view, or a copy.")
      .def(
          "scalar",
          [](PyGraph& self, const std::string& name, py::handle buffer) {
            if (self.graph().meta(self.data(name)).kind != DataKind::scalar) throw py::type_error(self.label(name) + ": is not a scalar");
            return self.get(name, index_from(buffer), true, py::none());
          },
          py::arg("name"), py::arg("buffer") = py::none())
      .def(
          "set_scalar",
          [](PyGraph& self, const std::string& name, py::object value, py::handle buffer) {
            const DataId id = self.data(name);
            const DataMeta& meta = self.graph().meta(id);
            if (meta.kind != DataKind::scalar) throw py::type_error(self.label(name) + ": is not a scalar");
            if (!self.graph().is_verified()) {
              self.set_scalar_after_verify(id, value);
              return;
            }
            const auto n = static_cast<std::uint32_t>(self.graph().num_buffers(id));
            if (auto index = index_from(buffer)) {
              set_scalar(meta, self.buffer(id, index), value, self.label(name));
            } else {
              for (std::uint32_t b = 0; b < n; ++b) set_scalar(meta, self.buffer(id, b), value, self.label(name));
            }
          },
          py::arg("name"), py::arg("value"), py::arg("buffer") = py::none(),
          "Write a scalar (every buffer when buffer is None; before verify: written at verify).")
      .def(
          "detections",
          [](PyGraph& self, const std::string& name, py::handle buffer) { return detections_of(packet_of(self, name, buffer)); },
          py::arg("name") = "detections", py::arg("buffer") = py::none(),
          "The detections of a DetectionPacket object as a list of Detection (class_id, score, box, keypoints).")
      .def(
          "detections_array",
          [](PyGraph& self, const std::string& name, py::handle buffer) { return detection_arrays(packet_of(self, name, buffer)); },
          py::arg("name") = "detections", py::arg("buffer") = py::none(),
          "The detections as numpy arrays: boxes (N, 4), scores (N,), class_ids (N,), track_ids (N,; 0 = not tracked), keypoints (N, K, 2; NaN "
          "where a detection has fewer), num_keypoints (N,); plus sequence, timestamp_ns, valid, truncated.")
      .def("num_buffers", [](PyGraph& self, const std::string& name) { return self.graph().num_buffers(self.data(name)); })
      .def("meta", [](PyGraph& self, const std::string& name) { return meta_to_dict(self.graph().meta(self.data(name))); },
           py::arg("name"), "A data object's metadata as a dict (kind, shape/format/dtype, description).");

  // ---- running ----
  g.def("process", &PyGraph::process, py::arg("inputs") = py::none(), py::arg("timeout") = 60.0,
        "Run one frame and wait for it (GIL released). inputs: {name: value} given with set_input first. "
        "Raises visiongraph.StatusError (with the failing node's message) when the frame fails.")
      .def("start", &PyGraph::start, py::arg("enqueue_outputs") = true,
           "Start streaming; by default every buffer of every output graph parameter is handed to the graph.")
      .def(
          "stop",
          [](PyGraph& self, const std::string& mode) {
            const StopMode m = stop_mode_from(mode);
            Status s;
            {
              py::gil_scoped_release unlocked;
              s = self.graph().stop(m);
            }
            if (s != Status::ok) throw_status(s, "graph '" + self.graph().name() + "': stop()", self.graph().last_error().describe());
          },
          py::arg("mode") = "drain", "Stop streaming: 'drain' lets frames in flight finish, 'abandon' skips them.")
      .def_property_readonly("is_streaming", [](const PyGraph& self) { return self.graph().is_streaming(); })
      .def(
          "enqueue",
          [](PyGraph& self, const std::string& name, py::handle array, py::handle buffer, std::int64_t timestamp_ns,
             std::int64_t capture_ns, std::uint64_t tag, double timeout, py::handle copy) {
            return self.enqueue(name, array, index_from(buffer), FrameStamp{timestamp_ns, capture_ns, tag}, timeout,
                                copy_mode_from(copy));
          },
          py::arg("name"), py::arg("array") = py::none(), py::kw_only(), py::arg("buffer") = py::none(),
          py::arg("timestamp_ns") = 0, py::arg("capture_ns") = 0, py::arg("tag") = 0, py::arg("timeout") = 5.0,
          py::arg("copy") = py::none(),
          "Hand a buffer of a graph parameter to the graph (GIL released while it waits). Inputs: the array goes "
          "into a buffer the application holds (as set_input). Outputs: an empty buffer, or a writeable array the "
          "results are written into. Returns the buffer index; StatusError if the graph refuses it.")
      .def(
          "dequeue", &PyGraph::dequeue, py::arg("name"), py::arg("timeout") = 5.0,
          "Take back the next done buffer of a graph parameter (GIL released while it waits): a Dequeued (its "
          "status says ok, dropped, aborted, rejected or kernel_error), or None once the graph is stopped and "
          "has nothing left. StatusError(timeout) when nothing came in time.")
      .def(
          "wait_idle",
          [](PyGraph& self, double timeout) {
            const auto wait = timeout_from(timeout, "wait_idle()");
            Status s;
            {
              py::gil_scoped_release unlocked;
              s = self.graph().wait_idle(wait);
            }
            if (s != Status::ok) throw_status(s, "graph '" + self.graph().name() + "': wait_idle()");
          },
          py::arg("timeout") = 60.0)
      .def(
          "send_command", &PyGraph::send_command, py::arg("node"), py::arg("command"), py::arg("payload") = py::none(),
          py::arg("timeout") = 2.0, py::arg("raw") = false, py::arg("replica") = py::none(),
          "Run a node's control command (by name or id) between two frames on its target and return its reply "
          "(str, or bytes when it is not text or raw=True). The payload is converted to the kind the kernel "
          "declares (None, int, float, str, bytes). StatusError when the kernel refuses it.")
#if VG_PY_HAVE_SERVICE
      .def(
          "control",
          [](PyGraph& self, const std::string& line, double timeout) {
            const auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(timeout_from(timeout, "control()"));
            py::gil_scoped_release unlocked;
            return service::answer_control_request(self.graph(), self.context().get(), line, wait);
          },
          py::arg("line"), py::arg("timeout") = 2.0,
          "Answer one control-protocol line ('NODE COMMAND [ARG]' or 'help'), as the control socket does: "
          "'ok ...' or 'error ...'.")
#endif
      ;

  // ---- introspection ----
  g.def_property_readonly("name", [](const PyGraph& self) { return self.graph().name(); })
      .def_property_readonly("nodes", &PyGraph::node_names)
      .def_property_readonly("data", &PyGraph::data_names)
      .def_property_readonly("graph_parameters", &PyGraph::param_names)
      .def_property_readonly("pipeline_depth", [](const PyGraph& self) { return self.graph().pipeline_depth(); })
      .def_property_readonly(
          "context",
          [](py::object self) -> py::object {
            PyGraph& g = graph_of(self);
            // A loaded graph's context lives in the graph: the returned object keeps the graph alive.
            return py::cast(&g.context(), py::return_value_policy::reference_internal, self);
          })
      .def("execution_order",
           [](const PyGraph& self) {
             std::vector<std::string> out;
             for (NodeId n : self.graph().execution_order()) out.push_back(self.graph().node_name(n));
             return out;
           })
      .def("node_kernel", [](const PyGraph& self, const std::string& node) { return self.graph().node_kernel(self.node(node)); })
      .def("node_target", [](const PyGraph& self, const std::string& node) { return self.graph().node_target(self.node(node)); })
      .def("node_targets", [](const PyGraph& self, const std::string& node) { return self.graph().node_targets(self.node(node)); },
           "The node's targets: one, or one per replica.")
      .def(
          "kernel",
          [](PyGraph& self, const std::string& node) {
            const KernelInfo* info = self.context().get().find_kernel(self.graph().node_kernel(self.node(node)));
            if (!info) throw Error("node '" + node + "': its kernel is no longer registered");
            return describe_kernel(*info);
          },
          py::arg("node"), "The KernelInfo of a node's kernel (its parameters, attributes, commands).")
      .def("is_input", [](PyGraph& self, const std::string& name) { return self.is_input(self.param(name)); })
      .def_property_readonly("last_error", [](const PyGraph& self) { return self.graph().last_error(); })
      // ---- observability ----
      .def("stats", [](const PyGraph& self) { return self.graph().stats(); })
      .def("reset_stats", [](PyGraph& self) { self.graph().reset_stats(); })
      .def("report_text", [](const PyGraph& self) { return self.graph().report_text(); },
           "One line per node with its target and timings (what `visiongraph run` prints).")
      .def("report_json", [](const PyGraph& self) { return self.graph().report_json(); })
      .def(
          "dot",
          [](const PyGraph& self) {
            std::ostringstream out;
            self.graph().write_dot(out);
            return out.str();
          },
          "Graphviz DOT text: nodes coloured by target, data objects with buffer counts.")
      .def(
          "trace",
          [](const PyGraph& self) {
            std::ostringstream out;
            self.graph().write_trace(out);
            return out.str();
          },
          "Chrome trace-event JSON (open in Perfetto): a track per target, a slice per execution.")
      .def(
          "write_dot",
          [](const PyGraph& self, const std::string& path) {
            std::ostringstream out;
            self.graph().write_dot(out);
            write_text_file(path, out.str());
          },
          py::arg("path"))
      .def(
          "write_trace",
          [](const PyGraph& self, const std::string& path) {
            std::ostringstream out;
            self.graph().write_trace(out);
            write_text_file(path, out.str());
          },
          py::arg("path"))
      .def(
          "executions",
          [](const PyGraph& self, const std::string& node) {
            py::list out;
            for (const ExecutionRecord& r : self.graph().executions(self.node(node)))
              out.append(py::make_tuple(r.frame, r.start_ns, r.end_ns, static_cast<Status>(r.status)));
            return out;
          },
          py::arg("node"), "Executions still in the node's telemetry ring: (frame, start_ns, end_ns, status).")
      .def(
          "frame_sample",
          [](const PyGraph& self, std::uint64_t sequence) -> py::object {
            FrameSample sample;
            if (self.graph().frame_sample(sequence, sample) != Status::ok) return py::none();
            py::list stages;
            for (std::size_t i = 0; i < sample.count; ++i) {
              const StageSample& s = sample.stages[i];
              py::dict stage;
              stage["node"] = s.name != nullptr ? s.name : "";
              stage["start_ns"] = s.start_ns;
              stage["end_ns"] = s.end_ns;
              stage["status"] = s.status;
              stage["code"] = s.code;
              stages.append(stage);
            }
            py::dict out;
            out["frame"] = sample.sequence;
            out["stages"] = stages;
            out["failed_mask"] = sample.failed_mask;
            out["runtime_code"] = sample.runtime_code;
            return out;
          },
          py::arg("sequence"),
          "One frame's stages (Graph::frame_sample): {'frame', 'stages': [{'node', 'start_ns', 'end_ns', "
          "'status', 'code'}], 'failed_mask', 'runtime_code'}, ordered by start; None when nothing of that "
          "frame is recorded.")
      .def("__repr__", [](const PyGraph& self) {
        return "<visiongraph.Graph '" + self.graph().name() + "' " + std::to_string(self.graph().num_nodes()) + " nodes" +
               (self.graph().is_verified() ? ", verified" : "") + ">";
      });
}

}  // namespace vg::python
