#include "visiongraph/kernels/inference/opencv_backend.hpp"

#include <chrono>
#include <cstring>
#include <filesystem>
#include <opencv2/core.hpp>
#include <opencv2/dnn.hpp>

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

  // One forward on zeros tells the output shapes (they are not queryable before a forward in 4.6).
  cv::Mat zeros(static_cast<int>(m.in_shape.size()), m.in_shape.data(), m.in_depth, cv::Scalar(0));
  try {
    m.net.setInput(zeros);
    m.net.forward(m.outs, m.out_names);
  } catch (const cv::Exception& e) {
    throw Error("OpenCV DNN forward of " + model_path + " with input " + options.input.to_text() +
                " failed: " + e.what());
  }
  ModelInfo info;
  TensorDesc in = options.input;
  if (in.name.empty()) in.name = "input";
  info.inputs.push_back(in);
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
    m.net.setInput(zeros);
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
    m.net.setInput(input);
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
