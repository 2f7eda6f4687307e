// The vg.vision tensor kernels: tensor_add, tensor_subtract, tensor_multiply, tensor_table_lookup,
// tensor_transpose, tensor_convert_depth and tensor_matrix_multiply, each running the library function
// (tensor_ops.hpp) libopenvx's kernel of the same name runs.
//
// A native tensor stands for an OpenVX fixed-point tensor when its zero_point is 0 and its scale 2^-p (p the
// fixed point position, 0 for integers): real = raw * 2^-p. Native dims run outermost first and are dense, so
// the library sees them reversed (its dimension 0 innermost); the transpose's dimensions are the native ones.
#include <cmath>
#include <string>
#include <vector>

#include "kernels.hpp"
#include "support.hpp"
#include "visiongraph/kernels/vision/tensor_ops.hpp"

namespace vg::vision {
namespace {

using namespace module_support;

constexpr const char* kOverflows[] = {"saturate", "wrap"};  // in order: index 1 is wrap
constexpr const char* kRoundings[] = {"zero", "nearest_even"};
constexpr const char* kTypes[] = {"u8", "i8", "i16"};

Overflow overflow_of(const KernelContext& ctx) { return ctx.string("overflow") == "wrap" ? Overflow::wrap : Overflow::saturate; }

std::string describe_fixed_point(const TensorMeta& t) {
  return "scale " + std::to_string(t.scale) + ", zero_point " + std::to_string(t.zero_point);
}

/// The fixed point position of the tensor parameter @p index, which must be a u8 / i8 / i16 tensor (i8 only
/// when @p allow_i8) with zero_point 0 and scale 2^-p, p 0..15 (else fails naming @p name).
int fixed_point_input(ValidateContext& v, std::size_t index, const char* name, bool allow_i8 = true) {
  const DataMeta& m = v.meta(index);
  if (m.kind != DataKind::tensor) v.fail(name, "is " + m.describe() + ": it must be a tensor");
  const TensorMeta& t = m.tensor;
  if (t.type != ElementType::u8 && t.type != ElementType::i16 && !(allow_i8 && t.type == ElementType::i8))
    v.fail(name, "is " + m.describe() + (allow_i8 ? ": it must be a u8, i8 or i16 tensor" : ": it must be a u8 or i16 tensor"));
  if (t.rank < 1 || t.rank > kMaxTensorRank) v.fail(name, "has rank " + std::to_string(t.rank) + ": it must be 1.." + std::to_string(kMaxTensorRank));
  for (int p = 0; p <= kMaxFixedPointPosition; ++p)
    if (t.zero_point == 0 && t.scale == std::ldexp(1.0f, -p)) return p;
  v.fail(name, "has " + describe_fixed_point(t) + ": it must be a fixed-point tensor (zero_point 0, scale 2^-p for p 0.." +
                   std::to_string(kMaxFixedPointPosition) + ")");
}

TensorType library_type(ElementType t) noexcept {
  return t == ElementType::i16 ? TensorType::s16 : t == ElementType::i8 ? TensorType::s8 : TensorType::u8;
}

DataMeta fixed_point_tensor(const TensorMeta& like, ElementType type, int position) {
  TensorMeta t;
  t.rank = like.rank;
  t.dims = like.dims;
  t.type = type;
  t.scale = std::ldexp(1.0f, -position);
  return DataMeta::tensor_of(t);
}

/// The tensor's shape and dense strides as the library reads them: dimensions reversed, 0 the innermost.
TensorShape library_shape(const TensorMeta& t) noexcept {
  TensorShape s;
  s.rank = t.rank;
  for (std::uint32_t d = 0; d < t.rank; ++d) s.dims[d] = static_cast<std::size_t>(t.dims[t.rank - 1 - d]);
  return s;
}
std::array<std::ptrdiff_t, kMaxTensorRank> dense_strides(const TensorMeta& t) noexcept {
  std::array<std::ptrdiff_t, kMaxTensorRank> strides{};
  std::ptrdiff_t step = static_cast<std::ptrdiff_t>(element_size(t.type));
  for (std::uint32_t d = 0; d < t.rank; ++d) {
    strides[d] = step;
    step *= static_cast<std::ptrdiff_t>(t.dims[t.rank - 1 - d]);
  }
  return strides;
}
ConstTensorRef const_ref(const TensorView& v) noexcept { return {v.data(), dense_strides(v.meta())}; }
TensorRef ref(const TensorView& v) noexcept { return {v.data(), dense_strides(v.meta())}; }

/// An element-wise input read along the output's dimensions: stride 0 where it has 1 and the output more.
ConstTensorRef broadcast_ref(const TensorView& in, const TensorMeta& out) noexcept {
  ConstTensorRef r = const_ref(in);
  const TensorMeta& t = in.meta();
  for (std::uint32_t d = 0; d < t.rank; ++d)
    if (t.dims[t.rank - 1 - d] != out.dims[out.rank - 1 - d]) r.strides[d] = 0;
  return r;
}

// --- tensor_add, tensor_subtract, tensor_multiply --------------------------------------------------------------

/// in1 and in2 (parameters 0, 1): one type, one position, one rank, each dimension equal or 1 in one of them.
/// Sets the output's (parameter 2) metadata; returns the position.
int validate_elementwise(ValidateContext& v) {
  const int position = fixed_point_input(v, 0, "in1");
  const int position2 = fixed_point_input(v, 1, "in2");
  const TensorMeta& a = v.meta(0).tensor;
  const TensorMeta& b = v.meta(1).tensor;
  if (a.type != b.type || position != position2)
    v.fail("in2", "is " + v.meta(1).describe() + " but in1 is " + v.meta(0).describe() + ": they must have one type and scale");
  if (a.rank != b.rank) v.fail("in2", "has rank " + std::to_string(b.rank) + " but in1 " + std::to_string(a.rank) + ": they must have one rank");
  TensorMeta out = a;
  for (std::uint32_t d = 0; d < a.rank; ++d) {
    if (a.dims[d] != b.dims[d] && a.dims[d] != 1 && b.dims[d] != 1)
      v.fail("in2", "has dimension " + std::to_string(d) + " of " + std::to_string(b.dims[d]) + " but in1 " + std::to_string(a.dims[d]) +
                        ": they must be equal or one of them 1");
    out.dims[d] = a.dims[d] > b.dims[d] ? a.dims[d] : b.dims[d];
  }
  v.set_meta(2, fixed_point_tensor(out, a.type, position));
  return position;
}

template <bool Subtract>
struct AddSubtractKernel {
  explicit AddSubtractKernel(KernelContext& ctx) : overflow(overflow_of(ctx)) {}
  Status process(KernelContext& ctx) noexcept {
    const TensorView out = ctx.tensor(2);
    const auto run = Subtract ? &tensor_subtract : &tensor_add;
    return run(library_shape(out.meta()), library_type(out.meta().type), broadcast_ref(ctx.tensor(0), out.meta()),
               broadcast_ref(ctx.tensor(1), out.meta()), ref(out), overflow)
               ? Status::ok
               : Status::invalid_argument;
  }
  Overflow overflow;
};

struct MultiplyKernel {
  explicit MultiplyKernel(KernelContext& ctx)
      : scale(static_cast<float>(ctx.number("scale"))), overflow(overflow_of(ctx)), nearest_even(ctx.string("rounding") == "nearest_even") {}
  Status process(KernelContext& ctx) noexcept {
    const TensorView out = ctx.tensor(2);
    const int position = -std::ilogb(out.meta().scale);  // validate made it 2^-position
    return tensor_multiply(library_shape(out.meta()), library_type(out.meta().type), position, broadcast_ref(ctx.tensor(0), out.meta()),
                           broadcast_ref(ctx.tensor(1), out.meta()), ref(out), scale, overflow, nearest_even)
               ? Status::ok
               : Status::invalid_argument;
  }
  float scale;
  Overflow overflow;
  bool nearest_even;
};

KernelDecl elementwise_decl(const char* name, const char* description) {
  KernelDecl decl(name, description);
  decl.input("in1", DataKind::tensor, true, "u8, i8 or i16 fixed-point tensor (zero_point 0, scale 2^-p)")
      .input("in2", DataKind::tensor, true, "tensor of in1's type, scale and rank; each dimension in1's or 1 (broadcast), or in1's 1")
      .output("out", DataKind::tensor, true, "tensor of that type and scale, each dimension the larger of in1's and in2's")
      .attribute("overflow", "saturate", "saturate (clamp to the type) or wrap (the low bits)");
  return decl;
}

void add_elementwise(Module& m) {
  m.add(elementwise_decl("vg.vision.tensor_add", "OpenVX TensorAdd: in1 + in2 on the raw values, saturated or wrapped")
            .validate([](ValidateContext& v) {
              validate_elementwise(v);
              choice_attribute(v, "overflow", kOverflows);
            }));
  m.implement("vg.vision.tensor_add", "cpu", callbacks_for<AddSubtractKernel<false>>());
  m.add(elementwise_decl("vg.vision.tensor_subtract", "OpenVX TensorSubtract: in1 - in2 on the raw values, saturated or wrapped")
            .validate([](ValidateContext& v) {
              validate_elementwise(v);
              choice_attribute(v, "overflow", kOverflows);
            }));
  m.implement("vg.vision.tensor_subtract", "cpu", callbacks_for<AddSubtractKernel<true>>());
  m.add(elementwise_decl("vg.vision.tensor_multiply",
                         "OpenVX TensorMultiply: in1 * in2 * scale in real values, rounded toward zero or to nearest even, then "
                         "saturated or wrapped")
            .attribute("scale", 1.0, "finite, >= 0")
            .attribute("rounding", "zero", "zero (toward zero) or nearest_even")
            .validate([](ValidateContext& v) {
              validate_elementwise(v);
              choice_attribute(v, "overflow", kOverflows);
              choice_attribute(v, "rounding", kRoundings);
              const double scale = v.number("scale");
              if (!(scale >= 0) || !std::isfinite(static_cast<float>(scale))) v.fail("scale", "must be finite and >= 0, got " + std::to_string(scale));
            }));
  m.implement("vg.vision.tensor_multiply", "cpu", callbacks_for<MultiplyKernel>());
}

// --- tensor_table_lookup --------------------------------------------------------------------------------------

struct TableLookupKernel {
  explicit TableLookupKernel(KernelContext& ctx) : type(library_type(ctx.meta(0).tensor.type)) {
    const std::vector<double>& values = ctx.numbers("lut");
    if (type == TensorType::u8) {
      bytes.assign(values.begin(), values.end());
    } else {
      words.assign(values.begin(), values.end());
    }
  }
  Status process(KernelContext& ctx) noexcept {
    const TensorView in = ctx.tensor(0), out = ctx.tensor(1);
    const bool u8 = type == TensorType::u8;
    const std::size_t count = u8 ? bytes.size() : words.size();
    // OpenVX's VX_LUT_OFFSET: 0 for u8, half the table for i16 (so it covers negative values too).
    return tensor_table_lookup(library_shape(out.meta()), type, const_ref(in), ref(out), u8 ? static_cast<const void*>(bytes.data()) : words.data(),
                               count, u8 ? 0 : count / 2)
               ? Status::ok
               : Status::invalid_argument;
  }
  TensorType type;
  std::vector<std::uint8_t> bytes;
  std::vector<std::int16_t> words;
};

void add_table_lookup(Module& m) {
  m.add(KernelDecl("vg.vision.tensor_table_lookup",
                   "OpenVX TensorTableLookup: each raw value v replaced by lut[v] (u8) or lut[v + size / 2] (i16); a value whose "
                   "index falls outside the table leaves the output element unwritten")
            .input("in", DataKind::tensor, true, "u8 or i16 fixed-point tensor (zero_point 0, scale 2^-p)")
            .output("out", DataKind::tensor, true, "tensor of in's shape, type and scale")
            .required_attribute("lut", AttrType::numbers, "the table: 1..256 integers 0..255 (u8) or 1..65536 integers -32768..32767 (i16)")
            .validate([](ValidateContext& v) {
              const int position = fixed_point_input(v, 0, "in", false);
              const TensorMeta& t = v.meta(0).tensor;
              const std::vector<double>& lut = v.numbers("lut");
              const bool u8 = t.type == ElementType::u8;
              const std::size_t most = u8 ? 256 : 65536;
              const double lo = u8 ? 0 : -32768, hi = u8 ? 255 : 32767;
              if (lut.empty() || lut.size() > most)
                v.fail("lut", "has " + std::to_string(lut.size()) + " entries: it must have 1.." + std::to_string(most) + " for a " +
                                  (u8 ? "u8" : "i16") + " tensor");
              for (double e : lut)
                if (!(e >= lo && e <= hi) || e != std::floor(e))
                  v.fail("lut", "holds " + std::to_string(e) + ": every entry must be an integer " + std::to_string(static_cast<int>(lo)) + ".." +
                                    std::to_string(static_cast<int>(hi)));
              v.set_meta(1, fixed_point_tensor(t, t.type, position));
            }));
  m.implement("vg.vision.tensor_table_lookup", "cpu", callbacks_for<TableLookupKernel>());
}

// --- tensor_transpose ------------------------------------------------------------------------------------------

struct TransposeKernel {
  explicit TransposeKernel(KernelContext& ctx)
      : dim1(static_cast<std::size_t>(ctx.integer("dim1"))), dim2(static_cast<std::size_t>(ctx.integer("dim2"))) {}
  Status process(KernelContext& ctx) noexcept {
    const TensorView in = ctx.tensor(0), out = ctx.tensor(1);
    const std::uint32_t rank = out.meta().rank;
    return tensor_transpose(library_shape(out.meta()), library_type(out.meta().type), const_ref(in), ref(out), rank - 1 - dim1, rank - 1 - dim2)
               ? Status::ok
               : Status::invalid_argument;
  }
  std::size_t dim1, dim2;
};

void add_transpose(Module& m) {
  m.add(KernelDecl("vg.vision.tensor_transpose", "OpenVX TensorTranspose: the tensor with dimensions dim1 and dim2 swapped")
            .input("in", DataKind::tensor, true, "u8, i8 or i16 fixed-point tensor (zero_point 0, scale 2^-p)")
            .output("out", DataKind::tensor, true, "tensor of in's type and scale, dims dim1 and dim2 swapped")
            .attribute("dim1", 0, "a dimension of in (0 the outermost)")
            .attribute("dim2", 1, "a dimension of in")
            .validate([](ValidateContext& v) {
              const int position = fixed_point_input(v, 0, "in");
              TensorMeta t = v.meta(0).tensor;
              for (const char* key : {"dim1", "dim2"}) {
                const std::int64_t d = v.integer(key);
                if (d < 0 || d >= static_cast<std::int64_t>(t.rank))
                  v.fail(key, "is " + std::to_string(d) + " but in has rank " + std::to_string(t.rank) + ": it must be 0.." + std::to_string(t.rank - 1));
              }
              std::swap(t.dims[static_cast<std::size_t>(v.integer("dim1"))], t.dims[static_cast<std::size_t>(v.integer("dim2"))]);
              v.set_meta(1, fixed_point_tensor(t, t.type, position));
            }));
  m.implement("vg.vision.tensor_transpose", "cpu", callbacks_for<TransposeKernel>());
}

// --- tensor_convert_depth --------------------------------------------------------------------------------------

ElementType element_type_of(const std::string& name) noexcept {
  return name == "i16" ? ElementType::i16 : name == "i8" ? ElementType::i8 : ElementType::u8;
}

struct ConvertDepthKernel {
  explicit ConvertDepthKernel(KernelContext& ctx)
      : overflow(overflow_of(ctx)), norm(static_cast<float>(ctx.number("norm"))), offset(static_cast<float>(ctx.number("offset"))) {}
  Status process(KernelContext& ctx) noexcept {
    const TensorView in = ctx.tensor(0), out = ctx.tensor(1);
    return tensor_convert_depth(library_shape(out.meta()), library_type(in.meta().type), -std::ilogb(in.meta().scale), const_ref(in),
                                library_type(out.meta().type), -std::ilogb(out.meta().scale), ref(out), overflow, norm, offset)
               ? Status::ok
               : Status::invalid_argument;
  }
  Overflow overflow;
  float norm, offset;
};

void add_convert_depth(Module& m) {
  m.add(KernelDecl("vg.vision.tensor_convert_depth",
                   "OpenVX TensorConvertDepth: (in - offset) / norm in real values, computed in single precision, truncated toward "
                   "zero at the output's position, then saturated or wrapped")
            .input("in", DataKind::tensor, true, "u8, i8 or i16 fixed-point tensor (zero_point 0, scale 2^-p)")
            .output("out", DataKind::tensor, true, "tensor of in's shape, of type `type` and scale 2^-position")
            .attribute("type", "i16", "the output's type: u8, i8 or i16")
            .attribute("position", 0, "the output's fixed point position, 0..15 (0 for integers)")
            .attribute("norm", 1.0, "finite, not 0")
            .attribute("offset", 0.0, "finite")
            .attribute("overflow", "saturate", "saturate (clamp to the type) or wrap (the low bits)")
            .validate([](ValidateContext& v) {
              fixed_point_input(v, 0, "in");
              const ElementType type = element_type_of(kTypes[choice_attribute(v, "type", kTypes)]);
              const std::int64_t position = v.integer("position");
              if (position < 0 || position > kMaxFixedPointPosition)
                v.fail("position", "must be 0.." + std::to_string(kMaxFixedPointPosition) + ", got " + std::to_string(position));
              const auto norm = static_cast<float>(v.number("norm"));
              if (norm == 0.0f || !std::isfinite(norm)) v.fail("norm", "must be finite and not 0, got " + std::to_string(v.number("norm")));
              if (!std::isfinite(static_cast<float>(v.number("offset")))) v.fail("offset", "must be finite");
              choice_attribute(v, "overflow", kOverflows);
              v.set_meta(1, fixed_point_tensor(v.meta(0).tensor, type, static_cast<int>(position)));
            }));
  m.implement("vg.vision.tensor_convert_depth", "cpu", callbacks_for<ConvertDepthKernel>());
}

// --- tensor_matrix_multiply ------------------------------------------------------------------------------------

/// A rank-2 tensor [rows, columns], read as its transpose when @p transposed.
ConstMatrixRef matrix_of(const TensorView& v, bool transposed) noexcept {
  const TensorMeta& t = v.meta();
  const auto size = static_cast<std::ptrdiff_t>(element_size(t.type));
  const ConstMatrixRef m{v.data(), static_cast<std::size_t>(t.dims[0]), static_cast<std::size_t>(t.dims[1]),
                         size * static_cast<std::ptrdiff_t>(t.dims[1]), size};
  return transposed ? m.transposed() : m;
}

struct MatrixMultiplyKernel {
  explicit MatrixMultiplyKernel(KernelContext& ctx)
      : transpose1(ctx.boolean("transpose1")), transpose2(ctx.boolean("transpose2")), transpose3(ctx.boolean("transpose3")) {}
  Status process(KernelContext& ctx) noexcept {
    const TensorView out = ctx.tensor(3);
    const ConstMatrixRef o = matrix_of(out, false);
    const ConstMatrixRef c = ctx.is_bound(2) ? matrix_of(ctx.tensor(2), transpose3) : ConstMatrixRef{};
    return tensor_matrix_multiply(library_type(out.meta().type), -std::ilogb(out.meta().scale), matrix_of(ctx.tensor(0), transpose1),
                                  matrix_of(ctx.tensor(1), transpose2), ctx.is_bound(2) ? &c : nullptr,
                                  MatrixRef{out.data(), o.rows, o.columns, o.row_stride, o.column_stride})
               ? Status::ok
               : Status::invalid_argument;
  }
  bool transpose1, transpose2, transpose3;
};

void add_matrix_multiply(Module& m) {
  m.add(KernelDecl("vg.vision.tensor_matrix_multiply",
                   "OpenVX TensorMatrixMultiply: in1 x in2 (+ in3), products summed exactly, in3 scaled to the product's position, "
                   "rounded half up to the position (p > 0) and saturated")
            .input("in1", DataKind::tensor, true, "rank-2 u8, i8 or i16 fixed-point tensor [rows, columns]: M x N after its transpose")
            .input("in2", DataKind::tensor, true, "rank-2 tensor of in1's type and scale: N x K after its transpose")
            .input("in3", DataKind::tensor, false, "rank-2 tensor of in1's type and scale: M x K after its transpose (optional addend)")
            .output("out", DataKind::tensor, true, "tensor [M, K] of in1's type and scale")
            .attribute("transpose1", false, "read in1 transposed")
            .attribute("transpose2", false, "read in2 transposed")
            .attribute("transpose3", false, "read in3 transposed")
            .validate([](ValidateContext& v) {
              const int position = fixed_point_input(v, 0, "in1");
              const TensorMeta& a = v.meta(0).tensor;
              std::int64_t rows_cols[3][2] = {};
              const char* names[3] = {"in1", "in2", "in3"};
              const char* flags[3] = {"transpose1", "transpose2", "transpose3"};
              for (std::size_t i = 0; i < 3; ++i) {
                if (i == 2 && !v.is_bound(2)) break;
                const int p = fixed_point_input(v, i, names[i]);
                const TensorMeta& t = v.meta(i).tensor;
                if (t.rank != 2) v.fail(names[i], "has rank " + std::to_string(t.rank) + ": it must be a matrix (rank 2)");
                if (t.type != a.type || p != position) v.fail(names[i], "is " + v.meta(i).describe() + ": it must have in1's type and scale");
                const bool transposed = v.boolean(flags[i]);
                rows_cols[i][0] = t.dims[transposed ? 1 : 0];
                rows_cols[i][1] = t.dims[transposed ? 0 : 1];
              }
              if (rows_cols[1][0] != rows_cols[0][1])
                v.fail("in2", "has " + std::to_string(rows_cols[1][0]) + " rows after its transpose but in1 " + std::to_string(rows_cols[0][1]) +
                                  " columns: they must be equal");
              if (v.is_bound(2) && (rows_cols[2][0] != rows_cols[0][0] || rows_cols[2][1] != rows_cols[1][1]))
                v.fail("in3", "is " + std::to_string(rows_cols[2][0]) + " x " + std::to_string(rows_cols[2][1]) + " after its transpose: it must be " +
                                  std::to_string(rows_cols[0][0]) + " x " + std::to_string(rows_cols[1][1]));
              TensorMeta out = a;
              out.dims[0] = rows_cols[0][0];
              out.dims[1] = rows_cols[1][1];
              v.set_meta(3, fixed_point_tensor(out, a.type, position));
            }));
  m.implement("vg.vision.tensor_matrix_multiply", "cpu", callbacks_for<MatrixMultiplyKernel>());
}

}  // namespace

void add_tensor_kernels(Module& m) {
  add_elementwise(m);
  add_table_lookup(m);
  add_transpose(m);
  add_convert_depth(m);
  add_matrix_multiply(m);
}

}  // namespace vg::vision
