// `doctor --board` as a library (vg::inference::run_board_check) against the stand-in runtime: which checks
// pass, fail and are skipped on this machine (no rknpu driver, no DMA heap), and that the per-core frames
// run on the cores the SoC has.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "fake_rknnrt/fake_control.hpp"
#include "visiongraph/kernels/inference/board_check.hpp"

namespace {

using vg::inference::BoardCheck;
using vg::inference::BoardCheckOptions;
using vg::test::FakeRknnrt;

const BoardCheck* find(const vg::inference::BoardReport& r, const std::string& name) {
  for (const BoardCheck& c : r.checks) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

class BoardCheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::getenv("VG_NPU_CORES") != nullptr) GTEST_SKIP() << "VG_NPU_CORES overrides the device tree";
    fake_ = std::make_unique<FakeRknnrt>(VG_FAKE_RKNNRT_PATH);
    options_.runtime_path = VG_FAKE_RKNNRT_PATH;
    options_.model_path = vg::test::write_fake_model("board_check.rknn", "input 1 4 4 3\noutput 1 10 2 2\n");
    options_.librga_path = "/nonexistent/librga.so";
  }
  /// A device tree naming @p soc (NUL-separated compatible strings, as the kernel exposes them).
  void soc(const std::string& name) {
    options_.device_tree_compatible = ::testing::TempDir() + "vg_board_compatible";
    std::ofstream f(options_.device_tree_compatible, std::ios::binary);
    std::string entries = "vendor,board";
    entries.push_back('\0');
    entries.append("rockchip,").append(name);
    entries.push_back('\0');
    f.write(entries.data(), static_cast<std::streamsize>(entries.size()));
  }

  std::unique_ptr<FakeRknnrt> fake_;
  BoardCheckOptions options_;
};

TEST_F(BoardCheckTest, OnAnRk3588EachOfTheThreeCoresRunsAFrame) {
  soc("rk3588");
  fake_->reset_log();
  const auto r = vg::inference::run_board_check(options_);
  const std::string text = vg::inference::format(r);
  for (int core = 0; core < 3; ++core) {
    const BoardCheck* c = find(r, "frame on NPU core " + std::to_string(core));
    ASSERT_NE(c, nullptr) << text;
    EXPECT_EQ(c->result, BoardCheck::Result::pass) << c->detail;
    EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_set_core_mask mask=" + std::to_string(1 << core) + " rc=0"), 1);
  }
  EXPECT_EQ(find(r, "SoC and NPU cores")->result, BoardCheck::Result::pass);
  EXPECT_NE(find(r, "SoC and NPU cores")->detail.find("rk3588, 3 cores"), std::string::npos);
  // This machine: no rknpu driver, no DMA heap, so the input is a memfd the stand-in binds but a device could not.
  EXPECT_EQ(find(r, "rknpu driver")->result, BoardCheck::Result::fail);
  EXPECT_EQ(find(r, "DMA heaps")->result, BoardCheck::Result::fail);
  const BoardCheck* bound = find(r, "DMA-BUF bound with rknn_create_mem_from_fd");
  ASSERT_NE(bound, nullptr);
  EXPECT_EQ(bound->result, BoardCheck::Result::fail);
  EXPECT_NE(bound->detail.find("48 bytes from memfd bound, but it is not a DMA-BUF"), std::string::npos) << bound->detail;
  EXPECT_GE(fake_->counter("create_mem_from_fd"), 3) << "each frame's context bound the buffer by its fd";
  EXPECT_EQ(fake_->counter("dups"), 3) << "the frames' contexts are duplicates of one loaded model, as replicas are";
  EXPECT_EQ(find(r, "librga")->result, BoardCheck::Result::skip);
  EXPECT_FALSE(r.passed());
  EXPECT_NE(text.find("\nFAIL  rknpu driver: "), std::string::npos) << text;
  EXPECT_NE(text.find("\nPASS  frame on NPU core 2: "), std::string::npos) << text;
  EXPECT_NE(text.find("checks failed (2 skipped)"), std::string::npos) << text;
  EXPECT_EQ(fake_->live_contexts(), 0) << "every context of the check is gone";
  EXPECT_EQ(fake_->live_mems(), 0);
}

TEST_F(BoardCheckTest, LibrgaReportsItsVersionThroughQuerystring) {
  options_.librga_path = VG_FAKE_LIBRGA_PATH;
  const auto r = vg::inference::run_board_check(options_);
  const BoardCheck* c = find(r, "librga");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->result, BoardCheck::Result::pass);
  EXPECT_NE(c->detail.find("RGA_api version       : 1.10.1_[0] (stand-in) RGA_driver version    : 1.3.1"),
            std::string::npos)
      << c->detail;
  options_.librga_path = VG_FAKE_RKNNRT_PATH;  // a library without querystring
  const auto without = vg::inference::run_board_check(options_);
  const BoardCheck* wrong = find(without, "librga");
  ASSERT_NE(wrong, nullptr);
  EXPECT_EQ(wrong->result, BoardCheck::Result::fail);
  EXPECT_NE(wrong->detail.find("does not export querystring"), std::string::npos) << wrong->detail;
}

TEST_F(BoardCheckTest, TheRgaLetterboxLineComesFromTheRgaModuleOrSaysItIsMissing) {
  const auto without = vg::inference::run_board_check(options_);
  const BoardCheck* skipped = find(without, "RGA letterbox vs the CPU one");
  ASSERT_NE(skipped, nullptr);
  EXPECT_EQ(skipped->result, BoardCheck::Result::skip);
  EXPECT_NE(skipped->detail.find("no vg.rga module"), std::string::npos) << skipped->detail;
  options_.rga_letterbox_check = [] {
    BoardCheck c;
    c.result = BoardCheck::Result::fail;
    c.detail = "the first RGA job failed";
    return c;
  };
  const auto with = vg::inference::run_board_check(options_);
  const BoardCheck* ran = find(with, "RGA letterbox vs the CPU one");
  ASSERT_NE(ran, nullptr);
  EXPECT_EQ(ran->result, BoardCheck::Result::fail);
  EXPECT_EQ(ran->detail, "the first RGA job failed");
  EXPECT_FALSE(with.passed());
}

TEST_F(BoardCheckTest, AOneCoreSocRunsOneFrameWithoutSettingACoreMask) {
  soc("rk3566");
  fake_->reset_log();
  const auto r = vg::inference::run_board_check(options_);
  const BoardCheck* c = find(r, "frame on the NPU (one core)");
  ASSERT_NE(c, nullptr) << vg::inference::format(r);
  EXPECT_EQ(c->result, BoardCheck::Result::pass) << c->detail;
  EXPECT_EQ(find(r, "frame on NPU core 0"), nullptr);
  EXPECT_EQ(FakeRknnrt::count(fake_->log(), "rknn_set_core_mask"), 0) << "only multi-core NPUs take a core mask";
}

TEST_F(BoardCheckTest, AFailingRunIsAFailedCheckWithTheRuntimeCode) {
  soc("rk3566");
  fake_->set("fail_runs", 1);  // the frame's run (the check loads with warmup 0, so it is the first)
  const auto r = vg::inference::run_board_check(options_);
  const BoardCheck* c = find(r, "frame on the NPU (one core)");
  ASSERT_NE(c, nullptr) << vg::inference::format(r);
  EXPECT_EQ(c->result, BoardCheck::Result::fail);
  EXPECT_NE(c->detail.find("runtime code -1"), std::string::npos) << c->detail;
}

TEST_F(BoardCheckTest, WithoutAModelTheRuntimeChecksAreSkippedAndAMissingRuntimeFails) {
  options_.model_path.clear();
  auto r = vg::inference::run_board_check(options_);
  EXPECT_EQ(find(r, "librknnrt")->result, BoardCheck::Result::pass);
  EXPECT_EQ(find(r, "frames on the NPU cores")->result, BoardCheck::Result::skip);
  EXPECT_EQ(find(r, "frames on the NPU cores")->detail, "needs --model M.rknn");
  options_.runtime_path = "/nonexistent/librknnrt.so";
  r = vg::inference::run_board_check(options_);
  EXPECT_EQ(find(r, "librknnrt")->result, BoardCheck::Result::fail);
  EXPECT_NE(find(r, "librknnrt")->detail.find("/nonexistent/librknnrt.so not found"), std::string::npos);
}

}  // namespace
