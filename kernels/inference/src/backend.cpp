#include "visiongraph/kernels/inference/backend.hpp"

#include "visiongraph/core/error.hpp"
#include "visiongraph/kernels/inference/opencv_backend.hpp"
#include "visiongraph/kernels/inference/rknn_backend.hpp"

namespace vg::inference {

std::size_t element_size(ElementKind kind) noexcept {
  switch (kind) {
    case ElementKind::f32: return 4;
    case ElementKind::f16: return 2;
    case ElementKind::i8: return 1;
    case ElementKind::u8: return 1;
    case ElementKind::i16: return 2;
    case ElementKind::u16: return 2;
    case ElementKind::i32: return 4;
    case ElementKind::u32: return 4;
    case ElementKind::i64: return 8;
    case ElementKind::boolean: return 1;
  }
  return 1;
}

std::string_view to_string(ElementKind kind) noexcept {
  switch (kind) {
    case ElementKind::f32: return "f32";
    case ElementKind::f16: return "f16";
    case ElementKind::i8: return "i8";
    case ElementKind::u8: return "u8";
    case ElementKind::i16: return "i16";
    case ElementKind::u16: return "u16";
    case ElementKind::i32: return "i32";
    case ElementKind::u32: return "u32";
    case ElementKind::i64: return "i64";
    case ElementKind::boolean: return "bool";
  }
  return "unknown";
}

std::string_view to_string(Layout layout) noexcept {
  switch (layout) {
    case Layout::unspecified: return "unspecified";
    case Layout::nchw: return "nchw";
    case Layout::nhwc: return "nhwc";
    case Layout::nc1hwc2: return "nc1hwc2";
  }
  return "unknown";
}

std::size_t TensorDesc::element_count() const noexcept {
  if (dims.empty()) return 0;
  std::size_t n = 1;
  for (std::int64_t d : dims) n *= static_cast<std::size_t>(d < 0 ? 0 : d);
  return n;
}

std::string TensorDesc::to_text() const {
  std::string s = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
  s += "] ";
  s += to_string(type);
  s += ' ';
  s += to_string(layout);
  if (quantized) s += " scale " + std::to_string(scale) + " zp " + std::to_string(zero_point);
  return s;
}

std::string resolve_backend_kind(std::string_view kind, std::string_view model_path) {
  if (kind == "auto" || kind.empty()) {
    const bool rknn = model_path.size() >= 5 && model_path.substr(model_path.size() - 5) == ".rknn";
    return rknn ? "rknn" : "opencv";
  }
  if (kind == "opencv" || kind == "rknn") return std::string(kind);
  throw Error("unknown inference backend '" + std::string(kind) + "' (expected auto, opencv or rknn)");
}

std::unique_ptr<InferenceBackend> make_backend(std::string_view kind, std::string_view model_path) {
  const std::string k = resolve_backend_kind(kind, model_path);
  if (k == "rknn") {
#if defined(VG_INFERENCE_HAVE_RKNN)
    return std::make_unique<RknnBackend>();
#else
    throw Error("inference backend rknn is not built in (configure with VG_BUILD_NPU=ON)");
#endif
  }
  return std::make_unique<OpencvBackend>();
}

}  // namespace vg::inference
