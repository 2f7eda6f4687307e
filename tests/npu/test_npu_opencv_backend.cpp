// OpenCV DNN backend on the BlazeFace models: outputs equal a direct cv::dnn::Net::forward bit for bit.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <opencv2/core.hpp>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/dnn.hpp>
#include <ostream>
#include <random>

#include "fake_rknnrt/fake_control.hpp"
#include "visiongraph/core/error.hpp"
#include "visiongraph/kernels/inference/opencv_backend.hpp"

namespace {

using namespace vg;
using namespace vg::inference;

struct ModelCase {
  const char* file;
  int size;
};
// Readable test names in ctest (the default would print the struct's bytes).
void PrintTo(const ModelCase& c, std::ostream* os) { *os << c.file; }

class OpencvBackendTest : public ::testing::TestWithParam<ModelCase> {
 protected:
  void SetUp() override {
    path_ = vg::test::assets_dir() + "/" + GetParam().file;
    if (!std::filesystem::exists(path_)) {
      GTEST_SKIP() << "model missing: " << path_
                   << " (run scripts/fetch_assets.sh or set VG_ASSETS_DIR; see docs/npu.md)";
    }
    const int s = GetParam().size;
    options_.input.dims = {1, s, s, 3};
    options_.input.type = ElementKind::f32;
    options_.input.layout = Layout::nhwc;
    // Two input buffers with different deterministic content in [-1, 1] (the models' range).
    std::mt19937 rng(1234);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (auto& buf : inputs_) {
      buf.resize(static_cast<std::size_t>(s) * s * 3);
      for (float& v : buf) v = dist(rng);
    }
    for (std::size_t k = 0; k < 2; ++k) {
      blocks_[k].data = inputs_[k].data();
      blocks_[k].size = inputs_[k].size() * sizeof(float);
    }
  }

  std::vector<cv::Mat> direct_forward(const std::vector<float>& input) const {
    cv::dnn::Net net = cv::dnn::readNet(path_);
    const int s = GetParam().size;
    const int shape[4] = {1, s, s, 3};
    cv::Mat blob(4, shape, CV_32F, const_cast<float*>(input.data()));
    net.setInput(blob);
    std::vector<cv::Mat> outs;
    net.forward(outs, net.getUnconnectedOutLayersNames());
    for (auto& o : outs) o = o.clone();
    return outs;
  }

  std::string path_;
  BackendOptions options_;
  std::vector<float> inputs_[2];
  MemoryBlock blocks_[2];
};

TEST_P(OpencvBackendTest, LoadReportsFourBlazeFaceOutputs) {
  OpencvBackend sut;
  const ModelInfo info = sut.load(path_, options_);
  ASSERT_EQ(info.outputs.size(), 4u);
  EXPECT_EQ(info.outputs[0].name, "Identity:0");
  EXPECT_EQ(info.outputs[0].dims, (std::vector<std::int64_t>{1, 512, 1}));
  EXPECT_EQ(info.outputs[1].dims, (std::vector<std::int64_t>{1, 384, 1}));
  EXPECT_EQ(info.outputs[2].dims, (std::vector<std::int64_t>{1, 512, 16}));
  EXPECT_EQ(info.outputs[3].dims, (std::vector<std::int64_t>{1, 384, 16}));
  for (const auto& o : info.outputs) EXPECT_EQ(o.type, ElementKind::f32);
}

TEST_P(OpencvBackendTest, OutputsMatchDirectForwardBitForBit) {
  OpencvBackend sut;
  const ModelInfo info = sut.load(path_, options_);
  sut.bind_inputs(blocks_);
  std::vector<std::vector<float>> outs(info.outputs.size());
  std::vector<void*> ptrs;
  for (std::size_t i = 0; i < outs.size(); ++i) {
    outs[i].assign(info.outputs[i].element_count(), -7.0f);
    ptrs.push_back(outs[i].data());
  }
  for (std::size_t k : {std::size_t{1}, std::size_t{0}, std::size_t{1}}) {
    ASSERT_EQ(sut.run(k, ptrs), Status::ok);
    const std::vector<cv::Mat> ref = direct_forward(inputs_[k]);
    ASSERT_EQ(ref.size(), outs.size());
    for (std::size_t i = 0; i < outs.size(); ++i) {
      ASSERT_EQ(ref[i].total(), outs[i].size());
      EXPECT_EQ(std::memcmp(ref[i].ptr<float>(), outs[i].data(), outs[i].size() * sizeof(float)), 0)
          << "output " << i << " of buffer " << k << " differs from cv::dnn::Net::forward";
    }
  }
  EXPECT_GT(sut.last_run_time_us(), 0);
}

TEST_P(OpencvBackendTest, WrongInputShapeIsALoadError) {
  options_.input.dims = {1, 3, 7, 7};
  OpencvBackend sut;
  // OpenCV logs the failing layer at ERROR level before throwing; the throw is what matters here.
  const auto level = cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
  EXPECT_THROW((void)sut.load(path_, options_), Error);
  cv::utils::logging::setLogLevel(level);
}

INSTANTIATE_TEST_SUITE_P(BlazeFace, OpencvBackendTest,
                         ::testing::Values(ModelCase{"face_detection_front_128x128_barracuda.onnx", 128},
                                           ModelCase{"face_detection_back_256x256_barracuda.onnx", 256}),
                         [](const auto& info) { return std::to_string(info.param.size); });

TEST(OpencvBackendErrorTest, MissingModelIsALoadErrorNamingThePath) {
  OpencvBackend sut;
  BackendOptions opt;
  opt.input.dims = {1, 8, 8, 3};
  try {
    (void)sut.load("/nonexistent/model.onnx", opt);
    FAIL() << "expected vg::Error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/model.onnx"), std::string::npos) << e.what();
  }
}

TEST(OpencvBackendErrorTest, FactoryResolvesAutoByExtension) {
  EXPECT_EQ(resolve_backend_kind("auto", "a/b/model.rknn"), "rknn");
  EXPECT_EQ(resolve_backend_kind("auto", "a/b/model.onnx"), "opencv");
  EXPECT_EQ(resolve_backend_kind("opencv", "x.rknn"), "opencv");
  EXPECT_THROW((void)resolve_backend_kind("tflite", "x"), Error);
  EXPECT_EQ(make_backend("auto", "m.onnx")->name(), "opencv");
  EXPECT_EQ(make_backend("auto", "m.rknn")->name(), "rknn");
}

}  // namespace
