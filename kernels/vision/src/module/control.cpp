// The vg.vision control-flow kernels, OpenVX's enhanced-vision Select and ScalarOperation for native graphs:
// - select: the output image is a copy of one of two images, chosen per frame by a scalar condition;
// - scalar_operation: a logical, comparison or arithmetic operation on two scalars, by the library function
//   libopenvx's ScalarOperation runs (scalar_operation.hpp).
// Native scalars have no boolean type: a u8 0 / 1 stands for one (non-zero is true).
#include <cstring>
#include <string>

#include "kernels.hpp"
#include "support.hpp"
#include "visiongraph/kernels/vision/scalar_operation.hpp"

namespace vg::vision {
namespace {

using namespace module_support;

bool is_float_type(ElementType t) noexcept { return t == ElementType::f32 || t == ElementType::f64; }
bool is_integer_type(ElementType t) noexcept {
  return t == ElementType::u8 || t == ElementType::i8 || t == ElementType::u16 || t == ElementType::i16 || t == ElementType::u32 ||
         t == ElementType::i32 || t == ElementType::i64;
}

ScalarNumber read_number(const ScalarView& v) noexcept {
  switch (v.type()) {
    case ElementType::u8: return ScalarNumber::integer(v.get<std::uint8_t>());
    case ElementType::i8: return ScalarNumber::integer(v.get<std::int8_t>());
    case ElementType::u16: return ScalarNumber::integer(v.get<std::uint16_t>());
    case ElementType::i16: return ScalarNumber::integer(v.get<std::int16_t>());
    case ElementType::u32: return ScalarNumber::integer(v.get<std::uint32_t>());
    case ElementType::i32: return ScalarNumber::integer(v.get<std::int32_t>());
    case ElementType::i64: return ScalarNumber::integer(v.get<std::int64_t>());
    case ElementType::f32: return ScalarNumber::real(v.get<float>());
    case ElementType::f64: return ScalarNumber::real(v.get<double>());
    default: return {};
  }
}

/// @p n in @p v's type: an integer type takes the integer (truncated from a float, wrapped to its width).
void write_number(ScalarView v, const ScalarNumber& n) noexcept {
  const std::int64_t i = n.i;
  const double f = n.is_float ? n.f : static_cast<double>(n.i);
  switch (v.type()) {
    case ElementType::u8: v.set(static_cast<std::uint8_t>(i)); break;
    case ElementType::i8: v.set(static_cast<std::int8_t>(i)); break;
    case ElementType::u16: v.set(static_cast<std::uint16_t>(i)); break;
    case ElementType::i16: v.set(static_cast<std::int16_t>(i)); break;
    case ElementType::u32: v.set(static_cast<std::uint32_t>(i)); break;
    case ElementType::i32: v.set(static_cast<std::int32_t>(i)); break;
    case ElementType::i64: v.set(i); break;
    case ElementType::f32: v.set(static_cast<float>(f)); break;
    case ElementType::f64: v.set(f); break;
    default: break;
  }
}

constexpr const char* kOperations[] = {"and", "or", "xor", "nand", "equal", "not_equal", "less", "less_equal", "greater",
                                       "greater_equal", "add", "subtract", "multiply", "divide", "modulus", "min", "max"};
static_assert(std::size(kOperations) == kScalarOpCount);

struct ScalarOperationKernel {
  explicit ScalarOperationKernel(KernelContext& ctx) {
    for (int i = 0; i < kScalarOpCount; ++i)
      if (ctx.string("operation") == kOperations[i]) op = static_cast<ScalarOp>(i);  // validate checked it
  }
  Status process(KernelContext& ctx) noexcept {
    ScalarNumber result;
    if (!scalar_operation(op, read_number(ctx.scalar(0)), read_number(ctx.scalar(1)), result)) return Status::invalid_argument;  // / 0
    write_number(ctx.scalar(2), result);
    return Status::ok;
  }
  ScalarOp op = ScalarOp::add;
};

void add_scalar_operation(Module& m) {
  m.add(KernelDecl("vg.vision.scalar_operation",
                   "OpenVX ScalarOperation: out = a OP b; logical and comparison results are u8 0 / 1, arithmetic is in integers "
                   "when a and b are integers (division truncating; a zero divisor fails the frame), else in double")
            .input("a", DataKind::scalar, true, "a number (any integer or float type; for logical operations non-zero is true)")
            .input("b", DataKind::scalar, true, "a number")
            .output("out", DataKind::scalar, true,
                    "u8 for logical and comparison operations; else f64 when a or b is f64, f32 when one is f32, otherwise a's type")
            .attribute("operation", "add",
                       "and, or, xor, nand, equal, not_equal, less, less_equal, greater, greater_equal, add, subtract, multiply, "
                       "divide, modulus, min or max")
            .validate([](ValidateContext& v) {
              const auto op = static_cast<ScalarOp>(choice_attribute(v, "operation", kOperations));
              ElementType types[2]{};
              for (std::size_t i = 0; i < 2; ++i) {
                const DataMeta& m = v.meta(i);
                const char* name = i == 0 ? "a" : "b";
                if (m.kind != DataKind::scalar || !(is_integer_type(m.scalar.type) || is_float_type(m.scalar.type)))
                  v.fail(name, "expects a number (an integer or float scalar), got " + m.describe());
                types[i] = m.scalar.type;
              }
              ElementType out = types[0];
              if (is_logical(op) || is_comparison(op)) {
                out = ElementType::u8;
              } else if (types[0] == ElementType::f64 || types[1] == ElementType::f64) {
                out = ElementType::f64;
              } else if (types[0] == ElementType::f32 || types[1] == ElementType::f32) {
                out = ElementType::f32;
              }
              v.set_meta(2, DataMeta::scalar_of(out));
            }));
  m.implement("vg.vision.scalar_operation", "cpu", callbacks_for<ScalarOperationKernel>());
}

Status select_process(KernelContext& ctx) noexcept {
  const ScalarNumber condition = read_number(ctx.scalar(0));
  const bool take_true = condition.is_float ? condition.f != 0.0 : condition.i != 0;
  const ImageView chosen = ctx.image(take_true ? 1 : 2);
  const ImageView out = ctx.image(3);
  const bool packed_rgb = chosen.format() == ImageFormat::rgb24 || chosen.format() == ImageFormat::bgr24;
  const std::size_t row_bytes = packed_rgb ? 3u * chosen.width() : chosen.width();  // nv12's chroma rows too
  const std::uint32_t planes = chosen.format() == ImageFormat::nv12 ? 2 : 1;
  for (std::uint32_t p = 0; p < planes; ++p) {
    const std::uint32_t rows = p == 0 ? chosen.height() : chosen.height() / 2;
    for (std::uint32_t y = 0; y < rows; ++y) std::memcpy(out.plane(p) + y * out.stride(p), chosen.plane(p) + y * chosen.stride(p), row_bytes);
  }
  return Status::ok;
}

void add_select(Module& m) {
  m.add(KernelDecl("vg.vision.select", "OpenVX Select: the output is a copy of true_value when the condition is not 0, else of false_value")
            .input("condition", DataKind::scalar, true, "a number: not 0 chooses true_value (e.g. a u8 set by the application or scalar_operation)")
            .input("true_value", DataKind::image, true, "an image")
            .input("false_value", DataKind::image, true, "an image of true_value's size and format")
            .output("output", DataKind::image, true, "an image of that size and format")
            .validate([](ValidateContext& v) {
              const DataMeta& c = v.meta(0);
              if (c.kind != DataKind::scalar || !(is_integer_type(c.scalar.type) || is_float_type(c.scalar.type)))
                v.fail("condition", "expects a number (an integer or float scalar), got " + c.describe());
              const DataMeta& t = v.meta(1);
              const DataMeta& f = v.meta(2);
              if (t.image.width != f.image.width || t.image.height != f.image.height || t.image.format != f.image.format)
                v.fail("false_value", "is " + f.describe() + " but true_value is " + t.describe() + ": they must be alike");
              v.set_meta(3, DataMeta::image_of(t.image.width, t.image.height, t.image.format));
            }));
  m.implement("vg.vision.select", "cpu", KernelCallbacks{nullptr, &select_process, nullptr, nullptr});
}

}  // namespace

void add_control_kernels(Module& m) {
  add_select(m);
  add_scalar_operation(m);
}

}  // namespace vg::vision
