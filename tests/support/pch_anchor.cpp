// The one source of vg_test_pch, the executable that owns the precompiled GoogleTest header every test
// executable reuses (tests/CMakeLists.txt). It is linked with gtest_main and runs no test.
#include <gtest/gtest.h>
