// Standard kernels (tensor): results exact to the specification, refusals with a reason, in graphs and
// in immediate mode.
#include <VX/vx.h>
#include <VX/vxu.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::OpenVx;

/// A tensor's contents on the host: values (raw integers) packed with dimension 0 fastest.
struct Host {
  vx_enum type = VX_TYPE_UINT8;
  vx_int8 position = 0;
  std::vector<vx_size> dims;
  std::vector<std::int32_t> values;

  vx_size count() const {
    vx_size c = 1;
    for (vx_size d : dims) c *= d;
    return c;
  }
  vx_size item() const { return type == VX_TYPE_INT16 ? 2 : 1; }
};

std::int32_t lo(vx_enum type) { return type == VX_TYPE_INT16 ? -32768 : type == VX_TYPE_INT8 ? -128 : 0; }
std::int32_t hi(vx_enum type) { return type == VX_TYPE_INT16 ? 32767 : type == VX_TYPE_INT8 ? 127 : 255; }

/// Values covering the edges of the type, then pseudo-random ones.
Host make_host(vx_enum type, std::vector<vx_size> dims, std::uint32_t seed) {
  Host h;
  h.type = type;
  h.position = type == VX_TYPE_INT16 ? 8 : 0;
  h.dims = std::move(dims);
  const std::int32_t edges[] = {lo(type), hi(type), 0, 1, -1, lo(type) + 1, hi(type) - 1, 2, 3, 128, -128, 255, 256, -256, 384, 127};
  std::uint32_t state = seed * 2654435761u + 12345u;
  h.values.resize(h.count());
  for (vx_size i = 0; i < h.values.size(); ++i) {
    state = state * 1664525u + 1013904223u;
    std::int32_t v;
    if ((state >> 28) < 6) {
      v = edges[(state >> 8) % 16];
    } else {
      v = lo(type) + static_cast<std::int32_t>((state >> 8) % static_cast<std::uint32_t>(hi(type) - lo(type) + 1));
    }
    if (v < lo(type)) v = lo(type);
    if (v > hi(type)) v = hi(type);
    h.values[i] = v;
  }
  return h;
}

void put_value(vx_uint8* p, vx_enum type, std::int32_t v) {
  if (type == VX_TYPE_INT16) {
    const auto s = static_cast<std::int16_t>(v);
    std::memcpy(p, &s, 2);
  } else {
    *p = static_cast<vx_uint8>(v);
  }
}
std::int32_t get_value(const vx_uint8* p, vx_enum type) {
  if (type == VX_TYPE_INT16) {
    std::int16_t s;
    std::memcpy(&s, p, 2);
    return s;
  }
  if (type == VX_TYPE_INT8) return static_cast<vx_int8>(*p);
  return *p;
}

std::vector<vx_size> packed_strides(const Host& h) {
  std::vector<vx_size> s(h.dims.size());
  vx_size step = h.item();
  for (vx_size d = 0; d < h.dims.size(); ++d) {
    s[d] = step;
    step *= h.dims[d];
  }
  return s;
}

void write(vx_tensor t, const Host& h) {
  std::vector<vx_uint8> bytes(h.count() * h.item());
  for (vx_size i = 0; i < h.count(); ++i) put_value(bytes.data() + i * h.item(), h.type, h.values[i]);
  const std::vector<vx_size> start(h.dims.size(), 0);
  const std::vector<vx_size> strides = packed_strides(h);
  ASSERT_EQ(vxCopyTensorPatch(t, h.dims.size(), start.data(), h.dims.data(), strides.data(), bytes.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST),
            VX_SUCCESS);
}

vx_tensor make_tensor(vx_context c, const Host& h) {
  vx_tensor t = vxCreateTensor(c, h.dims.size(), h.dims.data(), h.type, h.position);
  EXPECT_EQ(vg_openvx_test::status_of(t), VX_SUCCESS);
  write(t, h);
  return t;
}

/// A tensor of @p type with @p dims, contents read back.
Host read(vx_tensor t, vx_enum type, std::vector<vx_size> dims) {
  Host h;
  h.type = type;
  h.position = type == VX_TYPE_INT16 ? 8 : 0;
  h.dims = std::move(dims);
  std::vector<vx_uint8> bytes(h.count() * h.item());
  const std::vector<vx_size> start(h.dims.size(), 0);
  const std::vector<vx_size> strides = packed_strides(h);
  EXPECT_EQ(vxCopyTensorPatch(t, h.dims.size(), start.data(), h.dims.data(), strides.data(), bytes.data(), VX_READ_ONLY, VX_MEMORY_TYPE_HOST),
            VX_SUCCESS);
  h.values.resize(h.count());
  for (vx_size i = 0; i < h.count(); ++i) h.values[i] = get_value(bytes.data() + i * h.item(), type);
  return h;
}

/// Coordinates of flat index @p i in @p dims.
std::vector<vx_size> coords(vx_size i, const std::vector<vx_size>& dims) {
  std::vector<vx_size> c(dims.size());
  for (vx_size d = 0; d < dims.size(); ++d) {
    c[d] = i % dims[d];
    i /= dims[d];
  }
  return c;
}
/// Flat index of coordinates @p c in @p dims, a dimension of size 1 broadcasting.
vx_size flat(const std::vector<vx_size>& c, const std::vector<vx_size>& dims) {
  vx_size index = 0, step = 1;
  for (vx_size d = 0; d < dims.size(); ++d) {
    index += (dims[d] == 1 ? 0 : c[d]) * step;
    step *= dims[d];
  }
  return index;
}

std::int32_t wrap_to(vx_enum type, std::int64_t v) {
  if (type == VX_TYPE_INT16) return static_cast<std::int16_t>(static_cast<std::uint16_t>(v & 0xFFFF));
  if (type == VX_TYPE_INT8) return static_cast<std::int8_t>(static_cast<std::uint8_t>(v & 0xFF));
  return static_cast<std::int32_t>(v & 0xFF);
}
std::int32_t clamp_to(vx_enum type, std::int64_t v) {
  return static_cast<std::int32_t>(v < lo(type) ? lo(type) : v > hi(type) ? hi(type) : v);
}

enum class Op { add, sub, mul };

/// The element-wise reference: broadcast per dimension, exact arithmetic (long double holds the 55-bit
/// products of the multiply exactly).
Host reference(const Host& a, const Host& b, Op op, bool wrap, float scale = 1, bool nearest_even = false) {
  Host out = a;
  for (vx_size d = 0; d < a.dims.size(); ++d) out.dims[d] = std::max(a.dims[d], b.dims[d]);
  out.values.assign(out.count(), 0);
  for (vx_size i = 0; i < out.count(); ++i) {
    const std::vector<vx_size> c = coords(i, out.dims);
    const std::int64_t x = a.values[flat(c, a.dims)], y = b.values[flat(c, b.dims)];
    std::int64_t r = 0;
    if (op == Op::add) {
      r = x + y;
    } else if (op == Op::sub) {
      r = x - y;
    } else {
      const long double exact = static_cast<long double>(x * y) * static_cast<long double>(scale) / (a.type == VX_TYPE_INT16 ? 256.0L : 1.0L);
      long double rounded = std::trunc(exact);
      if (nearest_even) {
        const long double diff = exact - rounded;  // in (-1, 1), same sign as exact
        if (std::fabs(diff) > 0.5L || (std::fabs(diff) == 0.5L && std::fmod(rounded, 2.0L) != 0)) rounded += exact < 0 ? -1 : 1;
      }
      if (rounded > 1e15L) rounded = 1e15L;
      if (rounded < -1e15L) rounded = -1e15L;
      r = static_cast<std::int64_t>(rounded);
    }
    out.values[i] = wrap ? wrap_to(a.type, r) : clamp_to(a.type, r);
  }
  return out;
}

void expect_same(const Host& got, const Host& want, const char* what) {
  ASSERT_EQ(got.values.size(), want.values.size()) << what;
  for (vx_size i = 0; i < want.values.size(); ++i) {
    ASSERT_EQ(got.values[i], want.values[i]) << what << " at element " << i;
  }
}

const vx_enum kTypes[] = {VX_TYPE_INT16, VX_TYPE_UINT8, VX_TYPE_INT8};

/// Shapes from 1-D to 4-D, some broadcasting (a 1 in one input where the other has more).
struct Shapes {
  std::vector<vx_size> a, b;
};
const Shapes kShapes[] = {
    {{37}, {37}}, {{37}, {1}}, {{37, 13}, {37, 1}}, {{1, 13}, {37, 13}}, {{5, 3, 7}, {5, 1, 7}}, {{5, 3, 7, 2}, {1, 3, 1, 2}}, {{3, 1, 4, 5}, {3, 6, 1, 5}}};

TEST_F(OpenVx, TensorAddSubtractThroughGraphExact) {
  for (vx_enum type : kTypes) {
    for (const Shapes& s : kShapes) {
      for (vx_enum policy : {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE}) {
        const Host a = make_host(type, s.a, 1), b = make_host(type, s.b, 2);
        const Host add = reference(a, b, Op::add, policy == VX_CONVERT_POLICY_WRAP);
        const Host sub = reference(a, b, Op::sub, policy == VX_CONVERT_POLICY_WRAP);
        vx_tensor ta = make_tensor(context_, a), tb = make_tensor(context_, b);
        vx_tensor out_add = vxCreateTensor(context_, add.dims.size(), add.dims.data(), type, a.position);
        vx_tensor out_sub = vxCreateTensor(context_, sub.dims.size(), sub.dims.data(), type, a.position);
        vx_graph g = vxCreateGraph(context_);
        vx_node n1 = vxTensorAddNode(g, ta, tb, policy, out_add);
        vx_node n2 = vxTensorSubtractNode(g, ta, tb, policy, out_sub);
        ASSERT_EQ(vxVerifyGraph(g), VX_SUCCESS);
        ASSERT_EQ(vxProcessGraph(g), VX_SUCCESS);
        expect_same(read(out_add, type, add.dims), add, "add");
        expect_same(read(out_sub, type, sub.dims), sub, "subtract");
        vxReleaseNode(&n1);
        vxReleaseNode(&n2);
        vxReleaseGraph(&g);
        for (vx_tensor* t : {&ta, &tb, &out_add, &out_sub}) vxReleaseTensor(t);
      }
    }
  }
}

TEST_F(OpenVx, TensorAddSubtractImmediateKnownValues) {
  // Q7.8: 127.99 + 0.01 saturates to 32767, wraps to -32768.
  Host a = make_host(VX_TYPE_INT16, {3}, 0), b = a;
  a.values = {32767, -32768, 100};
  b.values = {1, 1, -200};
  vx_tensor ta = make_tensor(context_, a), tb = make_tensor(context_, b);
  vx_tensor out = vxCreateTensor(context_, 1, a.dims.data(), VX_TYPE_INT16, 8);
  ASSERT_EQ(vxuTensorAdd(context_, ta, tb, VX_CONVERT_POLICY_SATURATE, out), VX_SUCCESS);
  EXPECT_EQ(read(out, VX_TYPE_INT16, a.dims).values, (std::vector<std::int32_t>{32767, -32767, -100}));
  ASSERT_EQ(vxuTensorAdd(context_, ta, tb, VX_CONVERT_POLICY_WRAP, out), VX_SUCCESS);
  EXPECT_EQ(read(out, VX_TYPE_INT16, a.dims).values, (std::vector<std::int32_t>{-32768, -32767, -100}));
  ASSERT_EQ(vxuTensorSubtract(context_, ta, tb, VX_CONVERT_POLICY_SATURATE, out), VX_SUCCESS);
  EXPECT_EQ(read(out, VX_TYPE_INT16, a.dims).values, (std::vector<std::int32_t>{32766, -32768, 300}));
  ASSERT_EQ(vxuTensorSubtract(context_, ta, tb, VX_CONVERT_POLICY_WRAP, out), VX_SUCCESS);
  EXPECT_EQ(read(out, VX_TYPE_INT16, a.dims).values, (std::vector<std::int32_t>{32766, 32767, 300}));
  for (vx_tensor* t : {&ta, &tb, &out}) vxReleaseTensor(t);
}

TEST_F(OpenVx, TensorMultiplyImmediateExact) {
  const float scales[] = {1.0f, 1.0f / 255, 1.0f / 32768, 0.5f, 1.0f / 256, 3.0f};
  for (vx_enum type : kTypes) {
    for (const Shapes& s : {kShapes[2], kShapes[5]}) {
      for (float scale : scales) {
        for (vx_enum policy : {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE}) {
          for (vx_enum rounding : {VX_ROUND_POLICY_TO_ZERO, VX_ROUND_POLICY_TO_NEAREST_EVEN}) {
            const Host a = make_host(type, s.a, 3), b = make_host(type, s.b, 4);
            const Host want = reference(a, b, Op::mul, policy == VX_CONVERT_POLICY_WRAP, scale, rounding == VX_ROUND_POLICY_TO_NEAREST_EVEN);
            vx_tensor ta = make_tensor(context_, a), tb = make_tensor(context_, b);
            vx_tensor out = vxCreateTensor(context_, want.dims.size(), want.dims.data(), type, a.position);
            vx_scalar sc = vxCreateScalar(context_, VX_TYPE_FLOAT32, &scale);
            ASSERT_EQ(vxuTensorMultiply(context_, ta, tb, sc, policy, rounding, out), VX_SUCCESS);
            expect_same(read(out, type, want.dims), want, "multiply");
            vxReleaseScalar(&sc);
            for (vx_tensor* t : {&ta, &tb, &out}) vxReleaseTensor(t);
          }
        }
      }
    }
  }
}

TEST_F(OpenVx, TensorMultiplyRoundingTies) {
  // U8, scale 1/2: 3 * 1 / 2 = 1.5 -> 1 (zero) or 2 (even); 5 * 1 / 2 = 2.5 -> 2 either way.
  Host a = make_host(VX_TYPE_UINT8, {4}, 0), b = a;
  a.values = {3, 5, 255, 7};
  b.values = {1, 1, 255, 1};
  vx_tensor ta = make_tensor(context_, a), tb = make_tensor(context_, b);
  vx_tensor out = vxCreateTensor(context_, 1, a.dims.data(), VX_TYPE_UINT8, 0);
  float half = 0.5f;
  vx_scalar sc = vxCreateScalar(context_, VX_TYPE_FLOAT32, &half);
  ASSERT_EQ(vxuTensorMultiply(context_, ta, tb, sc, VX_CONVERT_POLICY_SATURATE, VX_ROUND_POLICY_TO_ZERO, out), VX_SUCCESS);
  EXPECT_EQ(read(out, VX_TYPE_UINT8, a.dims).values, (std::vector<std::int32_t>{1, 2, 255, 3}));
  ASSERT_EQ(vxuTensorMultiply(context_, ta, tb, sc, VX_CONVERT_POLICY_WRAP, VX_ROUND_POLICY_TO_NEAREST_EVEN, out), VX_SUCCESS);
  // 255*255/2 = 32512.5 -> 32512 -> wraps to 0.
  EXPECT_EQ(read(out, VX_TYPE_UINT8, a.dims).values, (std::vector<std::int32_t>{2, 2, 0, 4}));
  vxReleaseScalar(&sc);
  for (vx_tensor* t : {&ta, &tb, &out}) vxReleaseTensor(t);
}

/// A tensor on application memory with gaps between elements and rows (strides larger than packed).
struct Handled {
  std::vector<vx_uint8> memory;
  std::vector<vx_size> strides;
  vx_tensor tensor = nullptr;
};
Handled from_handle(vx_context c, const Host& h) {
  Handled r;
  vx_size step = h.item() * 2 + 1;  // odd gaps: no alignment
  r.strides.resize(h.dims.size());
  for (vx_size d = 0; d < h.dims.size(); ++d) {
    r.strides[d] = step;
    step = step * h.dims[d] + 3;
  }
  r.memory.assign(step + 8, 0xCD);
  for (vx_size i = 0; i < h.count(); ++i) {
    const std::vector<vx_size> cc = coords(i, h.dims);
    vx_size off = 0;
    for (vx_size d = 0; d < h.dims.size(); ++d) off += cc[d] * r.strides[d];
    put_value(r.memory.data() + off, h.type, h.values[i]);
  }
  r.tensor = vxCreateTensorFromHandle(c, h.dims.size(), h.dims.data(), h.type, h.position, r.strides.data(), r.memory.data(), VX_MEMORY_TYPE_HOST);
  EXPECT_EQ(vg_openvx_test::status_of(r.tensor), VX_SUCCESS);
  return r;
}

TEST_F(OpenVx, TensorTableLookupThroughGraphAndFromHandle) {
  for (vx_enum type : {VX_TYPE_UINT8, VX_TYPE_INT16}) {
    const vx_size count = type == VX_TYPE_UINT8 ? 256 : 65536;
    std::vector<std::int32_t> table(count);
    for (vx_size i = 0; i < count; ++i) table[i] = type == VX_TYPE_UINT8 ? static_cast<std::int32_t>((i * 7 + 3) & 0xFF) : static_cast<std::int16_t>(i * 31 + 5);
    vx_lut lut = vxCreateLUT(context_, type, count);
    std::vector<vx_uint8> bytes(count * (type == VX_TYPE_INT16 ? 2 : 1));
    for (vx_size i = 0; i < count; ++i) put_value(bytes.data() + i * (type == VX_TYPE_INT16 ? 2 : 1), type, table[i]);
    ASSERT_EQ(vxCopyLUT(lut, bytes.data(), VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
    const vx_size offset = type == VX_TYPE_UINT8 ? 0 : 32768;  // the LUT's offset (VX_LUT_OFFSET)
    for (const std::vector<vx_size>& dims : {std::vector<vx_size>{37}, std::vector<vx_size>{37, 13}, std::vector<vx_size>{5, 3, 7, 2}}) {
      const Host in = make_host(type, dims, 5);
      Handled src = from_handle(context_, in);
      Host want = in;
      for (vx_size i = 0; i < in.count(); ++i) want.values[i] = table[static_cast<vx_size>(static_cast<std::int64_t>(offset) + in.values[i])];
      vx_tensor out = vxCreateTensor(context_, dims.size(), dims.data(), type, in.position);
      vx_graph g = vxCreateGraph(context_);
      vx_node n = vxTensorTableLookupNode(g, src.tensor, lut, out);
      ASSERT_EQ(vxVerifyGraph(g), VX_SUCCESS);
      ASSERT_EQ(vxProcessGraph(g), VX_SUCCESS);
      expect_same(read(out, type, dims), want, "table lookup");
      ASSERT_EQ(vxuTensorTableLookup(context_, src.tensor, lut, out), VX_SUCCESS);
      expect_same(read(out, type, dims), want, "vxuTensorTableLookup");
      vxReleaseNode(&n);
      vxReleaseGraph(&g);
      vxReleaseTensor(&out);
      vxReleaseTensor(&src.tensor);
    }
    vxReleaseLUT(&lut);
  }
}

TEST_F(OpenVx, TensorTransposeAllPairsExact) {
  const std::vector<vx_size> all[] = {{37}, {37, 13}, {5, 3, 7}, {5, 3, 7, 2}};
  for (vx_enum type : kTypes) {
    for (const std::vector<vx_size>& dims : all) {
      for (vx_size d1 = 0; d1 < dims.size(); ++d1) {
        for (vx_size d2 = 0; d2 < dims.size(); ++d2) {
          const Host in = make_host(type, dims, 6);
          std::vector<vx_size> out_dims = dims;
          std::swap(out_dims[d1], out_dims[d2]);
          Host want = in;
          want.dims = out_dims;
          for (vx_size i = 0; i < want.count(); ++i) {
            std::vector<vx_size> c = coords(i, out_dims);
            std::swap(c[d1], c[d2]);
            want.values[i] = in.values[flat(c, dims)];
          }
          vx_tensor src = make_tensor(context_, in);
          vx_tensor out = vxCreateTensor(context_, out_dims.size(), out_dims.data(), type, in.position);
          if ((d1 + d2) % 2 == 0) {
            ASSERT_EQ(vxuTensorTranspose(context_, src, out, d1, d2), VX_SUCCESS);
          } else {
            vx_graph g = vxCreateGraph(context_);
            vx_node n = vxTensorTransposeNode(g, src, out, d1, d2);
            ASSERT_EQ(vxVerifyGraph(g), VX_SUCCESS);
            ASSERT_EQ(vxProcessGraph(g), VX_SUCCESS);
            vxReleaseNode(&n);
            vxReleaseGraph(&g);
          }
          expect_same(read(out, type, out_dims), want, "transpose");
          vxReleaseTensor(&src);
          vxReleaseTensor(&out);
        }
      }
    }
  }
}

TEST_F(OpenVx, TensorTransposeOfAView) {
  const Host in = make_host(VX_TYPE_INT16, {9, 7, 3}, 7);
  vx_tensor parent = make_tensor(context_, in);
  const vx_size start[] = {2, 1, 1}, end[] = {8, 6, 3};
  vx_tensor view = vxCreateTensorFromView(parent, 3, start, end);
  ASSERT_EQ(vg_openvx_test::status_of(view), VX_SUCCESS);
  const std::vector<vx_size> out_dims = {2, 5, 6};  // view is 6x5x2, dims 0 and 2 swapped
  vx_tensor out = vxCreateTensor(context_, 3, out_dims.data(), VX_TYPE_INT16, 8);
  ASSERT_EQ(vxuTensorTranspose(context_, view, out, 0, 2), VX_SUCCESS);
  const Host got = read(out, VX_TYPE_INT16, out_dims);
  for (vx_size i = 0; i < got.count(); ++i) {
    const std::vector<vx_size> c = coords(i, out_dims);
    const std::vector<vx_size> src = {c[2] + 2, c[1] + 1, c[0] + 1};
    ASSERT_EQ(got.values[i], in.values[flat(src, in.dims)]) << i;
  }
  vxReleaseTensor(&out);
  vxReleaseTensor(&view);
  vxReleaseTensor(&parent);
}

/// The convert-depth reference: (value - offset) / norm in single precision as the conformance tests
/// compute it ((x - offset) * (1 / norm)), at the output's position, truncated toward zero.
std::int32_t convert_reference(std::int32_t raw, vx_enum in_type, vx_enum out_type, float norm, float offset, bool wrap) {
  float x = static_cast<float>(raw);
  if (in_type == VX_TYPE_INT16) x /= 256.0f;
  const float inverse = 1.0f / norm;
  volatile float t = x - offset;
  t = t * inverse;
  if (out_type == VX_TYPE_INT16) t = t * 256.0f;
  const double truncated = std::trunc(static_cast<double>(t));
  if (!wrap) {
    if (truncated < lo(out_type)) return lo(out_type);
    if (truncated > hi(out_type)) return hi(out_type);
    return static_cast<std::int32_t>(truncated);
  }
  return wrap_to(out_type, static_cast<std::int64_t>(truncated));
}

TEST_F(OpenVx, TensorConvertDepthAllFormatsExact) {
  struct Case {
    float norm, offset;
  };
  const Case cases[] = {{1.0f, 0.0f}, {1.0f, 128.0f}, {1.0f, -128.0f}, {3.0f, 0.5f}, {0.25f, -1.0f}, {-2.0f, 10.0f}};
  for (vx_enum in_type : kTypes) {
    for (vx_enum out_type : kTypes) {
      for (const Case& k : cases) {
        for (vx_enum policy : {VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_SATURATE}) {
          const std::vector<vx_size> dims = {37, 3, 2};
          const Host in = make_host(in_type, dims, 8);
          vx_tensor src = make_tensor(context_, in);
          vx_tensor out = vxCreateTensor(context_, 3, dims.data(), out_type, out_type == VX_TYPE_INT16 ? 8 : 0);
          vx_scalar norm = vxCreateScalar(context_, VX_TYPE_FLOAT32, &k.norm);
          vx_scalar offset = vxCreateScalar(context_, VX_TYPE_FLOAT32, &k.offset);
          ASSERT_EQ(vxuTensorConvertDepth(context_, src, policy, norm, offset, out), VX_SUCCESS);
          const Host got = read(out, out_type, dims);
          for (vx_size i = 0; i < in.count(); ++i) {
            ASSERT_EQ(got.values[i], convert_reference(in.values[i], in_type, out_type, k.norm, k.offset, policy == VX_CONVERT_POLICY_WRAP))
                << "in " << in.values[i] << " types " << in_type << "->" << out_type << " norm " << k.norm << " offset " << k.offset;
          }
          vxReleaseScalar(&norm);
          vxReleaseScalar(&offset);
          vxReleaseTensor(&src);
          vxReleaseTensor(&out);
        }
      }
    }
  }
}

TEST_F(OpenVx, TensorConvertDepthKnownValuesInGraph) {
  // Q7.8 -> U8 with offset -0.5, norm 1: 1.75 + 0.5 = 2.25 -> 2; -3.0 + 0.5 = -2.5 -> -2: saturated 0, wrapped 254.
  Host in = make_host(VX_TYPE_INT16, {2}, 0);
  in.values = {448, -768};
  vx_tensor src = make_tensor(context_, in);
  vx_tensor out = vxCreateTensor(context_, 1, in.dims.data(), VX_TYPE_UINT8, 0);
  const float one = 1.0f, off = -0.5f;
  vx_scalar norm = vxCreateScalar(context_, VX_TYPE_FLOAT32, &one);
  vx_scalar offset = vxCreateScalar(context_, VX_TYPE_FLOAT32, &off);
  for (vx_enum policy : {VX_CONVERT_POLICY_SATURATE, VX_CONVERT_POLICY_WRAP}) {
    vx_graph g = vxCreateGraph(context_);
    vx_node n = vxTensorConvertDepthNode(g, src, policy, norm, offset, out);
    ASSERT_EQ(vxVerifyGraph(g), VX_SUCCESS);
    ASSERT_EQ(vxProcessGraph(g), VX_SUCCESS);
    EXPECT_EQ(read(out, VX_TYPE_UINT8, in.dims).values,
              (std::vector<std::int32_t>{2, policy == VX_CONVERT_POLICY_SATURATE ? 0 : 254}));
    vxReleaseNode(&n);
    vxReleaseGraph(&g);
  }
  vxReleaseScalar(&norm);
  vxReleaseScalar(&offset);
  vxReleaseTensor(&src);
  vxReleaseTensor(&out);
}

TEST_F(OpenVx, TensorVirtualOutputTakesItsAttributes) {
  // input1 (5x3x2) + input2 (5x1x2) -> virtual (everything open) -> transpose(0, 2) -> 2x3x5.
  const Host a = make_host(VX_TYPE_INT8, {5, 3, 2}, 9), b = make_host(VX_TYPE_INT8, {5, 1, 2}, 10);
  const Host sum = reference(a, b, Op::add, false);
  vx_tensor ta = make_tensor(context_, a), tb = make_tensor(context_, b);
  const std::vector<vx_size> out_dims = {2, 3, 5};
  vx_tensor out = vxCreateTensor(context_, 3, out_dims.data(), VX_TYPE_INT8, 0);
  vx_graph g = vxCreateGraph(context_);
  vx_tensor mid = vxCreateVirtualTensor(g, 0, nullptr, VX_TYPE_INVALID, 0);
  ASSERT_EQ(vg_openvx_test::status_of(mid), VX_SUCCESS);
  vx_node n1 = vxTensorAddNode(g, ta, tb, VX_CONVERT_POLICY_SATURATE, mid);
  vx_node n2 = vxTensorTransposeNode(g, mid, out, 0, 2);
  ASSERT_EQ(vxVerifyGraph(g), VX_SUCCESS);
  ASSERT_EQ(vxProcessGraph(g), VX_SUCCESS);
  vx_size n = 0;
  vx_enum type = 0;
  vx_size dims[3] = {};
  EXPECT_EQ(vxQueryTensor(mid, VX_TENSOR_NUMBER_OF_DIMS, &n, sizeof n), VX_SUCCESS);
  EXPECT_EQ(n, 3u);
  EXPECT_EQ(vxQueryTensor(mid, VX_TENSOR_DATA_TYPE, &type, sizeof type), VX_SUCCESS);
  EXPECT_EQ(type, VX_TYPE_INT8);
  EXPECT_EQ(vxQueryTensor(mid, VX_TENSOR_DIMS, dims, sizeof dims), VX_SUCCESS);
  EXPECT_EQ(dims[0], 5u);
  EXPECT_EQ(dims[1], 3u);
  EXPECT_EQ(dims[2], 2u);
  const Host got = read(out, VX_TYPE_INT8, out_dims);
  for (vx_size i = 0; i < got.count(); ++i) {
    std::vector<vx_size> c = coords(i, out_dims);
    std::swap(c[0], c[2]);
    ASSERT_EQ(got.values[i], sum.values[flat(c, sum.dims)]) << i;
  }
  vxReleaseNode(&n1);
  vxReleaseNode(&n2);
  vxReleaseTensor(&mid);
  vxReleaseGraph(&g);
  for (vx_tensor* t : {&ta, &tb, &out}) vxReleaseTensor(t);
}

TEST_F(OpenVx, TensorKernelsRefuseWrongParameters) {
  const vx_size d37[] = {37}, d13[] = {13}, d2[] = {37, 13};
  vx_tensor q78 = vxCreateTensor(context_, 1, d37, VX_TYPE_INT16, 8);
  vx_tensor q78b = vxCreateTensor(context_, 1, d37, VX_TYPE_INT16, 8);
  vx_tensor u8 = vxCreateTensor(context_, 1, d37, VX_TYPE_UINT8, 0);
  vx_tensor u8_13 = vxCreateTensor(context_, 1, d13, VX_TYPE_UINT8, 0);
  vx_tensor q4 = vxCreateTensor(context_, 1, d37, VX_TYPE_INT16, 4);
  vx_tensor two_d = vxCreateTensor(context_, 2, d2, VX_TYPE_UINT8, 0);
  vx_tensor out_q78 = vxCreateTensor(context_, 1, d37, VX_TYPE_INT16, 8);
  vx_tensor out_u8 = vxCreateTensor(context_, 1, d37, VX_TYPE_UINT8, 0);
  vx_tensor out_u8_13 = vxCreateTensor(context_, 1, d13, VX_TYPE_UINT8, 0);

  auto verify = [&](auto build) {
    vx_graph g = vxCreateGraph(context_);
    vx_node n = build(g);
    const vx_status s = vxVerifyGraph(g);
    vxReleaseNode(&n);
    vxReleaseGraph(&g);
    return s;
  };
  vg_openvx_test::log_lines.clear();
  // Mismatched data types between the inputs.
  EXPECT_EQ(verify([&](vx_graph g) { return vxTensorAddNode(g, q78, u8, VX_CONVERT_POLICY_WRAP, out_q78); }), VX_ERROR_INVALID_TYPE);
  EXPECT_TRUE(logged("input2")) << "the log names input2";
  // A format the kernel does not take (INT16 with position 4).
  vg_openvx_test::log_lines.clear();
  EXPECT_EQ(verify([&](vx_graph g) { return vxTensorSubtractNode(g, q4, q4, VX_CONVERT_POLICY_WRAP, out_q78); }), VX_ERROR_INVALID_TYPE);
  EXPECT_TRUE(logged("input1"));
  // Dimensions neither equal nor 1.
  vg_openvx_test::log_lines.clear();
  EXPECT_EQ(verify([&](vx_graph g) { return vxTensorAddNode(g, u8, u8_13, VX_CONVERT_POLICY_WRAP, out_u8); }), VX_ERROR_INVALID_DIMENSION);
  EXPECT_TRUE(logged("dimension 0 of input2"));
  // Different numbers of dimensions.
  vg_openvx_test::log_lines.clear();
  EXPECT_EQ(verify([&](vx_graph g) { return vxTensorAddNode(g, u8, two_d, VX_CONVERT_POLICY_WRAP, out_u8); }), VX_ERROR_INVALID_DIMENSION);
  EXPECT_TRUE(logged("input2"));
  // An output of the wrong size, then of the wrong type.
  vg_openvx_test::log_lines.clear();
  EXPECT_EQ(verify([&](vx_graph g) { return vxTensorAddNode(g, u8, u8, VX_CONVERT_POLICY_WRAP, out_u8_13); }), VX_ERROR_INVALID_DIMENSION);
  EXPECT_TRUE(logged("output"));
  vg_openvx_test::log_lines.clear();
  EXPECT_EQ(verify([&](vx_graph g) { return vxTensorAddNode(g, u8, u8, VX_CONVERT_POLICY_WRAP, out_q78); }), VX_ERROR_INVALID_TYPE);
  EXPECT_TRUE(logged("output"));
  // A policy that is not one.
  vg_openvx_test::log_lines.clear();
  EXPECT_EQ(verify([&](vx_graph g) { return vxTensorAddNode(g, u8, u8, VX_ROUND_POLICY_TO_ZERO, out_u8); }), VX_ERROR_INVALID_VALUE);
  EXPECT_TRUE(logged("policy"));
  // Multiply: scale of the wrong type; a rounding policy that is not one.
  vx_int32 one_i = 1;
  float one_f = 1.0f, zero_f = 0.0f;
  vx_scalar int_scale = vxCreateScalar(context_, VX_TYPE_INT32, &one_i);
  vx_scalar f_one = vxCreateScalar(context_, VX_TYPE_FLOAT32, &one_f);
  vx_scalar f_zero = vxCreateScalar(context_, VX_TYPE_FLOAT32, &zero_f);
  vg_openvx_test::log_lines.clear();
  EXPECT_EQ(verify([&](vx_graph g) {
              return vxTensorMultiplyNode(g, q78, q78b, int_scale, VX_CONVERT_POLICY_WRAP, VX_ROUND_POLICY_TO_ZERO, out_q78);
            }),
            VX_ERROR_INVALID_TYPE);
  EXPECT_TRUE(logged("scale"));
  vg_openvx_test::log_lines.clear();
  EXPECT_EQ(verify([&](vx_graph g) {
              return vxTensorMultiplyNode(g, q78, q78b, f_one, VX_CONVERT_POLICY_WRAP, VX_CONVERT_POLICY_WRAP, out_q78);
            }),
            VX_ERROR_INVALID_VALUE);
  EXPECT_TRUE(logged("rounding_policy"));
  // Table lookup: a LUT of the other type; an INT8 input.
  vx_lut lut16 = vxCreateLUT(context_, VX_TYPE_INT16, 65536);
  vg_openvx_test::log_lines.clear();
  EXPECT_EQ(verify([&](vx_graph g) { return vxTensorTableLookupNode(g, u8, lut16, out_u8); }), VX_ERROR_INVALID_TYPE);
  EXPECT_TRUE(logged("lut"));
  // Transpose: a dimension beyond the tensor's.
  vg_openvx_test::log_lines.clear();
  EXPECT_EQ(verify([&](vx_graph g) { return vxTensorTransposeNode(g, u8, out_u8, 0, 1); }), VX_ERROR_INVALID_VALUE);
  EXPECT_TRUE(logged("dimension2"));
  // Convert depth: norm 0; offset of the wrong type.
  vg_openvx_test::log_lines.clear();
  EXPECT_EQ(verify([&](vx_graph g) { return vxTensorConvertDepthNode(g, q78, VX_CONVERT_POLICY_WRAP, f_zero, f_zero, out_u8); }),
            VX_ERROR_INVALID_VALUE);
  EXPECT_TRUE(logged("norm"));
  vg_openvx_test::log_lines.clear();
  EXPECT_EQ(verify([&](vx_graph g) { return vxTensorConvertDepthNode(g, q78, VX_CONVERT_POLICY_WRAP, f_one, int_scale, out_u8); }),
            VX_ERROR_INVALID_TYPE);
  EXPECT_TRUE(logged("offset"));
  vg_openvx_test::log_lines.clear();
  EXPECT_EQ(verify([&](vx_graph g) { return vxTensorConvertDepthNode(g, q78, VX_CONVERT_POLICY_WRAP, f_one, f_zero, out_u8_13); }),
            VX_ERROR_INVALID_DIMENSION);
  EXPECT_TRUE(logged("output"));

  vxReleaseLUT(&lut16);
  for (vx_scalar* s : {&int_scale, &f_one, &f_zero}) vxReleaseScalar(s);
  for (vx_tensor* t : {&q78, &q78b, &u8, &u8_13, &q4, &two_d, &out_q78, &out_u8, &out_u8_13}) vxReleaseTensor(t);
}

}  // namespace
