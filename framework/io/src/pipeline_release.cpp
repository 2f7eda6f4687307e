#include "pipeline_release.hpp"

#include <condition_variable>
#include <memory>
#include <mutex>

namespace vg::io::detail {
namespace {

// Shared by the waiting caller and GStreamer's weak-reference notification, which may come after the
// caller gave up waiting: whoever is last frees it.
struct Finalization {
  std::mutex mutex;
  std::condition_variable done;
  bool finalized = false;
};

void on_pipeline_finalized(gpointer data, GObject*) {
  auto* keep = static_cast<std::shared_ptr<Finalization>*>(data);
  {
    std::lock_guard lock((*keep)->mutex);
    (*keep)->finalized = true;
  }
  (*keep)->done.notify_all();
  delete keep;
}

}  // namespace

bool release_stopped_pipeline(GstElement* pipeline, std::chrono::milliseconds limit) noexcept {
  if (pipeline == nullptr) return true;
  std::shared_ptr<Finalization> state;
  std::shared_ptr<Finalization>* notified = nullptr;
  try {
    state = std::make_shared<Finalization>();
    notified = new std::shared_ptr<Finalization>(state);
  } catch (...) {  // out of memory while closing: let go without waiting
    gst_object_unref(pipeline);
    return false;
  }
  g_object_weak_ref(G_OBJECT(pipeline), &on_pipeline_finalized, notified);
  gst_object_unref(pipeline);  // finalizes it here, and notifies, when ours was the last reference
  std::unique_lock lock(state->mutex);
  return state->done.wait_for(lock, limit, [&] { return state->finalized; });
}

}  // namespace vg::io::detail
