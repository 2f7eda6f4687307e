#include "gst_pipeline_counter.hpp"

#include <gst/gst.h>

#include <atomic>
#include <mutex>

// A tracer of our own registers the hooks: GStreamer calls them for every object it creates or finalizes.
typedef struct {
  GstTracer parent;
} VgPipelineCounter;
typedef struct {
  GstTracerClass parent_class;
} VgPipelineCounterClass;

G_DEFINE_TYPE(VgPipelineCounter, vg_pipeline_counter, GST_TYPE_TRACER)

namespace {

std::atomic<int> live{0};

void on_created(GObject*, GstClockTime, GstObject* object) {
  if (GST_IS_PIPELINE(object)) live.fetch_add(1);
}
void on_destroyed(GObject*, GstClockTime, GstObject* object) {
  if (GST_IS_PIPELINE(object)) live.fetch_sub(1);
}

}  // namespace

static void vg_pipeline_counter_class_init(VgPipelineCounterClass*) {}

static void vg_pipeline_counter_init(VgPipelineCounter* self) {
  gst_tracing_register_hook(GST_TRACER(self), "object-created", G_CALLBACK(&on_created));
  gst_tracing_register_hook(GST_TRACER(self), "object-destroyed", G_CALLBACK(&on_destroyed));
}

namespace vg::test {

int live_gst_pipelines() {
  static std::once_flag once;
  std::call_once(once, [] {
    gst_init(nullptr, nullptr);
    (void)g_object_new(vg_pipeline_counter_get_type(), nullptr);  // kept for the process: the hooks stay
  });
  return live.load();
}

}  // namespace vg::test
