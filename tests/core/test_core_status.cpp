#include <gtest/gtest.h>

#include <set>
#include <string>

#include "visiongraph/core/status.hpp"

namespace {

TEST(StatusTest, EveryCodeHasAUniqueNonEmptyName) {
  std::set<std::string> names;
  for (int i = 0; i < static_cast<int>(vg::Status::count_); ++i) {
    const auto status = static_cast<vg::Status>(i);
    const std::string name(vg::to_string(status));
    EXPECT_FALSE(name.empty());
    EXPECT_NE(name, "unknown");
    EXPECT_FALSE(std::string(vg::describe(status)).empty());
    EXPECT_TRUE(names.insert(name).second) << name;
  }
}

TEST(StatusTest, OutOfRangeValueIsNamedUnknown) { EXPECT_EQ(vg::to_string(static_cast<vg::Status>(9999)), "unknown"); }

}  // namespace
