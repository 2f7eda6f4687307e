#include "gst_init.hpp"

#include <gst/gst.h>

#include <mutex>
#include <string>

#include "visiongraph/core/error.hpp"

namespace vg::io::detail {

void ensure_gstreamer() {
  static std::once_flag once;
  static std::string failure;
  std::call_once(once, [] {
    GError* error = nullptr;
    if (!gst_init_check(nullptr, nullptr, &error)) {
      failure = std::string("GStreamer failed to initialise: ") + (error ? error->message : "unknown reason");
      if (error) g_error_free(error);
    }
  });
  if (!failure.empty()) throw Error(failure);
}

}  // namespace vg::io::detail
