#pragma once
/// @file
/// @brief Inference on the CPU through OpenCV DNN (ONNX and every format cv::dnn::readNet reads).

#include <memory>

namespace cv {
class Mat;
}

#include "visiongraph/kernels/inference/backend.hpp"

namespace vg::inference {

/// @brief OpenCV DNN backend: readNet once, learn the outputs with one forward on zeros, warm up,
///        then per frame setInput on a cv::Mat header over the bound buffer and forward.
///
/// cv::dnn::Net::forward(outputs, names) does not write into caller memory: it makes the Mats
/// headers of the net's internal blobs (no data copy, but a few small heap allocations inside
/// OpenCV per call). The outputs are therefore copied into the graph's tensors (a few KB for
/// BlazeFace). 4-D NHWC inputs are passed as 4-D Mats {1,S,S,C} as the models expect.
/// @note Not thread-safe; driven by one worker.
/// @code
/// vg::inference::OpencvBackend be;
/// vg::inference::BackendOptions opt;
/// opt.input.dims = {1, 128, 128, 3};
/// opt.input.layout = vg::inference::Layout::nhwc;
/// auto info = be.load("face_detection_front_128x128_barracuda.onnx", opt);   // 4 outputs
/// @endcode
class OpencvBackend final : public InferenceBackend {
 public:
  OpencvBackend();
  ~OpencvBackend() override;
  std::string_view name() const noexcept override { return "opencv"; }
  ModelInfo load(const std::string& model_path, const BackendOptions& options) override;
  void bind_inputs(std::span<const MemoryBlock> buffers) override;
  Status run(std::size_t input_index, std::span<void* const> outputs) noexcept override;
  Status run_imported(const MemoryBlock& input, std::span<void* const> outputs, bool& converted) noexcept override;
  std::string_view last_failure() const noexcept override { return last_failure_; }
  void bind_extra_inputs(std::size_t input, std::span<const MemoryBlock> buffers) override;
  Status select_extra_input(std::size_t input, std::size_t bound_index, const MemoryBlock& block,
                            bool& converted) noexcept override;
  Status set_core_mask(int /*mask*/) noexcept override { return Status::not_supported; }
  std::int64_t last_run_time_us() const noexcept override { return last_run_us_; }
  int last_runtime_code() const noexcept override { return last_code_; }

 private:
  Status forward(const cv::Mat& input, std::span<void* const> outputs) noexcept;
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::int64_t last_run_us_ = 0;
  int last_code_ = 0;
  std::string_view last_failure_;  // static text
};

}  // namespace vg::inference
