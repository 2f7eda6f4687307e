#pragma once
// What the vg.vision kernel tests share: one context with the module loaded, and verify's message.
#include <string>

#include "visiongraph/kernels/vision/module.hpp"
#include "visiongraph/visiongraph.hpp"

namespace vg::vision::test {

/// A context with vg.vision loaded, for the whole test program.
inline Context& vision_context() {
  static Context ctx;
  static const bool loaded = (ctx.load_module(make_vision_module()), true);
  (void)loaded;
  return ctx;
}

/// verify's error message for @p g, or "" when it verifies.
inline std::string verify_error(Graph& g) {
  try {
    g.verify();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace vg::vision::test
