#include "visiongraph/kernels/detection/class_filter.hpp"

#include <charconv>
#include <cstring>

namespace vg::detection {

void ClassFilter::allow_all() noexcept {
  for (auto& b : bits_) b = 0;
  all_ = true;
}

void ClassFilter::allow_none() noexcept {
  for (auto& b : bits_) b = 0;
  all_ = false;
}

bool ClassFilter::allow(int class_id) noexcept {
  if (class_id < 0 || class_id >= kMaxFilterClasses) return false;
  bits_[class_id >> 6] |= std::uint64_t{1} << (class_id & 63);
  return true;
}

bool ClassFilter::parse(std::string_view text) noexcept {
  auto trim = [](std::string_view v) {
    while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
    while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
    return v;
  };
  text = trim(text);
  ClassFilter parsed;
  if (text.empty() || text == "all") {
    *this = parsed;
    return true;
  }
  parsed.allow_none();
  std::size_t pos = 0;
  for (;;) {
    std::size_t comma = text.find(',', pos);
    const bool last = comma == std::string_view::npos;
    if (last) comma = text.size();
    const std::string_view item = trim(text.substr(pos, comma - pos));
    int id = -1;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), id);
    // An empty entry ("1,,2") or trailing garbage is a typo, not a wildcard.
    if (item.empty() || ec != std::errc{} || end != item.data() + item.size() || !parsed.allow(id)) {
      return false;
    }
    if (last) break;
    pos = comma + 1;
  }
  *this = parsed;
  return true;
}

std::size_t ClassFilter::format(char* out, std::size_t size) const noexcept {
  if (size == 0) return 0;
  std::size_t n = 0;
  auto put = [&](const char* s, std::size_t len) {
    const std::size_t room = size - 1 - n;
    const std::size_t k = len < room ? len : room;
    std::memcpy(out + n, s, k);
    n += k;
  };
  if (all_) {
    put("all", 3);
  } else {
    bool first = true;
    for (int id = 0; id < kMaxFilterClasses; ++id) {
      if (!allows(id)) continue;
      char buf[8];
      const auto res = std::to_chars(buf, buf + sizeof buf, id);
      if (!first) put(",", 1);
      put(buf, static_cast<std::size_t>(res.ptr - buf));
      first = false;
    }
  }
  out[n] = '\0';
  return n;
}

}  // namespace vg::detection
