#include <gtest/gtest.h>

#include "visiongraph/visiongraph.hpp"

namespace {

std::string load_error(vg::Context& ctx, const std::string& path) {
  try {
    ctx.load_module_library(path);
  } catch (const vg::Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(ModuleLibraryTest, ALibraryModuleRegistersItsKernelsAndRuns) {
  vg::Context ctx;
  EXPECT_EQ(ctx.load_module_library(VG_TEST_MODULE_PATH), "plugin.negate");
  ASSERT_NE(ctx.find_kernel("plugin.negate"), nullptr);
  {
    vg::Graph g(ctx);
    auto in = g.add_data("in", vg::DataMeta::scalar_of(vg::ElementType::f64));
    auto out = g.add_virtual("out", vg::DataKind::scalar);
    g.bind(g.add_node("neg", "plugin.negate"), "in", in).bind(g.find_node("neg"), "out", out);
    g.verify();
    g.scalar(in).set(2.5);
    ASSERT_EQ(g.process(), vg::Status::ok);
    EXPECT_DOUBLE_EQ(g.scalar(out).get<double>(), -2.5);
    EXPECT_NE(load_error(ctx, VG_TEST_MODULE_PATH).find("already loaded"), std::string::npos);
    EXPECT_THROW(ctx.unload_module("plugin.negate"), vg::Error);
  }
  ctx.unload_module("plugin.negate");
  EXPECT_EQ(ctx.find_kernel("plugin.negate"), nullptr);
  EXPECT_EQ(ctx.load_module_library(VG_TEST_MODULE_PATH), "plugin.negate");  // reload works
}

TEST(ModuleLibraryTest, MissingFilesAndLibrariesWithoutTheEntryPointAreClearErrors) {
  vg::Context ctx;
  const auto missing = load_error(ctx, "/nonexistent/libnothing.so");
  EXPECT_NE(missing.find("'/nonexistent/libnothing.so': cannot load"), std::string::npos) << missing;
  const auto wrong = load_error(ctx, VG_TEST_NOT_A_MODULE_PATH);
  EXPECT_NE(wrong.find("missing entry point"), std::string::npos) << wrong;
  EXPECT_TRUE(ctx.modules().empty());
}

}  // namespace
