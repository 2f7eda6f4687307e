// The vg.vision tensor kernels (tensor_add, tensor_subtract, tensor_multiply, tensor_table_lookup,
// tensor_transpose, tensor_convert_depth, tensor_matrix_multiply): each graph's output is the library
// function's (tensor_ops.hpp) on the same tensors, a few values are checked from the definition by hand (so a
// dimension read the wrong way round shows), verify names the parameter or attribute for a tensor that is not
// fixed-point, a shape mismatch and a bad attribute, and a graph of them allocates nothing after verify.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "alloc_counter.hpp"
#include "visiongraph/kernels/vision/tensor_ops.hpp"
#include "visiongraph/visiongraph.hpp"
#include "vision_kernel_test.hpp"

namespace {

using vg::DataId;
using vg::DataKind;
using vg::DataMeta;
using vg::ElementType;
namespace vv = vg::vision;
using vg::vision::test::verify_error;
vg::Context& context() { return vg::vision::test::vision_context(); }

/// A fixed-point tensor: zero_point 0, scale 2^-position.
DataMeta fixed(std::initializer_list<std::int64_t> dims, ElementType type, int position = 0) {
  DataMeta m = DataMeta::tensor_of(dims, type);
  m.tensor.scale = std::ldexp(1.0f, -position);
  return m;
}

void fill_random(const vg::TensorView& t, unsigned seed) {
  std::mt19937 rng(seed);
  auto* bytes = static_cast<unsigned char*>(t.data());
  for (std::size_t i = 0; i < t.byte_size(); ++i) bytes[i] = static_cast<unsigned char>(rng());
}

vv::TensorType type_of(ElementType t) {
  return t == ElementType::i16 ? vv::TensorType::s16 : t == ElementType::i8 ? vv::TensorType::s8 : vv::TensorType::u8;
}

/// The library's reading of a dense native tensor: dimensions reversed (its 0 the innermost).
vv::TensorShape shape_of(const vg::TensorMeta& t) {
  vv::TensorShape s;
  s.rank = t.rank;
  for (std::uint32_t d = 0; d < t.rank; ++d) s.dims[d] = static_cast<std::size_t>(t.dims[t.rank - 1 - d]);
  return s;
}
std::array<std::ptrdiff_t, vv::kMaxTensorRank> strides_of(const vg::TensorMeta& t, const vg::TensorMeta* broadcast_to = nullptr) {
  std::array<std::ptrdiff_t, vv::kMaxTensorRank> s{};
  std::ptrdiff_t step = static_cast<std::ptrdiff_t>(vg::element_size(t.type));
  for (std::uint32_t d = 0; d < t.rank; ++d) {
    const auto n = t.dims[t.rank - 1 - d];
    s[d] = broadcast_to != nullptr && n != broadcast_to->dims[t.rank - 1 - d] ? 0 : step;
    step *= static_cast<std::ptrdiff_t>(n);
  }
  return s;
}

std::vector<unsigned char> bytes_of(const vg::TensorView& t) {
  const auto* p = static_cast<const unsigned char*>(t.data());
  return {p, p + t.byte_size()};
}

std::int16_t s16_at(const vg::TensorView& t, std::size_t i) {
  std::int16_t v;
  std::memcpy(&v, static_cast<const unsigned char*>(t.data()) + 2 * i, 2);
  return v;
}

// tensor_add, tensor_subtract and tensor_multiply with broadcasting, every type and policy: the library's result.
TEST(VisionTensorKernels, ElementwiseKernelsAreTheLibrarysFunctions) {
  const std::pair<ElementType, int> formats[] = {{ElementType::u8, 0}, {ElementType::i8, 0}, {ElementType::i16, 8}, {ElementType::i16, 3}};
  unsigned seed = 1;
  for (const auto& [type, position] : formats)
    for (const char* kernel : {"vg.vision.tensor_add", "vg.vision.tensor_subtract", "vg.vision.tensor_multiply"})
      for (const char* overflow : {"saturate", "wrap"})
        for (const char* rounding : {"zero", "nearest_even"}) {
          vg::Graph g(context(), "elementwise");
          const DataId a = g.add_data("a", fixed({3, 4, 5}, type, position));
          const DataId b = g.add_data("b", fixed({3, 1, 5}, type, position));
          const DataId out = g.add_virtual("out", DataKind::tensor);
          const DataId result = g.add_data("result", fixed({3, 4, 5}, type, position));
          const vg::NodeId n = g.add_node("op", kernel);
          g.bind(n, "in1", a).bind(n, "in2", b).bind(n, "out", out).set_attribute(n, "overflow", std::string(overflow));
          const bool multiply = std::string(kernel) == "vg.vision.tensor_multiply";
          if (multiply) g.set_attribute(n, "scale", 0.75).set_attribute(n, "rounding", std::string(rounding));
          const vg::NodeId copy = g.add_node("copy", "vg.vision.tensor_transpose");  // dim1 == dim2: a copy into a graph-owned tensor
          g.bind(copy, "in", out).bind(copy, "out", result).set_attribute(copy, "dim1", std::int64_t{1}).set_attribute(copy, "dim2", std::int64_t{1});
          g.verify();
          fill_random(g.tensor(a), seed++);
          fill_random(g.tensor(b), seed++);
          ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();
          const vg::TensorView ta = g.tensor(a), tb = g.tensor(b), tr = g.tensor(result);
          std::vector<unsigned char> want(tr.byte_size());
          const vv::Overflow o = std::string(overflow) == "wrap" ? vv::Overflow::wrap : vv::Overflow::saturate;
          const vv::ConstTensorRef ra{ta.data(), strides_of(ta.meta())}, rb{tb.data(), strides_of(tb.meta(), &tr.meta())};
          const vv::TensorRef ro{want.data(), strides_of(tr.meta())};
          const vv::TensorShape shape = shape_of(tr.meta());
          if (std::string(kernel) == "vg.vision.tensor_add") {
            ASSERT_TRUE(vv::tensor_add(shape, type_of(type), ra, rb, ro, o));
          } else if (std::string(kernel) == "vg.vision.tensor_subtract") {
            ASSERT_TRUE(vv::tensor_subtract(shape, type_of(type), ra, rb, ro, o));
          } else {
            ASSERT_TRUE(vv::tensor_multiply(shape, type_of(type), position, ra, rb, ro, 0.75f, o, std::string(rounding) == "nearest_even"));
          }
          ASSERT_EQ(bytes_of(tr), want) << kernel << " " << overflow << " " << rounding;
          if (type == ElementType::i16 && !multiply) {  // by hand: element [2][3][4] takes b's [2][0][4]
            const std::int64_t x = s16_at(ta, 2 * 20 + 3 * 5 + 4), y = s16_at(tb, 2 * 5 + 4);
            std::int64_t v = std::string(kernel) == "vg.vision.tensor_add" ? x + y : x - y;
            if (std::string(overflow) == "saturate") v = std::clamp<std::int64_t>(v, -32768, 32767);
            EXPECT_EQ(s16_at(tr, 2 * 20 + 3 * 5 + 4), static_cast<std::int16_t>(v));
          }
          if (!multiply) break;  // rounding only matters to multiply
        }
}

TEST(VisionTensorKernels, TableLookupTransposeAndConvertDepthAreTheLibrarysFunctions) {
  // table lookup, i16 (offset: half the table) and u8
  for (const ElementType type : {ElementType::i16, ElementType::u8}) {
    vg::Graph g(context(), "lookup");
    const DataId in = g.add_data("in", fixed({2, 7, 3}, type, type == ElementType::i16 ? 8 : 0));
    const DataId out = g.add_data("out", fixed({2, 7, 3}, type, type == ElementType::i16 ? 8 : 0));
    std::vector<double> lut(type == ElementType::u8 ? 256 : 1000);
    for (std::size_t i = 0; i < lut.size(); ++i) lut[i] = type == ElementType::u8 ? (i * 7) % 256 : static_cast<double>(i) * 3 - 1500;
    const vg::NodeId n = g.add_node("lut", "vg.vision.tensor_table_lookup");
    g.bind(n, "in", in).bind(n, "out", out).set_attribute(n, "lut", lut);
    g.verify();
    fill_random(g.tensor(in), 11);
    std::memset(g.tensor(out).data(), 0, g.tensor(out).byte_size());
    ASSERT_EQ(g.process(), vg::Status::ok);
    const vg::TensorView ti = g.tensor(in), to = g.tensor(out);
    std::vector<unsigned char> want(to.byte_size(), 0);
    std::vector<std::int16_t> words(lut.begin(), lut.end());
    std::vector<std::uint8_t> bytes(lut.begin(), lut.end());
    const void* table = type == ElementType::u8 ? static_cast<const void*>(bytes.data()) : words.data();
    ASSERT_TRUE(vv::tensor_table_lookup(shape_of(to.meta()), type_of(type), {ti.data(), strides_of(ti.meta())}, {want.data(), strides_of(to.meta())},
                                        table, lut.size(), type == ElementType::u8 ? 0 : lut.size() / 2));
    EXPECT_EQ(bytes_of(to), want);
  }
  // transpose of native dimensions 0 and 2: out[k][j][i] = in[i][j][k]
  {
    vg::Graph g(context(), "transpose");
    const DataId in = g.add_data("in", fixed({2, 3, 4}, ElementType::i16, 8));
    const DataId out = g.add_virtual("out", DataKind::tensor);
    const DataId result = g.add_data("result", fixed({4, 3, 2}, ElementType::i16, 8));
    const vg::NodeId n = g.add_node("t", "vg.vision.tensor_transpose");
    g.bind(n, "in", in).bind(n, "out", out).set_attribute(n, "dim1", std::int64_t{0}).set_attribute(n, "dim2", std::int64_t{2});
    const vg::NodeId copy = g.add_node("copy", "vg.vision.tensor_transpose");
    g.bind(copy, "in", out).bind(copy, "out", result).set_attribute(copy, "dim2", std::int64_t{0});
    g.verify();
    fill_random(g.tensor(in), 5);
    ASSERT_EQ(g.process(), vg::Status::ok);
    for (std::size_t i = 0; i < 2; ++i)
      for (std::size_t j = 0; j < 3; ++j)
        for (std::size_t k = 0; k < 4; ++k) ASSERT_EQ(s16_at(g.tensor(result), k * 6 + j * 2 + i), s16_at(g.tensor(in), i * 12 + j * 4 + k));
  }
  // convert depth Q7.8 -> u8 and u8 -> i8
  for (const auto& [from, from_position, to, to_name] :
       {std::tuple{ElementType::i16, 8, ElementType::u8, "u8"}, std::tuple{ElementType::u8, 0, ElementType::i8, "i8"}}) {
    vg::Graph g(context(), "depth");
    const DataId in = g.add_data("in", fixed({5, 9}, from, from_position));
    const DataId out = g.add_data("out", fixed({5, 9}, to, 0));
    const vg::NodeId n = g.add_node("c", "vg.vision.tensor_convert_depth");
    g.bind(n, "in", in).bind(n, "out", out).set_attribute(n, "type", std::string(to_name));
    g.set_attribute(n, "norm", 0.25).set_attribute(n, "offset", 3.0).set_attribute(n, "overflow", std::string("wrap"));
    g.verify();
    fill_random(g.tensor(in), 8);
    ASSERT_EQ(g.process(), vg::Status::ok);
    const vg::TensorView ti = g.tensor(in), to_view = g.tensor(out);
    std::vector<unsigned char> want(to_view.byte_size());
    ASSERT_TRUE(vv::tensor_convert_depth(shape_of(ti.meta()), type_of(from), from_position, {ti.data(), strides_of(ti.meta())}, type_of(to), 0,
                                         {want.data(), strides_of(to_view.meta())}, vv::Overflow::wrap, 0.25f, 3.0f));
    EXPECT_EQ(bytes_of(to_view), want);
  }
}

TEST(VisionTensorKernels, MatrixMultiplyWithTransposesAndAddendIsTheLibrarysFunction) {
  for (int flags = 0; flags < 8; ++flags)
    for (const bool addend : {false, true}) {
      const bool t1 = flags & 1, t2 = flags & 2, t3 = flags & 4;
      constexpr std::int64_t M = 3, N = 5, K = 4;
      vg::Graph g(context(), "matmul");
      const DataId a = g.add_data("a", t1 ? fixed({N, M}, ElementType::i16, 8) : fixed({M, N}, ElementType::i16, 8));
      const DataId b = g.add_data("b", t2 ? fixed({K, N}, ElementType::i16, 8) : fixed({N, K}, ElementType::i16, 8));
      const DataId c = g.add_data("c", t3 ? fixed({K, M}, ElementType::i16, 8) : fixed({M, K}, ElementType::i16, 8));
      const DataId out = g.add_data("out", fixed({M, K}, ElementType::i16, 8));
      const vg::NodeId n = g.add_node("mm", "vg.vision.tensor_matrix_multiply");
      g.bind(n, "in1", a).bind(n, "in2", b).bind(n, "out", out);
      if (addend) g.bind(n, "in3", c);
      g.set_attribute(n, "transpose1", t1).set_attribute(n, "transpose2", t2).set_attribute(n, "transpose3", t3);
      g.verify();
      for (const DataId d : {a, b, c}) {  // small values: sums stay in range, so rounding is what shows
        auto* v = g.tensor(d).data_as<std::int16_t>();
        std::mt19937 rng(static_cast<unsigned>(d.value + flags));
        for (std::size_t i = 0; i < g.tensor(d).byte_size() / 2; ++i) v[i] = static_cast<std::int16_t>(static_cast<int>(rng() % 1024) - 512);
      }
      ASSERT_EQ(g.process(), vg::Status::ok);
      auto matrix = [&](DataId d, bool transposed) {
        const vg::TensorMeta& t = g.tensor(d).meta();
        const vv::ConstMatrixRef m{g.tensor(d).data(), static_cast<std::size_t>(t.dims[0]), static_cast<std::size_t>(t.dims[1]), static_cast<std::ptrdiff_t>(2 * t.dims[1]), 2};
        return transposed ? m.transposed() : m;
      };
      std::vector<std::int16_t> want(M * K);
      const vv::ConstMatrixRef mc = matrix(c, t3);
      ASSERT_TRUE(vv::tensor_matrix_multiply(vv::TensorType::s16, 8, matrix(a, t1), matrix(b, t2), addend ? &mc : nullptr,
                                             {want.data(), M, K, 2 * K, 2}));
      for (std::int64_t i = 0; i < M * K; ++i) ASSERT_EQ(s16_at(g.tensor(out), static_cast<std::size_t>(i)), want[static_cast<std::size_t>(i)]) << flags;
      // by hand, element [1][2] without transposes: sum of a[1][i] * b[i][2], (+ c[1][2] * 256), rounded half up by 256
      if (flags == 0) {
        std::int64_t sum = 0;
        for (std::int64_t i = 0; i < N; ++i) sum += std::int64_t{s16_at(g.tensor(a), 1 * N + i)} * s16_at(g.tensor(b), i * K + 2);
        if (addend) sum += std::int64_t{s16_at(g.tensor(c), 1 * K + 2)} * 256;
        sum = (sum + 128) / 256;
        EXPECT_EQ(s16_at(g.tensor(out), 1 * K + 2), static_cast<std::int16_t>(std::clamp<std::int64_t>(sum, -32768, 32767)));
      }
    }
}

/// verify's message for a one-node graph of @p kernel, inputs bound by name, output(s) virtual.
std::string error_for(const char* kernel, std::initializer_list<std::pair<const char*, DataMeta>> inputs, std::initializer_list<const char*> outputs,
                      std::initializer_list<std::pair<const char*, vg::AttrValue>> attributes = {}) {
  vg::Graph g(context(), "bad");
  const vg::NodeId n = g.add_node("node", kernel);
  for (const auto& [name, meta] : inputs) g.bind(n, name, g.add_data(name, meta));
  for (const char* name : outputs) g.bind(n, name, g.add_virtual(name, DataKind::tensor));
  for (const auto& [key, value] : attributes) g.set_attribute(n, key, value);
  return verify_error(g);
}

TEST(VisionTensorKernels, VerifyNamesTheParameterOrAttribute) {
  const DataMeta q78 = fixed({3, 4}, ElementType::i16, 8);
  DataMeta not_fixed = q78;
  not_fixed.tensor.scale = 0.3f;
  DataMeta offset_zero = q78;
  offset_zero.tensor.zero_point = 5;
  const auto expect_names = [](const std::string& error, const char* what) { EXPECT_NE(error.find(what), std::string::npos) << error; };

  // not fixed-point: a scale other than 2^-p, a zero point, a float type
  std::string e = error_for("vg.vision.tensor_add", {{"in1", not_fixed}, {"in2", q78}}, {"out"});
  expect_names(e, "'in1'");
  expect_names(e, "fixed-point");
  expect_names(error_for("vg.vision.tensor_multiply", {{"in1", q78}, {"in2", offset_zero}}, {"out"}), "'in2'");
  expect_names(error_for("vg.vision.tensor_transpose", {{"in", DataMeta::tensor_of({3, 4}, ElementType::f32)}}, {"out"}), "'in'");
  expect_names(error_for("vg.vision.tensor_table_lookup", {{"in", fixed({3}, ElementType::i8)}}, {"out"}, {{"lut", std::vector<double>{1, 2}}}),
               "'in'");
  // shape mismatches
  expect_names(error_for("vg.vision.tensor_subtract", {{"in1", q78}, {"in2", fixed({3, 5}, ElementType::i16, 8)}}, {"out"}), "'in2'");
  expect_names(error_for("vg.vision.tensor_add", {{"in1", q78}, {"in2", fixed({3, 4}, ElementType::i16, 7)}}, {"out"}), "'in2'");
  expect_names(error_for("vg.vision.tensor_matrix_multiply", {{"in1", q78}, {"in2", q78}}, {"out"}), "'in2'");
  expect_names(error_for("vg.vision.tensor_matrix_multiply", {{"in1", q78}, {"in2", fixed({4, 2}, ElementType::i16, 8)}, {"in3", q78}}, {"out"}),
               "'in3'");
  expect_names(error_for("vg.vision.tensor_matrix_multiply", {{"in1", fixed({2, 3, 4}, ElementType::i16, 8)}, {"in2", q78}}, {"out"}), "'in1'");
  // bad attributes
  expect_names(error_for("vg.vision.tensor_add", {{"in1", q78}, {"in2", q78}}, {"out"}, {{"overflow", std::string("clamp")}}), "'overflow'");
  expect_names(error_for("vg.vision.tensor_multiply", {{"in1", q78}, {"in2", q78}}, {"out"}, {{"rounding", std::string("up")}}), "'rounding'");
  expect_names(error_for("vg.vision.tensor_multiply", {{"in1", q78}, {"in2", q78}}, {"out"}, {{"scale", -1.0}}), "'scale'");
  expect_names(error_for("vg.vision.tensor_transpose", {{"in", q78}}, {"out"}, {{"dim2", std::int64_t{2}}}), "'dim2'");
  expect_names(error_for("vg.vision.tensor_table_lookup", {{"in", fixed({3}, ElementType::u8)}}, {"out"}, {{"lut", std::vector<double>{1, 300}}}),
               "'lut'");
  expect_names(error_for("vg.vision.tensor_table_lookup", {{"in", fixed({3}, ElementType::u8)}}, {"out"}, {{"lut", std::vector<double>{}}}), "'lut'");
  expect_names(error_for("vg.vision.tensor_convert_depth", {{"in", q78}}, {"out"}, {{"norm", 0.0}}), "'norm'");
  expect_names(error_for("vg.vision.tensor_convert_depth", {{"in", q78}}, {"out"}, {{"type", std::string("f32")}}), "'type'");
  expect_names(error_for("vg.vision.tensor_convert_depth", {{"in", q78}}, {"out"}, {{"position", std::int64_t{16}}}), "'position'");
}

TEST(VisionTensorKernels, OutputMetadataIsSetByValidate) {
  vg::Graph g(context(), "meta");
  const DataId a = g.add_data("a", fixed({1, 4, 5}, ElementType::i16, 8));
  const DataId b = g.add_data("b", fixed({3, 4, 1}, ElementType::i16, 8));
  const DataId sum = g.add_virtual("sum", DataKind::tensor), depth = g.add_virtual("depth", DataKind::tensor);
  const vg::NodeId add = g.add_node("add", "vg.vision.tensor_add");
  g.bind(add, "in1", a).bind(add, "in2", b).bind(add, "out", sum);
  const vg::NodeId c = g.add_node("c", "vg.vision.tensor_convert_depth");
  g.bind(c, "in", sum).bind(c, "out", depth).set_attribute(c, "type", std::string("i16")).set_attribute(c, "position", std::int64_t{4});
  g.verify();
  const vg::TensorMeta& s = g.tensor(sum).meta();
  EXPECT_EQ(s.rank, 3u);
  EXPECT_EQ(s.dims[0], 3);
  EXPECT_EQ(s.dims[1], 4);
  EXPECT_EQ(s.dims[2], 5);
  EXPECT_EQ(s.type, ElementType::i16);
  EXPECT_EQ(s.scale, 1.0f / 256);
  EXPECT_EQ(g.tensor(depth).meta().scale, 1.0f / 16);
}

TEST(VisionTensorKernels, AGraphOfTensorKernelsAllocatesNothingAfterVerify) {
  vg::Graph g(context(), "tensors");
  const DataId a = g.add_data("a", fixed({8, 16}, ElementType::i16, 8));
  const DataId b = g.add_data("b", fixed({16, 8}, ElementType::i16, 8));
  DataId prev = a;
  auto stage = [&](const char* name, const char* kernel, std::initializer_list<std::pair<const char*, DataId>> more = {}) {
    const DataId out = g.add_virtual(name, DataKind::tensor);
    const vg::NodeId n = g.add_node(name, kernel);
    g.bind(n, std::string(kernel) == "vg.vision.tensor_add" || std::string(kernel) == "vg.vision.tensor_multiply" ||
                      std::string(kernel) == "vg.vision.tensor_matrix_multiply"
                  ? "in1"
                  : "in",
           prev)
        .bind(n, "out", out);
    for (const auto& [param, data] : more) g.bind(n, param, data);
    prev = out;
    return n;
  };
  stage("sum", "vg.vision.tensor_add", {{"in2", a}});
  stage("product", "vg.vision.tensor_multiply", {{"in2", a}});
  stage("mm", "vg.vision.tensor_matrix_multiply", {{"in2", b}});
  g.set_attribute(stage("t", "vg.vision.tensor_transpose"), "dim2", std::int64_t{1});
  g.set_attribute(stage("lut", "vg.vision.tensor_table_lookup"), "lut", std::vector<double>(512, 7.0));
  const DataId last = g.add_data("last", fixed({8, 8}, ElementType::u8));
  const vg::NodeId n = g.add_node("depth", "vg.vision.tensor_convert_depth");
  g.bind(n, "in", prev).bind(n, "out", last).set_attribute(n, "type", std::string("u8"));
  g.verify();
  fill_random(g.tensor(a), 1);
  fill_random(g.tensor(b), 2);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(g.process(), vg::Status::ok) << g.last_error().describe();
  int failures = 0;
  vg::test::AllocationGuard guard;
  for (int i = 0; i < 20; ++i)
    if (g.process() != vg::Status::ok) ++failures;
  const long allocations = guard.stop();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(allocations, 0);
}

}  // namespace
