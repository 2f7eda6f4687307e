// Handles that cannot be confused with a later object: the handle table behind every handle (its source
// is compiled into this test, where small layouts make its reuse, wrap and retire rules run quickly),
// and the C API refusing a released handle in every kind of call, whatever was created after it.
#include <VX/vx.h>
#include <VX/vx_khr_pipelining.h>
#include <VX/vxu.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <set>
#include <thread>
#include <vector>

#include "handle_table.hpp"

namespace {

using vg::openvx::handles::HandleTable;
using vg::openvx::handles::Layout;

std::uintptr_t bits(const void* handle) { return reinterpret_cast<std::uintptr_t>(handle); }
/// The first bit of a 64-bit handle's fixed marker (bits 55..63); unused on 32-bit hosts.
constexpr unsigned kMarkerShift = sizeof(void*) * 8 - 9;
/// The slot index in @p handle of a table with @p index_bits index bits.
std::uint32_t index_of(std::uintptr_t handle, unsigned index_bits) {
  return static_cast<std::uint32_t>(handle >> 1) & ((std::uint32_t{1} << index_bits) - 1);
}

// Distinct addresses to enter (the table never reads them).
std::vector<int> g_objects(1 << 16);
void* object(std::size_t i) { return &g_objects[i % g_objects.size()]; }

// ---- the table on its own ----------------------------------------------------------------------------

TEST(OpenVxHandleTable, TheProcessLayoutFitsTheWordSize) {
  const Layout layout = vg::openvx::handles::default_layout();
  EXPECT_EQ(1 + layout.index_bits + layout.generation_bits + (sizeof(void*) >= 8 ? 9u : 0u), sizeof(void*) * 8);
  EXPECT_EQ(layout.reuse_after, 65536u);
  if (sizeof(void*) >= 8) {
    EXPECT_EQ(layout.marker, std::uintptr_t{0x1FF} << kMarkerShift) << "bits 55..63 set: outside user space";
    EXPECT_GE(layout.generation_bits, 28u);
  } else {
    EXPECT_EQ(layout.index_bits, 20u);
    EXPECT_EQ(layout.generation_bits, 11u);
  }
}

TEST(OpenVxHandleTable, AHandleIsTaggedAndNamesItsObjectWhileLive) {
  HandleTable table(vg::openvx::handles::default_layout());
  const std::uintptr_t h = table.add(object(1));
  ASSERT_NE(h, 0u);
  EXPECT_EQ(h & 1u, 1u) << "never an aligned pointer";
  if (sizeof(void*) >= 8) {
    EXPECT_EQ(h >> kMarkerShift, 0x1FFu) << "a dereference faults";
  }
  EXPECT_EQ(table.find(h), object(1));
  EXPECT_EQ(table.find(h & ~std::uintptr_t{1}), nullptr) << "the untagged value is no handle";
  EXPECT_EQ(table.find(h ^ (std::uintptr_t{1} << (sizeof(void*) * 8 - 2))), nullptr);
  EXPECT_EQ(table.find(0), nullptr);
  EXPECT_EQ(table.find(reinterpret_cast<std::uintptr_t>(object(1))), nullptr) << "an address is no handle";
  table.remove(h);
  EXPECT_EQ(table.find(h), nullptr);
  table.remove(h);  // stale: nothing happens
  EXPECT_EQ(table.free_slots(), 1u);
}

// Free slots come back oldest first, and only while at least reuse_after of them wait: the table grows
// until then.
TEST(OpenVxHandleTable, SlotsComeBackInOrderOnlyAfterEnoughWait) {
  HandleTable table(Layout{8, 4, 0, 4, 2});
  std::vector<std::uintptr_t> handles;
  for (int i = 0; i < 6; ++i) handles.push_back(table.add(object(i)));
  for (std::uintptr_t h : handles) table.remove(h);  // slots 0..5 free, in that order
  EXPECT_EQ(table.slots(), 6u);
  // Six free slots wait (at least four): 0, 1 and 2 come back, in order; then three wait, so new slots.
  const std::uint32_t expected[] = {0, 1, 2, 6, 7};
  for (std::uint32_t want : expected) {
    const std::uintptr_t h = table.add(object(want + 100));
    EXPECT_EQ(index_of(h, 8), want);
    EXPECT_EQ(table.find(h), object(want + 100));
  }
  EXPECT_EQ(table.slots(), 8u);
  EXPECT_EQ(table.free_slots(), 3u);
  for (std::uintptr_t h : handles) EXPECT_EQ(table.find(h), nullptr) << "a stale handle of a reused slot";
}

// A slot whose generation would wrap retires; retired slots come back (at generation 0) only when the
// index space is used up, and a stale handle matches again only after its slot went through every
// generation: here 4 generations, each reuse at least reuse_after - 1 = 3 releases after the last.
TEST(OpenVxHandleTable, GenerationsWrapOnlyAfterTheSlotRetiredAndTheTableFilledUp) {
  const Layout small{3, 2, 0, 4, 3};  // 8 slots, 4 generations
  HandleTable table(small);
  const std::uintptr_t first = table.add(object(0));
  table.remove(first);
  std::set<std::uintptr_t> seen{first};
  std::size_t creations = 0, matched_after = 0, most_retired = 0;
  for (int i = 1; i < 400 && matched_after == 0; ++i) {
    const std::uintptr_t h = table.add(object(i));
    ASSERT_NE(h, 0u) << "no slot at creation " << i;
    ++creations;
    if (h == first) matched_after = creations;
    if (h != first) {
      EXPECT_EQ(table.find(first), nullptr);
    }
    most_retired = std::max(most_retired, table.retired_slots());
    table.remove(h);
  }
  EXPECT_GT(most_retired, 0u) << "a slot at its last generation retires";
  ASSERT_GT(matched_after, 0u) << "slots come back once the index space is used up";
  // All 8 slots went through their 4 generations before any came back at generation 0: 8 x 4 handles.
  EXPECT_GE(matched_after, 8u * 4u - 1u);
  EXPECT_GE(matched_after, 4u * (small.reuse_after - 1));
}

TEST(OpenVxHandleTable, ATableFullOfLiveObjectsRefusesMore) {
  HandleTable table(Layout{2, 4, 0, 1, 2});
  std::vector<std::uintptr_t> handles;
  for (int i = 0; i < 4; ++i) {
    handles.push_back(table.add(object(i)));
    ASSERT_NE(handles.back(), 0u);
  }
  EXPECT_EQ(table.add(object(9)), 0u);
  table.remove(handles[2]);
  const std::uintptr_t again = table.add(object(9));
  EXPECT_EQ(index_of(again, 2), 2u);
  EXPECT_NE(again, handles[2]);
  EXPECT_EQ(table.find(again), object(9));
}

TEST(OpenVxHandleTable, ConcurrentAddFindRemoveNeverGivesAnotherObject) {
  HandleTable table(Layout{16, 8, 0, 64, 6});
  std::atomic<std::uintptr_t> last_released{0};
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20000; ++i) {
        void* mine = object(static_cast<std::size_t>(t) * 16384 + static_cast<std::size_t>(i % 16384));
        const std::uintptr_t h = table.add(mine);
        if (h == 0 || table.find(h) != mine) ++wrong;
        // Another thread's released handle names nothing, whatever was added since.
        if (const std::uintptr_t stale = last_released.load(); stale != 0 && table.find(stale) != nullptr) ++wrong;
        table.remove(h);
        if (table.find(h) != nullptr) ++wrong;
        last_released.store(h);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

// ---- through the C API ---------------------------------------------------------------------------------

class OpenVxHandles : public ::testing::Test {
 protected:
  void SetUp() override {
    context_ = vxCreateContext();
    ASSERT_EQ(vxGetStatus(reinterpret_cast<vx_reference>(context_)), VX_SUCCESS);
  }
  void TearDown() override { EXPECT_EQ(vxReleaseContext(&context_), VX_SUCCESS); }
  vx_context context_ = nullptr;
};

vx_reference ref(void* handle) { return static_cast<vx_reference>(handle); }

TEST_F(OpenVxHandles, AHandleIsNotAnAddress) {
  vx_image image = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_U8);
  ASSERT_EQ(vxGetStatus(ref(image)), VX_SUCCESS);
  for (void* h : {static_cast<void*>(context_), static_cast<void*>(image)}) {
    EXPECT_EQ(bits(h) & 1u, 1u) << "an object's address is aligned; a handle is not";
    if (sizeof(void*) >= 8) {
      EXPECT_GE(bits(h), std::uintptr_t{1} << kMarkerShift) << "outside user space";
    }
  }
  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
  EXPECT_EQ(image, nullptr);
}

TEST_F(OpenVxHandles, HandlesOfDifferentObjectsDifferAndOneObjectKeepsItsHandle) {
  std::set<std::uintptr_t> seen;
  std::vector<vx_reference> made;
  for (int i = 0; i < 200; ++i) {
    made.push_back(ref(vxCreateScalar(context_, VX_TYPE_INT32, &i)));
    made.push_back(ref(vxCreateImage(context_, 8, 8, VX_DF_IMAGE_U8)));
    made.push_back(ref(vxCreateGraph(context_)));
  }
  for (vx_reference r : made) {
    ASSERT_EQ(vxGetStatus(r), VX_SUCCESS);
    EXPECT_TRUE(seen.insert(bits(r)).second);
    EXPECT_EQ(vxGetContext(r), context_) << "the context's handle, as vxCreateContext gave it";
  }
  vx_object_array array = vxCreateObjectArray(context_, made[0], 3);
  ASSERT_EQ(vxGetStatus(ref(array)), VX_SUCCESS);
  vx_reference a = vxGetObjectArrayItem(array, 1), b = vxGetObjectArrayItem(array, 1), c = vxGetObjectArrayItem(array, 2);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  for (vx_reference* r : {&a, &b, &c}) EXPECT_EQ(vxReleaseReference(r), VX_SUCCESS);
  EXPECT_EQ(vxReleaseObjectArray(&array), VX_SUCCESS);
  for (vx_reference& r : made) EXPECT_EQ(vxReleaseReference(&r), VX_SUCCESS);
}

vx_status VX_CALLBACK copy_int32(vx_node, const vx_reference* parameters, vx_uint32) {
  vx_int32 v = 0;
  if (vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[0]), &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST) != VX_SUCCESS) return VX_FAILURE;
  return vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[1]), &v, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
}
vx_status VX_CALLBACK int32_out(vx_node, const vx_reference[], vx_uint32, vx_meta_format metas[]) {
  const vx_enum type = VX_TYPE_INT32;
  return vxSetMetaFormatAttribute(metas[1], VX_SCALAR_TYPE, &type, sizeof type);
}

vx_kernel copy_kernel(vx_context context) {
  vx_enum id = 0;
  EXPECT_EQ(vxAllocateUserKernelId(context, &id), VX_SUCCESS);
  vx_kernel kernel = vxAddUserKernel(context, "test.handles.copy", id, copy_int32, 2, int32_out, nullptr, nullptr);
  EXPECT_EQ(vxAddParameterToKernel(kernel, 0, VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED), VX_SUCCESS);
  EXPECT_EQ(vxAddParameterToKernel(kernel, 1, VX_OUTPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED), VX_SUCCESS);
  EXPECT_EQ(vxFinalizeKernel(kernel), VX_SUCCESS);
  return kernel;
}

// A released handle, after a new object of its type was made (which may well take the released object's
// memory), is refused by every kind of call: queries, data access, creators taking it, node parameters,
// graph parameter queues, events, immediate mode, releases.
TEST_F(OpenVxHandles, AReleasedHandleIsRefusedEverywhereAfterANewObjectOfItsType) {
  vx_int32 one = 1;
  vx_scalar stale_scalar = vxCreateScalar(context_, VX_TYPE_INT32, &one);
  vx_image stale_image = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_U8);
  vx_graph stale_graph = vxCreateGraph(context_);
  vx_kernel kernel = copy_kernel(context_);
  vx_node stale_node = vxCreateGenericNode(stale_graph, kernel);
  const vx_scalar kept_scalar = stale_scalar;
  const vx_image kept_image = stale_image;
  const vx_graph kept_graph = stale_graph;
  const vx_node kept_node = stale_node;
  ASSERT_EQ(vxReleaseNode(&stale_node), VX_SUCCESS);
  ASSERT_EQ(vxReleaseGraph(&stale_graph), VX_SUCCESS);
  ASSERT_EQ(vxReleaseScalar(&stale_scalar), VX_SUCCESS);
  ASSERT_EQ(vxReleaseImage(&stale_image), VX_SUCCESS);
  stale_scalar = kept_scalar;
  stale_image = kept_image;
  stale_graph = kept_graph;
  stale_node = kept_node;

  // New objects of the same types, in use.
  vx_scalar in = vxCreateScalar(context_, VX_TYPE_INT32, &one);
  vx_scalar out = vxCreateScalar(context_, VX_TYPE_INT32, &one);
  vx_image image = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_U8);
  vx_image other = vxCreateImage(context_, 16, 16, VX_DF_IMAGE_U8);
  vx_graph graph = vxCreateGraph(context_);
  vx_node node = vxCreateGenericNode(graph, kernel);
  for (vx_reference r : {ref(in), ref(out), ref(image), ref(other), ref(graph), ref(node)}) ASSERT_EQ(vxGetStatus(r), VX_SUCCESS);
  for (vx_reference r : {ref(in), ref(out)}) EXPECT_NE(r, ref(stale_scalar));
  for (vx_reference r : {ref(image), ref(other)}) EXPECT_NE(r, ref(stale_image));
  EXPECT_NE(graph, stale_graph);
  EXPECT_NE(node, stale_node);

  const vx_status refused = VX_ERROR_INVALID_REFERENCE;
  vx_int32 v = 0;
  vx_enum type = 0;
  vx_uint32 width = 0;
  // Any reference.
  for (vx_reference r : {ref(stale_scalar), ref(stale_image), ref(stale_graph), ref(stale_node)}) {
    EXPECT_EQ(vxGetStatus(r), refused);
    EXPECT_EQ(vxQueryReference(r, VX_REFERENCE_TYPE, &type, sizeof type), refused);
    EXPECT_EQ(vxRetainReference(r), refused);
    EXPECT_EQ(vxSetReferenceName(r, "stale"), refused);
    EXPECT_EQ(vxHint(r, VX_HINT_PERFORMANCE_DEFAULT, nullptr, 0), refused);
    EXPECT_EQ(vxDirective(r, VX_DIRECTIVE_ENABLE_LOGGING), refused);
    EXPECT_EQ(vxGetContext(r), nullptr);
    vx_reference copy = r;
    EXPECT_EQ(vxReleaseReference(&copy), refused);
    EXPECT_EQ(copy, r) << "a refused release leaves the application's handle alone";
  }
  EXPECT_EQ(vxRegisterEvent(ref(stale_graph), VX_EVENT_GRAPH_COMPLETED, 0, 1), refused);
  EXPECT_EQ(vxRegisterEvent(ref(stale_node), VX_EVENT_NODE_COMPLETED, 0, 1), refused);
  // Typed calls.
  EXPECT_EQ(vxCopyScalar(stale_scalar, &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), refused);
  EXPECT_EQ(vxQueryScalar(stale_scalar, VX_SCALAR_TYPE, &type, sizeof type), refused);
  EXPECT_EQ(vxQueryImage(stale_image, VX_IMAGE_WIDTH, &width, sizeof width), refused);
  vx_rectangle_t rect{0, 0, 4, 4};
  vx_map_id map_id = 0;
  vx_imagepatch_addressing_t addressing{};
  void* base = nullptr;
  EXPECT_EQ(vxMapImagePatch(stale_image, &rect, 0, &map_id, &addressing, &base, VX_READ_ONLY, VX_MEMORY_TYPE_HOST, 0), refused);
  EXPECT_EQ(vxGetValidRegionImage(stale_image, &rect), refused);
  EXPECT_EQ(vxSwapImageHandle(stale_image, nullptr, nullptr, 1), refused);
  EXPECT_EQ(vxQueryGraph(stale_graph, VX_GRAPH_STATE, &type, sizeof type), refused);
  EXPECT_EQ(vxVerifyGraph(stale_graph), refused);
  EXPECT_EQ(vxProcessGraph(stale_graph), refused);
  EXPECT_EQ(vxQueryNode(stale_node, VX_NODE_STATUS, &v, sizeof v), refused);
  EXPECT_EQ(vxSetParameterByIndex(stale_node, 0, ref(in)), refused);
  EXPECT_EQ(vxGetParameterByIndex(stale_node, 0), nullptr);
  EXPECT_EQ(vxReleaseImage(&stale_image), refused);
  EXPECT_EQ(stale_image, kept_image);
  // Stale handles as arguments of live objects' calls.
  EXPECT_EQ(vxSetParameterByIndex(node, 0, ref(stale_scalar)), refused);
  EXPECT_EQ(vxSetParameterByIndex(node, 0, ref(stale_image)), refused);
  EXPECT_EQ(vxGetStatus(ref(vxCreateObjectArray(context_, ref(stale_image), 2))), refused);
  EXPECT_EQ(vxGetStatus(ref(vxCreateDelay(context_, ref(stale_scalar), 2))), refused);
  EXPECT_EQ(vxCreateImageFromROI(stale_image, &rect), nullptr) << "NULL: no context to take an error object from";
  vx_node not_node = vxNotNode(graph, stale_image, other);
  EXPECT_NE(vxGetStatus(ref(not_node)), VX_SUCCESS);
  EXPECT_EQ(vxuNot(context_, stale_image, other), refused);
  EXPECT_EQ(vxuNot(context_, image, stale_image), refused);
  EXPECT_EQ(vxCreateGenericNode(stale_graph, kernel), nullptr);
  // Graph parameters and their queues.
  EXPECT_EQ(vxSetParameterByIndex(node, 0, ref(in)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(node, 1, ref(out)), VX_SUCCESS);
  vx_parameter p = vxGetParameterByIndex(node, 0);
  EXPECT_EQ(vxAddParameterToGraph(graph, p), VX_SUCCESS);
  EXPECT_EQ(vxReleaseParameter(&p), VX_SUCCESS);
  EXPECT_EQ(vxSetGraphParameterByIndex(graph, 0, ref(stale_scalar)), refused);
  vx_reference stale_list[] = {ref(stale_scalar)};
  vx_graph_parameter_queue_params_t queue{0, 1, stale_list};
  EXPECT_EQ(vxSetGraphScheduleConfig(graph, VX_GRAPH_SCHEDULE_MODE_QUEUE_AUTO, 1, &queue), refused);
  vx_reference live_list[] = {ref(in)};
  queue.refs_list = live_list;
  ASSERT_EQ(vxSetGraphScheduleConfig(graph, VX_GRAPH_SCHEDULE_MODE_QUEUE_AUTO, 1, &queue), VX_SUCCESS);
  EXPECT_EQ(vxGraphParameterEnqueueReadyRef(graph, 0, stale_list, 1), refused);
  EXPECT_EQ(vxGraphParameterEnqueueReadyRef(graph, 0, live_list, 1), VX_SUCCESS);
  vx_reference done = nullptr;
  vx_uint32 count = 0;
  EXPECT_EQ(vxGraphParameterDequeueDoneRef(graph, 0, &done, 1, &count), VX_SUCCESS);
  EXPECT_EQ(done, ref(in)) << "the handle the application enqueued comes back";
  EXPECT_EQ(vxWaitGraph(graph), VX_SUCCESS);

  // The new objects work.
  EXPECT_EQ(vxCopyScalar(out, &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(v, 1);
  EXPECT_EQ(vxQueryImage(image, VX_IMAGE_WIDTH, &width, sizeof width), VX_SUCCESS);
  EXPECT_EQ(vxuNot(context_, image, other), VX_SUCCESS);

  for (vx_reference* r : {reinterpret_cast<vx_reference*>(&node), reinterpret_cast<vx_reference*>(&graph),
                          reinterpret_cast<vx_reference*>(&in), reinterpret_cast<vx_reference*>(&out),
                          reinterpret_cast<vx_reference*>(&image), reinterpret_cast<vx_reference*>(&other)}) {
    EXPECT_EQ(vxReleaseReference(r), VX_SUCCESS);
  }
  EXPECT_EQ(vxRemoveKernel(kernel), VX_SUCCESS);
}

// 100,000 objects made and released one after another (past the 65,536 free slots that wait before a slot
// is reused): every handle is new, and every released one stays refused.
TEST_F(OpenVxHandles, ReleasedHandlesStayRefusedOver100kCycles) {
  std::vector<vx_scalar> released;
  released.reserve(100000);
  std::set<std::uintptr_t> seen;
  vx_int32 value = 7;
  for (int i = 0; i < 100000; ++i) {
    vx_scalar s = vxCreateScalar(context_, VX_TYPE_INT32, &value);
    ASSERT_EQ(vxGetStatus(ref(s)), VX_SUCCESS);
    ASSERT_TRUE(seen.insert(bits(s)).second) << "handle repeated at cycle " << i;
    released.push_back(s);
    vx_scalar copy = s;
    ASSERT_EQ(vxReleaseScalar(&copy), VX_SUCCESS);
  }
  vx_scalar live = vxCreateScalar(context_, VX_TYPE_INT32, &value);
  ASSERT_EQ(vxGetStatus(ref(live)), VX_SUCCESS);
  vx_int32 v = 0;
  for (vx_scalar s : released) {
    ASSERT_EQ(vxGetStatus(ref(s)), VX_ERROR_INVALID_REFERENCE);
    ASSERT_EQ(vxCopyScalar(s, &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_ERROR_INVALID_REFERENCE);
  }
  EXPECT_EQ(vxCopyScalar(live, &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST), VX_SUCCESS);
  EXPECT_EQ(v, 7);
  EXPECT_EQ(vxReleaseScalar(&live), VX_SUCCESS);
}

TEST_F(OpenVxHandles, AFailedCreatorsErrorObjectStillReportsItsStatus) {
  vx_image bad = vxCreateImage(context_, 0, 0, VX_DF_IMAGE_U8);
  EXPECT_EQ(vxGetStatus(ref(bad)), VX_ERROR_INVALID_DIMENSION);
  EXPECT_EQ(bits(bad) & 1u, 1u) << "an error object has a handle too";
  vx_uint32 width = 0;
  EXPECT_EQ(vxQueryImage(bad, VX_IMAGE_WIDTH, &width, sizeof width), VX_ERROR_INVALID_REFERENCE);
  vx_reference r = ref(bad);
  EXPECT_EQ(vxReleaseReference(&r), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxGetContext(ref(bad)), context_);
  vx_kernel none = vxGetKernelByName(context_, "no.such.kernel");
  EXPECT_EQ(vxGetStatus(ref(none)), VX_ERROR_INVALID_PARAMETERS);
  // A released context's error objects go with it.
  vx_context other = vxCreateContext();
  vx_image other_bad = vxCreateImage(other, 0, 0, VX_DF_IMAGE_U8);
  EXPECT_EQ(vxGetStatus(ref(other_bad)), VX_ERROR_INVALID_DIMENSION);
  EXPECT_EQ(vxReleaseContext(&other), VX_SUCCESS);
  EXPECT_EQ(vxGetStatus(ref(other_bad)), VX_ERROR_INVALID_REFERENCE);
}

// What callbacks are given are handles, the same the application holds.
struct Seen {
  vx_node node = nullptr;
  vx_reference parameter = nullptr;
  vx_meta_format meta = nullptr;
  vx_node completed = nullptr;
  bool function_ran = false;
};
Seen g_seen;

vx_status VX_CALLBACK seeing_function(vx_node node, const vx_reference* parameters, vx_uint32 n) {
  g_seen.function_ran = node == g_seen.node && n == 2 && parameters[0] == g_seen.parameter;
  return copy_int32(node, parameters, n);
}
vx_status VX_CALLBACK seeing_validate(vx_node node, const vx_reference parameters[], vx_uint32 n, vx_meta_format metas[]) {
  if (node != g_seen.node || parameters[0] != g_seen.parameter || metas[0] != nullptr) return VX_ERROR_INVALID_REFERENCE;
  g_seen.meta = metas[1];
  return int32_out(node, parameters, n, metas);
}
vx_action VX_CALLBACK seeing_completion(vx_node node) {
  g_seen.completed = node;
  return VX_ACTION_CONTINUE;
}

TEST_F(OpenVxHandles, CallbacksParametersAndEventsAreTheApplicationsHandles) {
  vx_enum id = 0;
  ASSERT_EQ(vxAllocateUserKernelId(context_, &id), VX_SUCCESS);
  vx_kernel kernel = vxAddUserKernel(context_, "test.handles.seeing", id, seeing_function, 2, seeing_validate, nullptr, nullptr);
  ASSERT_EQ(vxAddParameterToKernel(kernel, 0, VX_INPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED), VX_SUCCESS);
  ASSERT_EQ(vxAddParameterToKernel(kernel, 1, VX_OUTPUT, VX_TYPE_SCALAR, VX_PARAMETER_STATE_REQUIRED), VX_SUCCESS);
  ASSERT_EQ(vxFinalizeKernel(kernel), VX_SUCCESS);
  vx_int32 value = 5;
  vx_scalar in = vxCreateScalar(context_, VX_TYPE_INT32, &value);
  vx_scalar out = vxCreateScalar(context_, VX_TYPE_INT32, &value);
  vx_graph graph = vxCreateGraph(context_);
  vx_node node = vxCreateGenericNode(graph, kernel);
  g_seen = Seen{};
  g_seen.node = node;
  g_seen.parameter = ref(in);
  ASSERT_EQ(vxSetParameterByIndex(node, 0, ref(in)), VX_SUCCESS);
  ASSERT_EQ(vxSetParameterByIndex(node, 1, ref(out)), VX_SUCCESS);
  ASSERT_EQ(vxAssignNodeCallback(node, seeing_completion), VX_SUCCESS);
  ASSERT_EQ(vxRegisterEvent(ref(node), VX_EVENT_NODE_COMPLETED, 0, 11), VX_SUCCESS);
  ASSERT_EQ(vxRegisterEvent(ref(graph), VX_EVENT_GRAPH_COMPLETED, 0, 12), VX_SUCCESS);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  EXPECT_TRUE(g_seen.function_ran);
  EXPECT_EQ(bits(g_seen.meta) & 1u, 1u) << "a meta format is given by its handle";
  EXPECT_EQ(g_seen.completed, node);
  std::map<vx_uint32, vx_event_t> events;
  vx_event_t event{};
  while (vxWaitEvent(context_, &event, vx_true_e) == VX_SUCCESS) events[event.app_value] = event;
  ASSERT_EQ(events.count(11), 1u);
  EXPECT_EQ(events[11].event_info.node_completed.node, node);
  EXPECT_EQ(events[11].event_info.node_completed.graph, graph);
  ASSERT_EQ(events.count(12), 1u);
  EXPECT_EQ(events[12].event_info.graph_completed.graph, graph);
  // Getters hand out the same handles.
  vx_parameter p = vxGetParameterByIndex(node, 0);
  vx_reference got = nullptr;
  ASSERT_EQ(vxQueryParameter(p, VX_PARAMETER_REF, &got, sizeof got), VX_SUCCESS);
  EXPECT_EQ(got, ref(in));
  EXPECT_EQ(vxReleaseReference(&got), VX_SUCCESS);
  EXPECT_EQ(vxReleaseParameter(&p), VX_SUCCESS);
  vx_kernel found = vxGetKernelByName(context_, "test.handles.seeing");
  EXPECT_EQ(found, kernel);
  EXPECT_EQ(vxReleaseKernel(&found), VX_SUCCESS);
  for (vx_reference* r : {reinterpret_cast<vx_reference*>(&node), reinterpret_cast<vx_reference*>(&graph),
                          reinterpret_cast<vx_reference*>(&in), reinterpret_cast<vx_reference*>(&out)}) {
    EXPECT_EQ(vxReleaseReference(r), VX_SUCCESS);
  }
  EXPECT_EQ(vxRemoveKernel(kernel), VX_SUCCESS);
}

// Four threads create, query and release objects of one context at once, and try each other's released
// handles: those are refused, never taken for a newer object.
TEST_F(OpenVxHandles, ConcurrentCreateQueryReleaseFromFourThreads) {
  std::atomic<std::uintptr_t> released{0};
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 3000; ++i) {
        vx_int32 value = t * 100000 + i;
        vx_scalar s = vxCreateScalar(context_, VX_TYPE_INT32, &value);
        vx_int32 back = -1;
        if (vxCopyScalar(s, &back, VX_READ_ONLY, VX_MEMORY_TYPE_HOST) != VX_SUCCESS || back != value) ++wrong;
        vx_enum type = 0;
        if (vxQueryScalar(s, VX_SCALAR_TYPE, &type, sizeof type) != VX_SUCCESS || type != VX_TYPE_INT32) ++wrong;
        if (const std::uintptr_t stale = released.load(); stale != 0) {
          if (vxCopyScalar(reinterpret_cast<vx_scalar>(stale), &back, VX_READ_ONLY, VX_MEMORY_TYPE_HOST) != VX_ERROR_INVALID_REFERENCE) ++wrong;
        }
        const std::uintptr_t handle = bits(s);
        if (vxReleaseScalar(&s) != VX_SUCCESS) ++wrong;
        released.store(handle);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
  vx_uint32 references = 0;
  EXPECT_EQ(vxQueryContext(context_, VX_CONTEXT_REFERENCES, &references, sizeof references), VX_SUCCESS);
  EXPECT_EQ(references, 0u);
}

}  // namespace
