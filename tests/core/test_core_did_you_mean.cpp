// "Did you mean …?": the edit-distance helper, and the C++ API exceptions for unknown kernel,
// parameter, attribute and target names that carry its suggestion.

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "visiongraph/core/did_you_mean.hpp"
#include "visiongraph/kernels/examples/module.hpp"
#include "visiongraph/visiongraph.hpp"

namespace {

#define EXPECT_HAS(haystack, needle) EXPECT_NE((haystack).find(needle), std::string::npos) << (haystack)
#define EXPECT_HAS_NOT(haystack, needle) EXPECT_EQ((haystack).find(needle), std::string::npos) << (haystack)

TEST(EditDistanceTest, CountsInsertionsDeletionsSubstitutionsAndTranspositions) {
  EXPECT_EQ(vg::edit_distance("", ""), 0u);
  EXPECT_EQ(vg::edit_distance("abc", ""), 3u);
  EXPECT_EQ(vg::edit_distance("", "abc"), 3u);
  EXPECT_EQ(vg::edit_distance("bias", "bias"), 0u);
  EXPECT_EQ(vg::edit_distance("bias", "biass"), 1u);   // insertion
  EXPECT_EQ(vg::edit_distance("factor", "facor"), 1u);  // deletion
  EXPECT_EQ(vg::edit_distance("input", "imput"), 1u);   // substitution
  EXPECT_EQ(vg::edit_distance("input", "inptu"), 1u);   // neighbours swapped: one edit, not two
  EXPECT_EQ(vg::edit_distance("kitten", "sitting"), 3u);
}

TEST(EditDistanceTest, IgnoresAsciiCase) {
  EXPECT_EQ(vg::edit_distance("Input", "input"), 0u);
  EXPECT_EQ(vg::edit_distance("VG.EXAMPLE.ADD", "vg.example.add"), 0u);
}

TEST(DidYouMeanTest, SuggestsOnlyCloseNames) {
  const std::vector<std::string> names{"threshold", "iou_threshold", "max_detections", "anchors"};
  EXPECT_EQ(vg::closest_name("treshold", names), "threshold");
  EXPECT_EQ(vg::closest_name("IOU_threshold", names), "iou_threshold");
  EXPECT_EQ(vg::closest_name("anchros", names), "anchors");
  EXPECT_EQ(vg::closest_name("colour", names), std::nullopt);  // nothing alike
  EXPECT_EQ(vg::closest_name("x", std::vector<std::string>{"a", "b"}), std::nullopt);  // a complete rewrite
  EXPECT_EQ(vg::closest_name("x", std::vector<std::string>{}), std::nullopt);
  EXPECT_EQ(vg::did_you_mean("treshold", names), "did you mean 'threshold'?");
  EXPECT_EQ(vg::did_you_mean("colour", names), "");
}

TEST(DidYouMeanTest, TheLimitGrowsWithTheLengthOfTheName) {
  // max(1, size/3): 1 edit for short names, 3 for a 9..11 character name.
  EXPECT_EQ(vg::closest_name("ab", std::vector<std::string>{"ax"}), "ax");
  EXPECT_EQ(vg::closest_name("abcd", std::vector<std::string>{"axyd"}), std::nullopt);
  EXPECT_EQ(vg::closest_name("abcdefghi", std::vector<std::string>{"abcdefxyz"}), "abcdefxyz");
  EXPECT_EQ(vg::closest_name("abcdefghi", std::vector<std::string>{"abcdewxyz"}), std::nullopt);
}

TEST(DidYouMeanTest, PicksTheClosestAndOnTiesTheFirst) {
  EXPECT_EQ(vg::closest_name("out1", std::vector<std::string>{"out0", "out1x", "out1"}), "out1");
  EXPECT_EQ(vg::closest_name("outx", std::vector<std::string>{"out0", "out1"}), "out0");
}

class DidYouMeanGraphTest : public ::testing::Test {
 protected:
  void SetUp() override { ctx.load_module(vg::examples::make_module()); }

  std::string error_of(const std::function<void()>& f) {
    try {
      f();
    } catch (const vg::Error& e) {
      return e.what();
    }
    return "no error";
  }

  vg::Context ctx;
};

TEST_F(DidYouMeanGraphTest, UnknownKernelSuggestsTheRegisteredOne) {
  vg::Graph g(ctx, "g");
  const std::string msg = error_of([&] { (void)g.add_node("n", "vg.example.scael"); });
  EXPECT_HAS(msg, "unknown kernel 'vg.example.scael'");
  EXPECT_HAS(msg, "did you mean 'vg.example.scale'?");
  EXPECT_HAS_NOT(error_of([&] { (void)g.add_node("n", "acme.blur"); }), "did you mean");
}

TEST_F(DidYouMeanGraphTest, UnknownParameterSuggestsTheDeclaredOne) {
  vg::Graph g(ctx, "g");
  const vg::NodeId n = g.add_node("scale", "vg.example.scale");
  const vg::DataId d = g.add_data("d", vg::DataMeta::scalar_of(vg::ElementType::f64));
  const std::string msg = error_of([&] { g.bind(n, "inn", d); });
  EXPECT_HAS(msg, "no parameter 'inn'");
  EXPECT_HAS(msg, "did you mean 'in'?");
  EXPECT_HAS(error_of([&] { (void)g.add_graph_parameter(n, "Out", 2); }), "did you mean 'out'?");
  EXPECT_HAS_NOT(error_of([&] { g.bind(n, "image", d); }), "did you mean");
}

TEST_F(DidYouMeanGraphTest, UnknownAttributeSuggestsTheDeclaredOne) {
  vg::Graph g(ctx, "g");
  const vg::NodeId n = g.add_node("scale", "vg.example.scale");
  g.bind(n, "in", g.add_data("a", vg::DataMeta::scalar_of(vg::ElementType::f64)));
  g.bind(n, "out", g.add_virtual("b", vg::DataKind::scalar));
  g.set_attribute(n, "facter", 2.0);
  const std::string msg = error_of([&] { g.verify(); });
  EXPECT_HAS(msg, "unknown attribute 'facter'");
  EXPECT_HAS(msg, "did you mean 'factor'?");
}

TEST_F(DidYouMeanGraphTest, UnknownTargetSuggestsAConfiguredOne) {
  vg::Graph g(ctx, "g");
  const vg::NodeId n = g.add_node("scale", "vg.example.scale");
  g.bind(n, "in", g.add_data("a", vg::DataMeta::scalar_of(vg::ElementType::f64)));
  g.bind(n, "out", g.add_virtual("b", vg::DataKind::scalar));
  g.set_target(n, "cpu9");
  const std::string msg = error_of([&] { g.verify(); });
  EXPECT_HAS(msg, "unknown target 'cpu9'");
  EXPECT_HAS(msg, "did you mean 'cpu0'?");
}

}  // namespace
