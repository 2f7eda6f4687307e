#pragma once
/// @file
/// @brief A non-owning view of one model output tensor (float or affine-quantized 8-bit).

#include <cstdint>

namespace vg::detection {

/// @brief Element types the decoders read.
enum class ElemType : std::uint8_t { f32, i8, u8 };

inline constexpr int kMaxRank = 6;

/// @brief Pointer + shape + quantization of one tensor. Dims are logical (e.g. NCHW [1,255,80,80]).
/// Quantized values dequantize as `real = (q - zero_point) * scale`.
/// @code
/// vg::detection::TensorRef t = vg::detection::TensorRef::make(ptr, vg::detection::ElemType::i8,
///                                                            {1, 255, 80, 80}, 0.0039f, -128);
/// @endcode
struct TensorRef {
  const void* data = nullptr;
  ElemType type = ElemType::f32;
  int rank = 0;
  std::int64_t dims[kMaxRank] = {};
  float scale = 1.0f;
  std::int32_t zero_point = 0;

  /// @brief Build a view; dims beyond kMaxRank are ignored.
  template <int N>
  static TensorRef make(const void* data, ElemType type, const std::int64_t (&dims)[N], float scale = 1.0f,
                        std::int32_t zero_point = 0) noexcept {
    static_assert(N <= kMaxRank);
    TensorRef t;
    t.data = data;
    t.type = type;
    t.rank = N;
    for (int i = 0; i < N; ++i) t.dims[i] = dims[i];
    t.scale = scale;
    t.zero_point = zero_point;
    return t;
  }

  std::int64_t num_elements() const noexcept {
    std::int64_t n = rank > 0 ? 1 : 0;
    for (int i = 0; i < rank; ++i) n *= dims[i];
    return n;
  }
  bool quantized() const noexcept { return type != ElemType::f32; }

  /// @brief Element i as a real number (dequantized when needed).
  float real(std::int64_t i) const noexcept {
    switch (type) {
      case ElemType::f32:
        return static_cast<const float*>(data)[i];
      case ElemType::i8:
        return static_cast<float>(static_cast<const std::int8_t*>(data)[i] - zero_point) * scale;
      case ElemType::u8:
        return static_cast<float>(static_cast<const std::uint8_t*>(data)[i] - zero_point) * scale;
    }
    return 0.0f;
  }
};

/// @brief Smallest quantized value q (as int, possibly outside the type's range) with
///        `(q - zero_point) * scale >= threshold`. Comparing `q_in >= result` in the integer domain is then
///        exactly `dequantize(q_in) >= threshold`, so thresholds never need a per-element dequantize.
/// @pre scale > 0
std::int32_t quantize_threshold(float threshold, float scale, std::int32_t zero_point) noexcept;

}  // namespace vg::detection
