// Closing a GStreamer pipeline gives back everything it held before the closer goes on, also when
// GStreamer itself holds the last reference for a moment on another thread.
#include <gst/gst.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "pipeline_release.hpp"  // framework/io/src

namespace {

using namespace std::chrono_literals;
using vg::io::detail::release_stopped_pipeline;

struct Watched {
  GstElement* pipeline = nullptr;
  std::atomic<bool> finalized{false};

  Watched() {
    gst_init(nullptr, nullptr);
    pipeline = gst_parse_launch("fakesrc num-buffers=1 ! fakesink", nullptr);
    g_object_weak_ref(G_OBJECT(pipeline), [](gpointer self, GObject*) {
      static_cast<Watched*>(self)->finalized = true;
    }, this);
  }
};

TEST(IoPipelineRelease, TheLastReferenceFinalizesAtOnce) {
  Watched w;
  EXPECT_TRUE(release_stopped_pipeline(w.pipeline, 1s));
  EXPECT_TRUE(w.finalized);
}

TEST(IoPipelineRelease, WaitsForAnotherThreadsLastReference) {
  Watched w;
  gst_object_ref(w.pipeline);  // as a bin's asynchronous state continuation holds it
  std::thread other([&] {
    std::this_thread::sleep_for(100ms);
    gst_object_unref(w.pipeline);
  });
  EXPECT_TRUE(release_stopped_pipeline(w.pipeline, 10s));
  EXPECT_TRUE(w.finalized) << "returned before the pipeline was gone";
  other.join();
}

TEST(IoPipelineRelease, GivesUpAfterTheLimitAndStaysSafe) {
  Watched w;
  gst_object_ref(w.pipeline);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(release_stopped_pipeline(w.pipeline, 50ms));
  EXPECT_GE(std::chrono::steady_clock::now() - start, 50ms);
  EXPECT_FALSE(w.finalized);
  gst_object_unref(w.pipeline);  // the late notification frees what the waiter left behind
  EXPECT_TRUE(w.finalized);
}

TEST(IoPipelineRelease, NullIsNothingToDo) { EXPECT_TRUE(release_stopped_pipeline(nullptr, 1ms)); }

}  // namespace
