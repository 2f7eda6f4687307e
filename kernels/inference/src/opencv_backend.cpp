#include "visiongraph/kernels/inference/opencv_backend.hpp"

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <opencv2/core.hpp>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/dnn.hpp>
#include <set>
#include <sstream>
#include <string_view>

#include "visiongraph/core/error.hpp"

namespace vg::inference {
namespace {

int cv_depth(ElementKind kind) {
  switch (kind) {
    case ElementKind::f32: return CV_32F;
    case ElementKind::u8: return CV_8U;
    case ElementKind::i8: return CV_8S;
    case ElementKind::f16: return CV_16F;
    case ElementKind::i32: return CV_32S;
    case ElementKind::u16: return CV_16U;
    case ElementKind::i16: return CV_16S;
    default: return -1;
  }
}

ElementKind kind_of_depth(int depth) {
  switch (depth) {
    case CV_32F: return ElementKind::f32;
    case CV_8U: return ElementKind::u8;
    case CV_8S: return ElementKind::i8;
    case CV_16F: return ElementKind::f16;
    case CV_32S: return ElementKind::i32;
    case CV_16U: return ElementKind::u16;
    case CV_16S: return ElementKind::i16;
    default: throw Error("OpenCV output depth " + std::to_string(depth) + " has no tensor type");
  }
}

/// OpenCV DNN prints several ERROR lines to stderr before it throws on a shape it cannot take; the
/// exception carries the same facts, and load() turns them into one message. Silenced for the scope
/// (the level is process-wide: other threads' OpenCV logging is quiet meanwhile), then restored.
class QuietOpencvLog {
 public:
  QuietOpencvLog() : previous_(cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT)) {}
  ~QuietOpencvLog() { cv::utils::logging::setLogLevel(previous_); }
  QuietOpencvLog(const QuietOpencvLog&) = delete;
  QuietOpencvLog& operator=(const QuietOpencvLog&) = delete;

 private:
  cv::utils::logging::LogLevel previous_;
};

/// Just enough of the protobuf wire format to walk an ONNX file's messages (bounds-checked).
class ProtoReader {
 public:
  struct Field {
    std::uint64_t number = 0;
    int wire = 0;
    std::uint64_t value = 0;  // varint fields
    std::string_view bytes;   // length-delimited fields
  };
  explicit ProtoReader(std::string_view data) : data_(data) {}

  bool next(Field& f) {
    std::uint64_t key = 0;
    if (pos_ >= data_.size() || !varint(key)) return false;
    f.number = key >> 3;
    f.wire = static_cast<int>(key & 7);
    f.bytes = {};
    std::uint64_t length = 0;
    switch (f.wire) {
      case 0: return varint(f.value);
      case 1: return skip(8);
      case 5: return skip(4);
      case 2:
        if (!varint(length) || length > data_.size() - pos_) return stop();
        f.bytes = data_.substr(pos_, static_cast<std::size_t>(length));
        pos_ += static_cast<std::size_t>(length);
        return true;
      default: return stop();  // groups: not used by ONNX
    }
  }

 private:
  bool stop() {
    pos_ = data_.size();
    return false;
  }
  bool skip(std::size_t n) {
    if (n > data_.size() - pos_) return stop();
    pos_ += n;
    return true;
  }
  bool varint(std::uint64_t& out) {
    out = 0;
    for (int shift = 0; shift < 64 && pos_ < data_.size(); shift += 7) {
      const auto byte = static_cast<std::uint8_t>(data_[pos_++]);
      out |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return true;
    }
    return stop();
  }

  std::string_view data_;
  std::size_t pos_ = 0;
};

std::string_view onnx_type_name(std::uint64_t elem_type) {
  switch (elem_type) {
    case 1: return "f32";
    case 2: return "u8";
    case 3: return "i8";
    case 4: return "u16";
    case 5: return "i16";
    case 6: return "i32";
    case 7: return "i64";
    case 9: return "bool";
    case 10: return "f16";
    case 11: return "f64";
    case 12: return "u32";
    case 13: return "u64";
    case 16: return "bf16";
    default: return "";
  }
}

/// One graph input an ONNX file declares (initializers excluded).
struct OnnxInput {
  std::string name;
  std::vector<std::string> dims;  // numbers, symbolic names, or "?"
  std::string type;
  /// "[1,128,128,3] f32 (ONNX input 'input:0')"
  std::string text() const {
    std::string d;
    for (const auto& x : dims) d += (d.empty() ? "" : ",") + x;
    return "[" + d + "]" + (type.empty() ? "" : " " + type) + " (ONNX input '" + name + "')";
  }
};

/// The inputs an ONNX file declares, in order (symbolic dimensions by name, unknown ones as '?'); empty
/// when @p path is not an ONNX file.
/// ModelProto.graph (7) -> GraphProto.input (11) minus GraphProto.initializer (5) names ->
/// ValueInfoProto {name (1), type (2) -> TypeProto.tensor_type (1) {elem_type (1), shape (2) -> dim (1)
/// {dim_value (1) | dim_param (2)}}}.
std::vector<OnnxInput> onnx_declared_inputs(const std::string& path) {
  std::vector<OnnxInput> found;
  std::ifstream file(path, std::ios::binary);
  if (!file) return {};
  std::ostringstream content;
  content << file.rdbuf();
  const std::string data = content.str();
  ProtoReader model(data);
  ProtoReader::Field f;
  while (model.next(f)) {
    if (f.number != 7 || f.wire != 2) continue;
    std::set<std::string_view> initializers;
    std::vector<std::string_view> inputs;
    ProtoReader graph(f.bytes);
    ProtoReader::Field g;
    while (graph.next(g)) {
      if (g.wire != 2) continue;
      if (g.number == 11) inputs.push_back(g.bytes);
      if (g.number == 5) {
        ProtoReader tensor(g.bytes);
        ProtoReader::Field t;
        while (tensor.next(t))
          if (t.number == 8 && t.wire == 2) initializers.insert(t.bytes);
      }
    }
    for (std::string_view value_info : inputs) {
      std::string_view name;
      std::vector<std::string> dims;
      std::string_view type;
      ProtoReader vi(value_info);
      ProtoReader::Field v;
      while (vi.next(v)) {
        if (v.number == 1 && v.wire == 2) name = v.bytes;
        if (v.number != 2 || v.wire != 2) continue;
        ProtoReader type_proto(v.bytes);
        ProtoReader::Field tp;
        while (type_proto.next(tp)) {
          if (tp.number != 1 || tp.wire != 2) continue;
          ProtoReader tensor_type(tp.bytes);
          ProtoReader::Field tt;
          while (tensor_type.next(tt)) {
            if (tt.number == 1 && tt.wire == 0) type = onnx_type_name(tt.value);
            if (tt.number != 2 || tt.wire != 2) continue;
            ProtoReader shape(tt.bytes);
            ProtoReader::Field dim;
            while (shape.next(dim)) {
              if (dim.number != 1 || dim.wire != 2) continue;
              std::string text = "?";
              ProtoReader d(dim.bytes);
              ProtoReader::Field dv;
              while (d.next(dv)) {
                if (dv.number == 1 && dv.wire == 0) text = std::to_string(static_cast<std::int64_t>(dv.value));
                if (dv.number == 2 && dv.wire == 2 && !dv.bytes.empty()) text = std::string(dv.bytes);
              }
              dims.push_back(text);
            }
          }
        }
      }
      if (initializers.count(name) || dims.empty()) continue;
      found.push_back(OnnxInput{std::string(name), std::move(dims), std::string(type)});
    }
    break;
  }
  return found;
}

/// The first input an ONNX file declares as text; "" when there is none.
std::string onnx_declared_input(const std::string& path) {
  const auto inputs = onnx_declared_inputs(path);
  return inputs.empty() ? std::string() : inputs[0].text();
}

std::size_t mat_bytes(const std::vector<int>& shape, int depth) {
  std::size_t need = CV_ELEM_SIZE(depth);
  for (int d : shape) need *= static_cast<std::size_t>(d);
  return need;
}

}  // namespace

struct OpencvBackend::Impl {
  cv::dnn::Net net;
  std::string model;
  std::vector<cv::String> out_names;
  std::vector<cv::Mat> outs;        // reused by forward(); become headers of the net's blobs
  std::vector<std::size_t> out_bytes;
  std::vector<int> in_shape;
  int in_depth = CV_32F;
  std::vector<cv::Mat> inputs;      // one header per bound buffer (no copy)
  int warmup = 1;
  cv::String in_name;               // input 0's name ("" for a single-input model: the default input)
  /// Model inputs 1..n-1, set by name per frame.
  struct Extra {
    cv::String name;
    std::vector<int> shape;
    int depth = CV_32F;
    std::vector<cv::Mat> mats;      // one header per bound buffer
    cv::Mat zeros;                  // until a buffer is bound
    cv::Mat selected;               // header read by the next forward
  };
  std::vector<Extra> extra;
};

OpencvBackend::OpencvBackend() : impl_(std::make_unique<Impl>()) {}
OpencvBackend::~OpencvBackend() = default;

ModelInfo OpencvBackend::load(const std::string& model_path, const BackendOptions& options) {
  Impl& m = *impl_;
  if (!std::filesystem::exists(model_path)) throw Error("model file not found: " + model_path);
  if (options.input.dims.empty()) {
    throw Error("OpenCV backend needs the input tensor shape for " + model_path +
                " (bind a tensor with known dims to 'input')");
  }
  m.in_depth = cv_depth(options.input.type);
  if (m.in_depth < 0) {
    throw Error("OpenCV backend: input type " + std::string(to_string(options.input.type)) + " is not supported");
  }
  const QuietOpencvLog quiet;  // errors come back as one message, not as OpenCV log lines
  try {
    m.net = cv::dnn::readNet(model_path);
  } catch (const cv::Exception& e) {
    throw Error("OpenCV DNN cannot read " + model_path + ": " + e.what());
  }
  if (m.net.empty()) throw Error("OpenCV DNN read an empty network from " + model_path);
  m.model = model_path;
  m.warmup = options.warmup;
  m.in_shape.assign(options.input.dims.begin(), options.input.dims.end());
  m.out_names = m.net.getUnconnectedOutLayersNames();
  m.in_name.clear();
  m.extra.clear();
  // More than one input: each is set by the name the model declares, in the model's order.
  const std::vector<OnnxInput> declared = onnx_declared_inputs(model_path);
  if (declared.size() > 1 || !options.extra_inputs.empty()) {
    std::string list;
    for (const auto& d : declared) list += (list.empty() ? "" : ", ") + d.text();
    if (declared.size() != options.extra_inputs.size() + 1) {
      throw Error("model " + model_path + " declares " + std::to_string(declared.size()) + " input(s)" +
                  (list.empty() ? std::string(" (not an ONNX file: only ONNX inputs can be named)") : " (" + list + ")") +
                  " but the graph binds " + std::to_string(options.extra_inputs.size() + 1) +
                  " (input, input1..input3 in the model's order)");
    }
    for (std::size_t k = 0; k < declared.size(); ++k) {
      const TensorDesc& g = k == 0 ? options.input : options.extra_inputs[k - 1];
      const std::string param = k == 0 ? "input" : "input" + std::to_string(k);
      bool same = g.dims.size() == declared[k].dims.size();
      for (std::size_t i = 0; same && i < g.dims.size(); ++i) {
        const std::string& d = declared[k].dims[i];
        const bool numeric = !d.empty() && d.find_first_not_of("0123456789") == std::string::npos;
        same = !numeric || std::stoll(d) == g.dims[i];
      }
      if (!same) {
        throw Error("model " + model_path + " input " + std::to_string(k) + " is " + declared[k].text() +
                    ", the graph binds " + g.to_text() + " to '" + param + "'");
      }
      if (k == 0) {
        m.in_name = declared[0].name;
        continue;
      }
      Impl::Extra e;
      e.name = declared[k].name;
      e.shape.assign(g.dims.begin(), g.dims.end());
      e.depth = cv_depth(g.type);
      if (e.depth < 0) throw Error("OpenCV backend: input type " + std::string(to_string(g.type)) + " of '" + param + "' is not supported");
      e.zeros = cv::Mat(static_cast<int>(e.shape.size()), e.shape.data(), e.depth, cv::Scalar(0));
      e.selected = e.zeros;
      m.extra.push_back(std::move(e));
    }
  }

  // One forward on zeros tells the output shapes (they are not queryable before a forward in 4.6).
  cv::Mat zeros(static_cast<int>(m.in_shape.size()), m.in_shape.data(), m.in_depth, cv::Scalar(0));
  try {
    m.net.setInput(zeros, m.in_name);
    for (const auto& e : m.extra) m.net.setInput(e.selected, e.name);
    m.net.forward(m.outs, m.out_names);
  } catch (const cv::Exception& e) {
    const std::string declared = onnx_declared_input(model_path);
    const std::string why = e.err.empty() ? std::string(e.what()) : e.err;
    if (!declared.empty())
      throw Error("model " + model_path + " expects input " + declared + ", the graph's input tensor is " +
                  options.input.to_text() + " (OpenCV DNN: " + why + ")");
    throw Error("OpenCV DNN forward of " + model_path + " with input " + options.input.to_text() + " failed: " + why +
                " (check the tensor's dims and layout against the model's input)");
  }
  ModelInfo info;
  TensorDesc in = options.input;
  in.name = m.in_name.empty() ? "input" : std::string(m.in_name);
  info.inputs.push_back(in);
  for (std::size_t k = 0; k < m.extra.size(); ++k) {
    TensorDesc x = options.extra_inputs[k];
    x.name = m.extra[k].name;
    info.inputs.push_back(x);
  }
  m.out_bytes.clear();
  for (std::size_t i = 0; i < m.outs.size(); ++i) {
    const cv::Mat& o = m.outs[i];
    TensorDesc d;
    d.name = i < m.out_names.size() ? m.out_names[i] : "out" + std::to_string(i);
    for (int k = 0; k < o.dims; ++k) d.dims.push_back(o.size[k]);
    d.type = kind_of_depth(o.depth());
    d.layout = Layout::unspecified;
    info.outputs.push_back(d);
    m.out_bytes.push_back(o.total() * o.elemSize());
  }
  info.detail = "OpenCV " + std::string(CV_VERSION) + " DNN (CPU), " + std::to_string(info.outputs.size()) +
                " outputs";
  for (int i = 0; i < options.warmup; ++i) {
    m.net.setInput(zeros, m.in_name);
    for (const auto& e : m.extra) m.net.setInput(e.selected, e.name);
    m.net.forward(m.outs, m.out_names);
  }
  return info;
}

void OpencvBackend::bind_inputs(std::span<const MemoryBlock> buffers) {
  Impl& m = *impl_;
  std::size_t need = CV_ELEM_SIZE(m.in_depth);
  for (int d : m.in_shape) need *= static_cast<std::size_t>(d);
  m.inputs.clear();
  for (std::size_t k = 0; k < buffers.size(); ++k) {
    if (buffers[k].data == nullptr || buffers[k].size < need) {
      throw Error("OpenCV backend: input buffer " + std::to_string(k) + " holds " +
                  std::to_string(buffers[k].size) + " bytes, the model input needs " + std::to_string(need));
    }
    m.inputs.emplace_back(static_cast<int>(m.in_shape.size()), m.in_shape.data(), m.in_depth, buffers[k].data);
  }
}

void OpencvBackend::bind_extra_inputs(std::size_t input, std::span<const MemoryBlock> buffers) {
  Impl& m = *impl_;
  if (input == 0 || input > m.extra.size()) {
    throw Error("OpenCV backend (" + m.model + "): 'input" + std::to_string(input) + "' is bound but the model has " +
                std::to_string(m.extra.size() + 1) + " input(s)");
  }
  Impl::Extra& e = m.extra[input - 1];
  const std::size_t need = mat_bytes(e.shape, e.depth);
  e.mats.clear();
  for (std::size_t k = 0; k < buffers.size(); ++k) {
    if (buffers[k].data == nullptr || buffers[k].size < need) {
      throw Error("OpenCV backend: 'input" + std::to_string(input) + "' buffer " + std::to_string(k) + " holds " +
                  std::to_string(buffers[k].size) + " bytes, the model input needs " + std::to_string(need));
    }
    e.mats.emplace_back(static_cast<int>(e.shape.size()), e.shape.data(), e.depth, buffers[k].data);
  }
  e.selected = e.mats.empty() ? e.zeros : e.mats[0];
}

Status OpencvBackend::select_extra_input(std::size_t input, std::size_t bound_index, const MemoryBlock& block,
                                         bool& converted) noexcept {
  Impl& m = *impl_;
  converted = false;  // wrapped, never copied
  last_failure_ = {};
  if (input == 0 || input > m.extra.size()) return Status::invalid_argument;
  Impl::Extra& e = m.extra[input - 1];
  if (bound_index < e.mats.size()) {
    e.selected = e.mats[bound_index];
    return Status::ok;
  }
  if (block.data == nullptr) {
    last_failure_ = "an extra input is device-only memory (no CPU address); the OpenCV backend reads through one";
    return Status::not_supported;
  }
  if (block.size < mat_bytes(e.shape, e.depth)) {
    last_failure_ = "an extra input's buffer is smaller than the model input";
    return Status::invalid_argument;
  }
  try {
    e.selected = cv::Mat(static_cast<int>(e.shape.size()), e.shape.data(), e.depth, block.data);
  } catch (...) {
    return Status::inference_error;
  }
  return Status::ok;
}

Status OpencvBackend::run(std::size_t input_index, std::span<void* const> outputs) noexcept {
  Impl& m = *impl_;
  if (input_index >= m.inputs.size()) return Status::invalid_argument;
  return forward(m.inputs[input_index], outputs);
}

Status OpencvBackend::run_imported(const MemoryBlock& input, std::span<void* const> outputs,
                                   bool& converted) noexcept {
  Impl& m = *impl_;
  converted = false;  // the imported memory is wrapped, never copied
  last_failure_ = {};
  if (input.data == nullptr) {
    last_failure_ = "the input is device-only memory (no CPU address); the OpenCV backend reads through one";
    return Status::not_supported;
  }
  std::size_t need = CV_ELEM_SIZE(m.in_depth);
  for (int d : m.in_shape) need *= static_cast<std::size_t>(d);
  if (input.size < need) {
    last_failure_ = "the imported buffer is smaller than the model input";
    return Status::invalid_argument;
  }
  try {
    // A 4-D Mat header allocates its size/step arrays: acceptable here (forward() allocates anyway).
    const cv::Mat header(static_cast<int>(m.in_shape.size()), m.in_shape.data(), m.in_depth, input.data);
    return forward(header, outputs);
  } catch (...) {
    last_code_ = -1;
    return Status::inference_error;
  }
}

Status OpencvBackend::forward(const cv::Mat& input, std::span<void* const> outputs) noexcept {
  Impl& m = *impl_;
  if (outputs.size() < m.out_bytes.size()) return Status::invalid_argument;
  const auto t0 = std::chrono::steady_clock::now();
  try {
    m.net.setInput(input, m.in_name);
    for (const auto& e : m.extra) m.net.setInput(e.selected, e.name);
    m.net.forward(m.outs, m.out_names);
  } catch (...) {
    last_code_ = -1;
    return Status::inference_error;
  }
  last_run_us_ =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count();
  for (std::size_t i = 0; i < m.out_bytes.size(); ++i) {
    const cv::Mat& o = m.outs[i];
    if (!o.isContinuous() || o.total() * o.elemSize() != m.out_bytes[i]) {
      last_code_ = -2;  // the net changed an output shape after load
      return Status::inference_error;
    }
    if (outputs[i] != nullptr) std::memcpy(outputs[i], o.data, m.out_bytes[i]);
  }
  last_code_ = 0;
  return Status::ok;
}

}  // namespace vg::inference
