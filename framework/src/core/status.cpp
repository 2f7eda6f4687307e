// Status names are constexpr in the header; this unit keeps one definition of the list's size check.
#include "visiongraph/core/status.hpp"

namespace vg {
static_assert(to_string(Status::ok) == "ok");
static_assert(static_cast<int>(Status::count_) > 0);
}  // namespace vg
