#pragma once
/// @file
/// @brief A fixed-size set of allowed class ids (no allocation, trivially copyable).

#include <cstdint>
#include <string_view>

namespace vg::detection {

inline constexpr int kMaxFilterClasses = 256;  ///< ids 0..255 can be selected individually

/// @brief Which class ids a decoder may report. Default: all classes.
/// @code
/// vg::detection::ClassFilter f;
/// f.parse("0,2,7");          // persons, cars, trucks (COCO)
/// f.allows(2);               // true
/// @endcode
class ClassFilter {
 public:
  /// @brief Allow every class (the default).
  void allow_all() noexcept;
  /// @brief Allow nothing; then allow() ids one by one.
  void allow_none() noexcept;
  /// @brief Allow one id; ids outside [0, kMaxFilterClasses) are ignored and return false.
  bool allow(int class_id) noexcept;
  bool allows(int class_id) const noexcept {
    if (all_) return true;
    if (class_id < 0 || class_id >= kMaxFilterClasses) return false;
    return (bits_[class_id >> 6] >> (class_id & 63)) & 1u;
  }
  bool allows_all() const noexcept { return all_; }

  /// @brief Parse comma-separated ids ("0, 2,7"); empty or blank text = all classes.
  /// @return false (filter unchanged) if an entry is not an integer in [0, kMaxFilterClasses).
  bool parse(std::string_view text) noexcept;
  /// @brief Write the filter as text ("all" or "0,2,7") into @p out; returns the length written (truncated
  ///        to @p size - 1, always NUL-terminated when size > 0).
  std::size_t format(char* out, std::size_t size) const noexcept;

 private:
  std::uint64_t bits_[kMaxFilterClasses / 64] = {};
  bool all_ = true;
};

}  // namespace vg::detection
