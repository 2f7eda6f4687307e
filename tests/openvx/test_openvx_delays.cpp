// Delays: creation, slot access, aging with node parameters following their slot (levels and items too),
// auto-aging, graphs reading slot -1 while writing slot 0, reference counts, refusals.

#include <VX/vx.h>
#include <VX/vx_khr_pipelining.h>
#include <VX/vx_khr_user_data_object.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "openvx_fixture.hpp"

namespace {

using vg_openvx_test::read_int32;
using vg_openvx_test::write_int32;
using vg_openvx_test::int32_output;
using vg_openvx_test::OpenVx;
using vg_openvx_test::add_user_kernel;
using vg_openvx_test::Param;


constexpr vx_uint32 kWidth = 8, kHeight = 4;

vx_status copy_pixels(vx_image image, std::vector<vx_uint8>& pixels, vx_enum usage) {
  pixels.resize(kWidth * kHeight);
  const vx_rectangle_t all{0, 0, kWidth, kHeight};
  vx_imagepatch_addressing_t addr = VX_IMAGEPATCH_ADDR_INIT;
  addr.dim_x = kWidth;
  addr.dim_y = kHeight;
  addr.stride_x = 1;
  addr.stride_y = static_cast<vx_int32>(kWidth);
  return vxCopyImagePatch(image, &all, 0, &addr, pixels.data(), usage, VX_MEMORY_TYPE_HOST);
}
void fill(vx_reference image, vx_uint8 value) {
  std::vector<vx_uint8> pixels(kWidth * kHeight, value);
  EXPECT_EQ(copy_pixels(reinterpret_cast<vx_image>(image), pixels, VX_WRITE_ONLY), VX_SUCCESS);
}
std::vector<vx_uint8> pixels_of(vx_reference image) {
  std::vector<vx_uint8> pixels;
  EXPECT_EQ(copy_pixels(reinterpret_cast<vx_image>(image), pixels, VX_READ_ONLY), VX_SUCCESS);
  return pixels;
}

// --- user kernels ---------------------------------------------------------------------------------------

int initializes = 0;             // kernel initializers run (one per node per verification)
vx_delay delay_to_age = nullptr;  // aged by the "ager" kernel
vx_status aged_from_kernel = VX_SUCCESS;
vx_action callback_action = VX_ACTION_CONTINUE;

vx_status VX_CALLBACK count_initialize(vx_node, const vx_reference*, vx_uint32) {
  ++initializes;
  return VX_SUCCESS;
}


vx_status VX_CALLBACK output_like_first(vx_node, const vx_reference parameters[], vx_uint32 count, vx_meta_format metas[]) {
  return vxSetMetaFormatFromReference(metas[count - 1], parameters[0]);
}

// out = in + previous (int32 scalars).
vx_status VX_CALLBACK accumulate(vx_node, const vx_reference* parameters, vx_uint32) {
  vx_int32 in = 0, previous = 0;
  vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[0]), &in, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (s == VX_SUCCESS) s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[1]), &previous, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  vx_int32 out = in + previous;
  if (s == VX_SUCCESS) s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[2]), &out, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  return s;
}

// out = in + 1 (int32 scalars); fails on -1.
vx_status VX_CALLBACK add_one(vx_node, const vx_reference* parameters, vx_uint32) {
  vx_int32 v = 0;
  vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[0]), &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (v == -1) return VX_FAILURE;
  ++v;
  if (s == VX_SUCCESS) s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[1]), &v, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  return s;
}

// out = in + 1 per pixel (U8 images).
vx_status VX_CALLBACK image_add_one(vx_node, const vx_reference* parameters, vx_uint32) {
  std::vector<vx_uint8> pixels;
  vx_status s = copy_pixels(reinterpret_cast<vx_image>(parameters[0]), pixels, VX_READ_ONLY);
  for (vx_uint8& p : pixels) ++p;
  if (s == VX_SUCCESS) s = copy_pixels(reinterpret_cast<vx_image>(parameters[1]), pixels, VX_WRITE_ONLY);
  return s;
}

// out = |current - previous| per pixel (U8 images): a frame difference.
vx_status VX_CALLBACK difference(vx_node, const vx_reference* parameters, vx_uint32) {
  std::vector<vx_uint8> current, previous;
  vx_status s = copy_pixels(reinterpret_cast<vx_image>(parameters[0]), current, VX_READ_ONLY);
  if (s == VX_SUCCESS) s = copy_pixels(reinterpret_cast<vx_image>(parameters[1]), previous, VX_READ_ONLY);
  for (std::size_t i = 0; i < current.size(); ++i) current[i] = static_cast<vx_uint8>(std::abs(current[i] - previous[i]));
  if (s == VX_SUCCESS) s = copy_pixels(reinterpret_cast<vx_image>(parameters[2]), current, VX_WRITE_ONLY);
  return s;
}

// Tries to age a delay from kernel code; copies its input to its output.
vx_status VX_CALLBACK ager(vx_node node, const vx_reference* parameters, vx_uint32 count) {
  aged_from_kernel = vxAgeDelay(delay_to_age);
  return add_one(node, parameters, count);
}

// Reads slot 0 of the delay it is given whole; out = that value.
vx_status VX_CALLBACK read_delay(vx_node, const vx_reference* parameters, vx_uint32) {
  vx_reference current = vxGetReferenceFromDelay(reinterpret_cast<vx_delay>(parameters[0]), 0);
  vx_int32 v = 0;
  vx_status s = vxCopyScalar(reinterpret_cast<vx_scalar>(current), &v, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
  if (s == VX_SUCCESS) s = vxCopyScalar(reinterpret_cast<vx_scalar>(parameters[1]), &v, VX_WRITE_ONLY, VX_MEMORY_TYPE_HOST);
  return s;
}

vx_action VX_CALLBACK node_done(vx_node) { return callback_action; }

class Delays : public OpenVx {
 protected:
  void SetUp() override {
    OpenVx::SetUp();
    initializes = 0;
    delay_to_age = nullptr;
    aged_from_kernel = VX_SUCCESS;
    callback_action = VX_ACTION_CONTINUE;
    zero_ = vxCreateScalar(context_, VX_TYPE_INT32, &kZero);
    ASSERT_EQ(vxGetStatus(ref(zero_)), VX_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(vxReleaseScalar(&zero_), VX_SUCCESS);
    for (vx_kernel& k : kernels_) EXPECT_EQ(vxRemoveKernel(k), VX_SUCCESS);
    OpenVx::TearDown();
  }

  vx_kernel add_kernel(const char* name, vx_kernel_f function, vx_kernel_validate_f validate, const std::vector<Param>& params) {
    const std::string full = std::string("org.visiongraph.test.delays.") + name;
    vx_kernel k = add_user_kernel(context_, full.c_str(), function, params, validate, count_initialize);
    kernels_.push_back(k);
    return k;
  }
  vx_kernel accumulate_kernel() {
    return add_kernel("accumulate", accumulate, int32_output,
                      {{VX_INPUT, VX_TYPE_SCALAR}, {VX_INPUT, VX_TYPE_SCALAR}, {VX_OUTPUT, VX_TYPE_SCALAR}});
  }
  vx_kernel add_one_kernel() { return add_kernel("add_one", add_one, int32_output, {{VX_INPUT, VX_TYPE_SCALAR}, {VX_OUTPUT, VX_TYPE_SCALAR}}); }
  vx_kernel image_add_one_kernel() {
    return add_kernel("image_add_one", image_add_one, output_like_first, {{VX_INPUT, VX_TYPE_IMAGE}, {VX_OUTPUT, VX_TYPE_IMAGE}});
  }

  /// A node of @p kernel in @p graph with @p arguments; the graph holds it.
  void add_node(vx_graph graph, vx_kernel kernel, const std::vector<vx_reference>& arguments, vx_node* keep = nullptr) {
    vx_node node = vxCreateGenericNode(graph, kernel);
    ASSERT_EQ(vxGetStatus(ref(node)), VX_SUCCESS);
    for (vx_uint32 i = 0; i < arguments.size(); ++i) EXPECT_EQ(vxSetParameterByIndex(node, i, arguments[i]), VX_SUCCESS);
    if (keep != nullptr) {
      *keep = node;
    } else {
      EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
    }
  }

  /// A delay of @p slots int32 scalars, each 0.
  vx_delay scalar_delay(vx_size slots) {
    vx_delay delay = vxCreateDelay(context_, ref(zero_), slots);
    EXPECT_EQ(vxGetStatus(ref(delay)), VX_SUCCESS);
    for (vx_size i = 0; i < slots; ++i) write_int32(vxGetReferenceFromDelay(delay, -static_cast<vx_int32>(i)), 0);
    return delay;
  }

  /// What node parameter @p index refers to now (not counted).
  static vx_reference argument(vx_node node, vx_uint32 index) {
    vx_parameter p = vxGetParameterByIndex(node, index);
    vx_reference value = nullptr;
    EXPECT_EQ(vxQueryParameter(p, VX_PARAMETER_REF, &value, sizeof value), VX_SUCCESS);
    vx_reference counted = value;
    EXPECT_EQ(vxReleaseReference(&counted), VX_SUCCESS);
    EXPECT_EQ(vxReleaseParameter(&p), VX_SUCCESS);
    return value;
  }

  vx_uint32 references() {
    vx_uint32 n = 0;
    EXPECT_EQ(vxQueryContext(context_, VX_CONTEXT_REFERENCES, &n, sizeof n), VX_SUCCESS);
    return n;
  }

  static constexpr vx_int32 kZero = 0;
  vx_scalar zero_ = nullptr;
  std::vector<vx_kernel> kernels_;
};

// --- creation, access, queries ---------------------------------------------------------------------------

TEST_F(Delays, SlotsAreMadeLikeTheExemplarAndBorrowed) {
  const vx_uint32 before = references();
  vx_delay delay = vxCreateDelay(context_, ref(zero_), 3);
  ASSERT_EQ(vxGetStatus(ref(delay)), VX_SUCCESS);
  EXPECT_EQ(references(), before + 1) << "the slots are the delay's, not the application's";
  vx_enum type = 0;
  vx_size slots = 0;
  EXPECT_EQ(vxQueryDelay(delay, VX_DELAY_TYPE, &type, sizeof type), VX_SUCCESS);
  EXPECT_EQ(type, VX_TYPE_SCALAR);
  EXPECT_EQ(vxQueryDelay(delay, VX_DELAY_SLOTS, &slots, sizeof slots), VX_SUCCESS);
  EXPECT_EQ(slots, 3u);
  vx_uint16 small = 0;  // smaller than vx_size on every ABI
  EXPECT_EQ(vxQueryDelay(delay, VX_DELAY_SLOTS, &small, sizeof small), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxQueryDelay(delay, VX_SCALAR_TYPE, &type, sizeof type), VX_ERROR_NOT_SUPPORTED);
  vx_enum ref_type = 0;
  EXPECT_EQ(vxQueryReference(ref(delay), VX_REFERENCE_TYPE, &ref_type, sizeof ref_type), VX_SUCCESS);
  EXPECT_EQ(ref_type, VX_TYPE_DELAY);

  vx_reference s0 = vxGetReferenceFromDelay(delay, 0);
  vx_reference s1 = vxGetReferenceFromDelay(delay, -1);
  vx_reference s2 = vxGetReferenceFromDelay(delay, -2);
  for (vx_reference s : {s0, s1, s2}) {
    ASSERT_EQ(vxGetStatus(s), VX_SUCCESS);
    vx_enum scalar_type = 0;
    EXPECT_EQ(vxQueryScalar(reinterpret_cast<vx_scalar>(s), VX_SCALAR_TYPE, &scalar_type, sizeof scalar_type), VX_SUCCESS);
    EXPECT_EQ(scalar_type, VX_TYPE_INT32);
    vx_uint32 count = 99;
    EXPECT_EQ(vxQueryReference(s, VX_REFERENCE_COUNT, &count, sizeof count), VX_SUCCESS);
    EXPECT_EQ(count, 0u) << "the application does not own a slot it was given";
  }
  EXPECT_NE(s0, s1);
  EXPECT_NE(s1, s2);
  EXPECT_NE(s0, s2);
  EXPECT_EQ(vxGetReferenceFromDelay(delay, 0), s0) << "the same object every time";

  // Bad indices: positive, or past the oldest.
  EXPECT_EQ(vxGetStatus(vxGetReferenceFromDelay(delay, 1)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(vxGetReferenceFromDelay(delay, -3)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(vxGetReferenceFromDelay(delay, INT32_MIN)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(vxGetReferenceFromDelay(delay, INT32_MAX)), VX_ERROR_INVALID_PARAMETERS);

  // Releasing a borrowed slot is refused (and harmless); retained, it is the application's to release.
  vx_reference borrowed = s1;
  EXPECT_EQ(vxReleaseReference(&borrowed), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxGetStatus(s1), VX_SUCCESS);
  EXPECT_EQ(vxRetainReference(s1), VX_SUCCESS);
  EXPECT_EQ(references(), before + 2);
  EXPECT_EQ(vxReleaseReference(&borrowed), VX_SUCCESS);
  EXPECT_EQ(references(), before + 1);

  EXPECT_EQ(vxReleaseDelay(&delay), VX_SUCCESS);
  EXPECT_EQ(delay, nullptr);
  EXPECT_EQ(references(), before);
  EXPECT_NE(vxGetStatus(s0), VX_SUCCESS) << "the slots went with the delay";
}

TEST_F(Delays, EveryDataObjectTypeCanBeASlot) {
  const vx_size dims[2] = {4, 3};
  const vx_uint8 blob[16] = {};
  std::vector<vx_reference> exemplars = {
      ref(vxCreateImage(context_, kWidth, kHeight, VX_DF_IMAGE_U8)),
      ref(vxCreateArray(context_, VX_TYPE_COORDINATES2D, 10)),
      ref(vxCreateTensor(context_, 2, dims, VX_TYPE_INT16, 0)),
      ref(vxCreatePyramid(context_, 3, VX_SCALE_PYRAMID_HALF, 16, 16, VX_DF_IMAGE_U8)),
      ref(vxCreateUserDataObject(context_, "blob", sizeof blob, blob)),
      ref(vxCreateLUT(context_, VX_TYPE_UINT8, 256)),
      ref(vxCreateMatrix(context_, VX_TYPE_FLOAT32, 3, 3)),
      ref(vxCreateConvolution(context_, 3, 3)),
      ref(vxCreateThresholdForImage(context_, VX_THRESHOLD_TYPE_BINARY, VX_DF_IMAGE_U8, VX_DF_IMAGE_U8)),
      ref(vxCreateDistribution(context_, 16, 0, 256)),
      ref(zero_),
  };
  exemplars.push_back(ref(vxCreateObjectArray(context_, exemplars[0], 2)));
  for (vx_reference exemplar : exemplars) {
    ASSERT_EQ(vxGetStatus(exemplar), VX_SUCCESS);
    vx_enum type = 0;
    ASSERT_EQ(vxQueryReference(exemplar, VX_REFERENCE_TYPE, &type, sizeof type), VX_SUCCESS);
    SCOPED_TRACE("exemplar type 0x" + std::to_string(type));
    vx_delay delay = vxCreateDelay(context_, exemplar, 2);
    ASSERT_EQ(vxGetStatus(ref(delay)), VX_SUCCESS);
    vx_enum delay_type = 0;
    EXPECT_EQ(vxQueryDelay(delay, VX_DELAY_TYPE, &delay_type, sizeof delay_type), VX_SUCCESS);
    EXPECT_EQ(delay_type, type);
    for (vx_int32 index : {0, -1}) {
      vx_reference slot = vxGetReferenceFromDelay(delay, index);
      ASSERT_EQ(vxGetStatus(slot), VX_SUCCESS);
      EXPECT_NE(slot, exemplar);
      vx_enum slot_type = 0;
      EXPECT_EQ(vxQueryReference(slot, VX_REFERENCE_TYPE, &slot_type, sizeof slot_type), VX_SUCCESS);
      EXPECT_EQ(slot_type, type);
    }
    EXPECT_EQ(vxReleaseDelay(&delay), VX_SUCCESS);
  }
  // A few attributes made like the exemplar's.
  vx_delay pyramids = vxCreateDelay(context_, exemplars[3], 2);
  vx_pyramid slot = reinterpret_cast<vx_pyramid>(vxGetReferenceFromDelay(pyramids, -1));
  vx_size levels = 0;
  EXPECT_EQ(vxQueryPyramid(slot, VX_PYRAMID_LEVELS, &levels, sizeof levels), VX_SUCCESS);
  EXPECT_EQ(levels, 3u);
  vx_image level = vxGetPyramidLevel(slot, 2);
  vx_uint32 width = 0;
  EXPECT_EQ(vxQueryImage(level, VX_IMAGE_WIDTH, &width, sizeof width), VX_SUCCESS);
  EXPECT_EQ(width, 4u);
  EXPECT_EQ(vxReleaseImage(&level), VX_SUCCESS);
  EXPECT_EQ(vxReleaseDelay(&pyramids), VX_SUCCESS);

  vx_reference items = exemplars.back();  // the object array goes first; zero_ is the fixture's
  exemplars.pop_back();
  EXPECT_EQ(vxReleaseReference(&items), VX_SUCCESS);
  exemplars.pop_back();
  for (vx_reference& e : exemplars) EXPECT_EQ(vxReleaseReference(&e), VX_SUCCESS);
}

TEST_F(Delays, RefusesBadHandlesAndArguments) {
  vx_delay delay = scalar_delay(2);
  vx_graph graph = vxCreateGraph(context_);
  vx_image image = vxCreateImage(context_, kWidth, kHeight, VX_DF_IMAGE_U8);

  // Creation.
  EXPECT_EQ(vxCreateDelay(nullptr, ref(zero_), 2), nullptr);
  EXPECT_EQ(vxCreateDelay(reinterpret_cast<vx_context>(image), ref(zero_), 2), nullptr);
  EXPECT_EQ(vxGetStatus(ref(vxCreateDelay(context_, nullptr, 2))), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxGetStatus(ref(vxCreateDelay(context_, ref(zero_), 0))), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxGetStatus(ref(vxCreateDelay(context_, ref(delay), 2))), VX_ERROR_INVALID_TYPE) << "a delay of delays";
  EXPECT_EQ(vxGetStatus(ref(vxCreateDelay(context_, ref(graph), 2))), VX_ERROR_INVALID_TYPE) << "not a data object";
  EXPECT_EQ(vxGetStatus(ref(vxCreateDelay(context_, ref(context_), 2))), VX_ERROR_INVALID_TYPE);
  vx_reference error = ref(vxCreateDelay(context_, ref(zero_), 0));
  EXPECT_EQ(vxGetStatus(ref(vxCreateDelay(context_, error, 2))), VX_ERROR_INVALID_REFERENCE) << "an error object";
  // A virtual exemplar with open attributes describes no object a delay could make.
  vx_image open = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
  EXPECT_NE(vxGetStatus(ref(vxCreateDelay(context_, ref(open), 2))), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&open), VX_SUCCESS);
  vx_context other = vxCreateContext();
  EXPECT_EQ(vxGetStatus(ref(vxCreateDelay(other, ref(zero_), 2))), VX_ERROR_INVALID_SCOPE);
  EXPECT_EQ(vxReleaseContext(&other), VX_SUCCESS);

  // The other calls, given NULL or an object of another type.
  vx_enum type = 0;
  EXPECT_EQ(vxQueryDelay(nullptr, VX_DELAY_TYPE, &type, sizeof type), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxQueryDelay(reinterpret_cast<vx_delay>(image), VX_DELAY_TYPE, &type, sizeof type), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxGetReferenceFromDelay(nullptr, 0), nullptr);
  EXPECT_EQ(vxGetReferenceFromDelay(reinterpret_cast<vx_delay>(image), 0), nullptr);
  EXPECT_EQ(vxAgeDelay(nullptr), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxAgeDelay(reinterpret_cast<vx_delay>(image)), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxRegisterAutoAging(nullptr, delay), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxRegisterAutoAging(graph, nullptr), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxRegisterAutoAging(graph, reinterpret_cast<vx_delay>(image)), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxRegisterAutoAging(reinterpret_cast<vx_graph>(delay), delay), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseDelay(nullptr), VX_ERROR_INVALID_REFERENCE);
  vx_delay not_a_delay = reinterpret_cast<vx_delay>(image);
  EXPECT_EQ(vxReleaseDelay(&not_a_delay), VX_ERROR_INVALID_REFERENCE);
  EXPECT_NE(not_a_delay, nullptr);
  vx_delay slot_as_delay = reinterpret_cast<vx_delay>(vxGetReferenceFromDelay(delay, 0));
  EXPECT_EQ(vxAgeDelay(slot_as_delay), VX_ERROR_INVALID_REFERENCE);

  // Registering twice is harmless (aged once per run).
  EXPECT_EQ(vxRegisterAutoAging(graph, delay), VX_SUCCESS);
  EXPECT_EQ(vxRegisterAutoAging(graph, delay), VX_SUCCESS);

  EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseDelay(&delay), VX_SUCCESS);
  vx_delay released = delay;
  EXPECT_EQ(vxReleaseDelay(&released), VX_ERROR_INVALID_REFERENCE);
}

// --- aging ------------------------------------------------------------------------------------------------

TEST_F(Delays, AgingRotatesTheSlots) {
  vx_delay delay = scalar_delay(3);
  vx_reference s0 = vxGetReferenceFromDelay(delay, 0);
  vx_reference s1 = vxGetReferenceFromDelay(delay, -1);
  vx_reference s2 = vxGetReferenceFromDelay(delay, -2);
  write_int32(s0, 10);
  write_int32(s1, 11);
  write_int32(s2, 12);
  ASSERT_EQ(vxAgeDelay(delay), VX_SUCCESS);
  // 0 became -1, -1 became -2, the oldest came back as 0.
  EXPECT_EQ(vxGetReferenceFromDelay(delay, 0), s2);
  EXPECT_EQ(vxGetReferenceFromDelay(delay, -1), s0);
  EXPECT_EQ(vxGetReferenceFromDelay(delay, -2), s1);
  EXPECT_EQ(read_int32(vxGetReferenceFromDelay(delay, -1)), 10);
  ASSERT_EQ(vxAgeDelay(delay), VX_SUCCESS);
  ASSERT_EQ(vxAgeDelay(delay), VX_SUCCESS);
  EXPECT_EQ(vxGetReferenceFromDelay(delay, 0), s0) << "three agings of three slots: back where it started";
  EXPECT_EQ(vxReleaseDelay(&delay), VX_SUCCESS);

  vx_delay single = scalar_delay(1);
  vx_reference only = vxGetReferenceFromDelay(single, 0);
  EXPECT_EQ(vxAgeDelay(single), VX_SUCCESS);
  EXPECT_EQ(vxGetReferenceFromDelay(single, 0), only);
  EXPECT_EQ(vxReleaseDelay(&single), VX_SUCCESS);
}

// The classic accumulator: out[t] = in[t] + out[t-1], with the node reading slot -1 and writing slot 0.
TEST_F(Delays, AutoAgingAccumulates) {
  vx_kernel kernel = accumulate_kernel();
  vx_delay sums = scalar_delay(2);
  vx_scalar in = vxCreateScalar(context_, VX_TYPE_INT32, &kZero);
  vx_graph graph = vxCreateGraph(context_);
  vx_node node = nullptr;
  add_node(graph, kernel, {ref(in), vxGetReferenceFromDelay(sums, -1), vxGetReferenceFromDelay(sums, 0)}, &node);
  ASSERT_EQ(vxRegisterAutoAging(graph, sums), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS) << "reading -1 while writing 0 is no cycle";
  EXPECT_EQ(initializes, 1);
  vx_int32 expected = 0;
  for (vx_int32 t = 1; t <= 10; ++t) {
    write_int32(ref(in), t);
    if (t % 2 == 0) {
      ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    } else {
      ASSERT_EQ(vxScheduleGraph(graph), VX_SUCCESS);
      ASSERT_EQ(vxWaitGraph(graph), VX_SUCCESS);
    }
    expected += t;
    // Aged after the run: what the node wrote to 0 is now -1, and the node follows.
    EXPECT_EQ(read_int32(vxGetReferenceFromDelay(sums, -1)), expected) << "after run " << t;
    EXPECT_EQ(argument(node, 1), vxGetReferenceFromDelay(sums, -1));
    EXPECT_EQ(argument(node, 2), vxGetReferenceFromDelay(sums, 0));
  }
  EXPECT_EQ(initializes, 1) << "aging does not re-verify the graph";
  EXPECT_EQ(vxIsGraphVerified(graph), vx_true_e);
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&in), VX_SUCCESS);
  EXPECT_EQ(vxReleaseDelay(&sums), VX_SUCCESS);
}

// The loop-carried dependency again, with the input and output as queued graph parameters
// (vx_khr_pipelining, QUEUE_AUTO): every frame's result equals the unpipelined graph's.
TEST_F(Delays, AQueuedGraphCarriesTheDelayAcrossFramesLikeAnUnpipelinedOne) {
  vx_kernel accumulate = accumulate_kernel();
  vx_kernel plus_one = add_one_kernel();
  constexpr int kFrames = 9, kRefs = 3;
  // Unpipelined: out[t] = (in[1] + ... + in[t]) + 1, from vxProcessGraph.
  std::vector<vx_int32> unpipelined;
  vx_scalar ins[kRefs] = {}, outs[kRefs] = {};
  for (int i = 0; i < kRefs; ++i) {
    ins[i] = vxCreateScalar(context_, VX_TYPE_INT32, &kZero);
    outs[i] = vxCreateScalar(context_, VX_TYPE_INT32, &kZero);
  }
  auto build = [&](vx_graph graph, vx_delay sums) {
    vx_node sum = nullptr, last = nullptr;
    add_node(graph, accumulate, {ref(ins[0]), vxGetReferenceFromDelay(sums, -1), vxGetReferenceFromDelay(sums, 0)}, &sum);
    add_node(graph, plus_one, {vxGetReferenceFromDelay(sums, 0), ref(outs[0])}, &last);
    for (auto [node, index] : {std::pair{sum, 0u}, std::pair{last, 1u}}) {
      vx_parameter p = vxGetParameterByIndex(node, index);
      EXPECT_EQ(vxAddParameterToGraph(graph, p), VX_SUCCESS);
      EXPECT_EQ(vxReleaseParameter(&p), VX_SUCCESS);
    }
    EXPECT_EQ(vxRegisterAutoAging(graph, sums), VX_SUCCESS);
    EXPECT_EQ(vxReleaseNode(&sum), VX_SUCCESS);
    EXPECT_EQ(vxReleaseNode(&last), VX_SUCCESS);
  };
  {
    vx_delay sums = scalar_delay(2);
    vx_graph graph = vxCreateGraph(context_);
    build(graph, sums);
    for (int t = 1; t <= kFrames; ++t) {
      write_int32(ref(ins[0]), t * t);
      ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
      unpipelined.push_back(read_int32(ref(outs[0])));
    }
    EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
    EXPECT_EQ(vxReleaseDelay(&sums), VX_SUCCESS);
  }
  vx_delay sums = scalar_delay(2);
  vx_graph graph = vxCreateGraph(context_);
  build(graph, sums);
  vx_graph_parameter_queue_params_t queues[2] = {{0, kRefs, reinterpret_cast<vx_reference*>(ins)},
                                                 {1, kRefs, reinterpret_cast<vx_reference*>(outs)}};
  ASSERT_EQ(vxSetGraphScheduleConfig(graph, VX_GRAPH_SCHEDULE_MODE_QUEUE_AUTO, 2, queues), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  std::vector<vx_int32> queued;
  for (int t = 1; t <= kFrames; ++t) {
    const int i = (t - 1) % kRefs;
    if (t > kRefs) {
      vx_reference done = nullptr;
      vx_uint32 n = 0;
      ASSERT_EQ(vxGraphParameterDequeueDoneRef(graph, 1, &done, 1, &n), VX_SUCCESS);
      queued.push_back(read_int32(done));
      ASSERT_EQ(vxGraphParameterDequeueDoneRef(graph, 0, &done, 1, &n), VX_SUCCESS);
    }
    write_int32(ref(ins[i]), t * t);
    vx_reference in = ref(ins[i]), out = ref(outs[i]);
    ASSERT_EQ(vxGraphParameterEnqueueReadyRef(graph, 0, &in, 1), VX_SUCCESS);
    ASSERT_EQ(vxGraphParameterEnqueueReadyRef(graph, 1, &out, 1), VX_SUCCESS);
  }
  ASSERT_EQ(vxWaitGraph(graph), VX_SUCCESS);
  vx_reference done[kRefs] = {};
  vx_uint32 n = 0;
  ASSERT_EQ(vxGraphParameterDequeueDoneRef(graph, 1, done, kRefs, &n), VX_SUCCESS);
  for (vx_uint32 k = 0; k < n; ++k) queued.push_back(read_int32(done[k]));
  EXPECT_EQ(queued, unpipelined);
  EXPECT_EQ(unpipelined.back(), 285 + 1) << "1 + 4 + ... + 81, plus one";
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseDelay(&sums), VX_SUCCESS);
  for (int i = 0; i < kRefs; ++i) {
    EXPECT_EQ(vxReleaseScalar(&ins[i]), VX_SUCCESS);
    EXPECT_EQ(vxReleaseScalar(&outs[i]), VX_SUCCESS);
  }
}

TEST_F(Delays, ExplicitAgingWithoutAutoAging) {
  vx_kernel kernel = accumulate_kernel();
  vx_delay sums = scalar_delay(3);
  vx_scalar in = vxCreateScalar(context_, VX_TYPE_INT32, &kZero);
  vx_graph graph = vxCreateGraph(context_);
  vx_node node = nullptr;
  add_node(graph, kernel, {ref(in), vxGetReferenceFromDelay(sums, -1), vxGetReferenceFromDelay(sums, 0)}, &node);
  write_int32(ref(in), 5);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  EXPECT_EQ(read_int32(vxGetReferenceFromDelay(sums, 0)), 5) << "not aged: -1 still holds 0";
  vx_reference written = vxGetReferenceFromDelay(sums, 0);
  ASSERT_EQ(vxAgeDelay(sums), VX_SUCCESS);
  EXPECT_EQ(argument(node, 1), written) << "the node's 'slot -1' is what was slot 0";
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  EXPECT_EQ(read_int32(vxGetReferenceFromDelay(sums, 0)), 10);
  ASSERT_EQ(vxAgeDelay(sums), VX_SUCCESS);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  EXPECT_EQ(read_int32(vxGetReferenceFromDelay(sums, 0)), 15);
  EXPECT_EQ(read_int32(vxGetReferenceFromDelay(sums, -2)), 5);
  EXPECT_EQ(initializes, 1);

  // Set to something else, a parameter no longer follows the delay.
  vx_scalar fixed = vxCreateScalar(context_, VX_TYPE_INT32, &kZero);
  ASSERT_EQ(vxSetParameterByIndex(node, 1, ref(fixed)), VX_SUCCESS);
  ASSERT_EQ(vxAgeDelay(sums), VX_SUCCESS);
  EXPECT_EQ(argument(node, 1), ref(fixed));
  EXPECT_EQ(argument(node, 2), vxGetReferenceFromDelay(sums, 0)) << "the other parameter still follows";
  // Set back to a slot (another age this time), it follows from there.
  ASSERT_EQ(vxSetParameterByIndex(node, 1, vxGetReferenceFromDelay(sums, -2)), VX_SUCCESS);
  ASSERT_EQ(vxAgeDelay(sums), VX_SUCCESS);
  EXPECT_EQ(argument(node, 1), vxGetReferenceFromDelay(sums, -2));

  EXPECT_EQ(vxReleaseScalar(&fixed), VX_SUCCESS);
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&in), VX_SUCCESS);
  EXPECT_EQ(vxReleaseDelay(&sums), VX_SUCCESS);
}

// Node A reads slot -1, node B writes slot 0 from A's result: ordered by data, not a cycle.
TEST_F(Delays, ReadingTheOldSlotAndWritingTheNewOneIsNoCycle) {
  vx_kernel kernel = add_one_kernel();
  vx_delay counter = scalar_delay(2);
  vx_scalar middle = vxCreateScalar(context_, VX_TYPE_INT32, &kZero);
  vx_graph graph = vxCreateGraph(context_);
  add_node(graph, kernel, {ref(middle), vxGetReferenceFromDelay(counter, 0)});   // B, created first
  add_node(graph, kernel, {vxGetReferenceFromDelay(counter, -1), ref(middle)});  // A
  ASSERT_EQ(vxRegisterAutoAging(graph, counter), VX_SUCCESS);
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  for (int t = 1; t <= 5; ++t) ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  EXPECT_EQ(read_int32(vxGetReferenceFromDelay(counter, -1)), 10) << "two per run, A before B each time";
  EXPECT_EQ(read_int32(ref(middle)), 9);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&middle), VX_SUCCESS);
  EXPECT_EQ(vxReleaseDelay(&counter), VX_SUCCESS);
}

// A frame difference: slot 0 is the new frame, slot -1 the previous one.
TEST_F(Delays, FrameDifferenceOnADelayOfImages) {
  vx_kernel kernel = add_kernel("difference", difference, output_like_first,
                                {{VX_INPUT, VX_TYPE_IMAGE}, {VX_INPUT, VX_TYPE_IMAGE}, {VX_OUTPUT, VX_TYPE_IMAGE}});
  vx_image exemplar = vxCreateImage(context_, kWidth, kHeight, VX_DF_IMAGE_U8);
  vx_delay frames = vxCreateDelay(context_, ref(exemplar), 2);
  EXPECT_EQ(vxReleaseImage(&exemplar), VX_SUCCESS) << "the delay does not keep its exemplar";
  ASSERT_EQ(vxGetStatus(ref(frames)), VX_SUCCESS);
  vx_image diff = vxCreateImage(context_, kWidth, kHeight, VX_DF_IMAGE_U8);
  vx_graph graph = vxCreateGraph(context_);
  add_node(graph, kernel, {vxGetReferenceFromDelay(frames, 0), vxGetReferenceFromDelay(frames, -1), ref(diff)});
  ASSERT_EQ(vxRegisterAutoAging(graph, frames), VX_SUCCESS);
  fill(vxGetReferenceFromDelay(frames, -1), 0);
  const vx_uint8 sequence[] = {3, 10, 4, 4, 250};
  vx_uint8 previous = 0;
  for (vx_uint8 frame : sequence) {
    fill(vxGetReferenceFromDelay(frames, 0), frame);  // the new frame goes to slot 0 each time
    ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    const auto pixels = pixels_of(ref(diff));
    EXPECT_EQ(pixels.front(), static_cast<vx_uint8>(std::abs(frame - previous)));
    EXPECT_EQ(pixels.back(), pixels.front());
    EXPECT_EQ(pixels_of(vxGetReferenceFromDelay(frames, -1)).front(), frame) << "aged: the frame is now the previous one";
    previous = frame;
  }
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseImage(&diff), VX_SUCCESS);
  EXPECT_EQ(vxReleaseDelay(&frames), VX_SUCCESS);
}

// Nodes given a level of a pyramid slot follow to the same level of the slot now at their index.
TEST_F(Delays, PyramidLevelsFollowTheirSlot) {
  vx_kernel kernel = image_add_one_kernel();
  vx_pyramid exemplar = vxCreatePyramid(context_, 2, VX_SCALE_PYRAMID_HALF, kWidth, kHeight, VX_DF_IMAGE_U8);
  vx_delay pyramids = vxCreateDelay(context_, ref(exemplar), 2);
  EXPECT_EQ(vxReleasePyramid(&exemplar), VX_SUCCESS);
  ASSERT_EQ(vxGetStatus(ref(pyramids)), VX_SUCCESS);
  auto level = [&](vx_int32 index, vx_uint32 l) {
    vx_image image = vxGetPyramidLevel(reinterpret_cast<vx_pyramid>(vxGetReferenceFromDelay(pyramids, index)), l);
    vx_reference r = ref(image);
    EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);  // the pyramid still holds it
    return r;
  };
  fill(level(-1, 0), 0);
  vx_graph graph = vxCreateGraph(context_);
  vx_node node = nullptr;
  add_node(graph, kernel, {level(-1, 0), level(0, 0)}, &node);
  ASSERT_EQ(vxRegisterAutoAging(graph, pyramids), VX_SUCCESS);
  // The pyramids' levels are ordered with the pyramids, and slot 0 is not slot -1: no cycle.
  ASSERT_EQ(vxVerifyGraph(graph), VX_SUCCESS);
  for (int t = 1; t <= 4; ++t) {
    ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    EXPECT_EQ(argument(node, 0), level(-1, 0)) << "after run " << t;
    EXPECT_EQ(argument(node, 1), level(0, 0));
    EXPECT_EQ(pixels_of(level(-1, 0)).front(), t);
  }
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseDelay(&pyramids), VX_SUCCESS);
}

// The same with items of object array slots.
TEST_F(Delays, ObjectArrayItemsFollowTheirSlot) {
  vx_kernel kernel = add_one_kernel();
  vx_object_array exemplar = vxCreateObjectArray(context_, ref(zero_), 3);
  vx_delay arrays = vxCreateDelay(context_, ref(exemplar), 2);
  EXPECT_EQ(vxReleaseObjectArray(&exemplar), VX_SUCCESS);
  ASSERT_EQ(vxGetStatus(ref(arrays)), VX_SUCCESS);
  auto item = [&](vx_int32 index, vx_uint32 i) {
    vx_reference r = vxGetObjectArrayItem(reinterpret_cast<vx_object_array>(vxGetReferenceFromDelay(arrays, index)), i);
    vx_reference counted = r;
    EXPECT_EQ(vxReleaseReference(&counted), VX_SUCCESS);
    return r;
  };
  write_int32(item(-1, 2), 100);
  vx_graph graph = vxCreateGraph(context_);
  vx_node node = nullptr;
  add_node(graph, kernel, {item(-1, 2), item(0, 2)}, &node);
  for (int t = 1; t <= 3; ++t) {
    ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
    ASSERT_EQ(vxAgeDelay(arrays), VX_SUCCESS);
    EXPECT_EQ(argument(node, 0), item(-1, 2));
    EXPECT_EQ(read_int32(item(-1, 2)), 100 + t);
  }
  EXPECT_EQ(initializes, 1);
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseDelay(&arrays), VX_SUCCESS);
}

// Parts of parts (a level of a pyramid item of an object array slot) follow too.
TEST_F(Delays, NestedPartsFollowTheirSlot) {
  vx_kernel kernel = image_add_one_kernel();
  vx_pyramid pyramid = vxCreatePyramid(context_, 2, VX_SCALE_PYRAMID_HALF, kWidth, kHeight, VX_DF_IMAGE_U8);
  vx_object_array exemplar = vxCreateObjectArray(context_, ref(pyramid), 2);
  vx_delay delay = vxCreateDelay(context_, ref(exemplar), 3);
  EXPECT_EQ(vxReleaseObjectArray(&exemplar), VX_SUCCESS);
  EXPECT_EQ(vxReleasePyramid(&pyramid), VX_SUCCESS);
  ASSERT_EQ(vxGetStatus(ref(delay)), VX_SUCCESS);
  auto level = [&](vx_int32 index, vx_uint32 item, vx_uint32 l) {
    vx_reference p = vxGetObjectArrayItem(reinterpret_cast<vx_object_array>(vxGetReferenceFromDelay(delay, index)), item);
    vx_image image = vxGetPyramidLevel(reinterpret_cast<vx_pyramid>(p), l);
    vx_reference r = ref(image);
    EXPECT_EQ(vxReleaseImage(&image), VX_SUCCESS);
    EXPECT_EQ(vxReleaseReference(&p), VX_SUCCESS);
    return r;
  };
  vx_graph graph = vxCreateGraph(context_);
  vx_node node = nullptr;
  add_node(graph, kernel, {level(-2, 1, 1), level(0, 0, 1)}, &node);
  for (int t = 0; t < 4; ++t) {
    ASSERT_EQ(vxAgeDelay(delay), VX_SUCCESS);
    EXPECT_EQ(argument(node, 0), level(-2, 1, 1));
    EXPECT_EQ(argument(node, 1), level(0, 0, 1));
  }
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseDelay(&delay), VX_SUCCESS);
}

// --- when aging happens, and when it may not ------------------------------------------------------------

TEST_F(Delays, AbandonedRunAgesFailedRunDoesNot) {
  vx_kernel kernel = add_one_kernel();
  vx_delay delay = scalar_delay(2);
  vx_graph graph = vxCreateGraph(context_);
  vx_node node = nullptr;
  add_node(graph, kernel, {vxGetReferenceFromDelay(delay, -1), vxGetReferenceFromDelay(delay, 0)}, &node);
  ASSERT_EQ(vxAssignNodeCallback(node, node_done), VX_SUCCESS);
  ASSERT_EQ(vxRegisterAutoAging(graph, delay), VX_SUCCESS);
  vx_reference first = vxGetReferenceFromDelay(delay, 0);
  callback_action = VX_ACTION_ABANDON;
  EXPECT_EQ(vxProcessGraph(graph), VX_ERROR_GRAPH_ABANDONED);
  EXPECT_EQ(vxGetReferenceFromDelay(delay, -1), first) << "the specification ages after an abandoned run too";
  // A run that fails does not age.
  callback_action = VX_ACTION_CONTINUE;
  write_int32(vxGetReferenceFromDelay(delay, -1), -1);
  vx_reference current = vxGetReferenceFromDelay(delay, 0);
  EXPECT_EQ(vxProcessGraph(graph), VX_FAILURE);
  EXPECT_EQ(vxGetReferenceFromDelay(delay, 0), current);
  write_int32(vxGetReferenceFromDelay(delay, -1), 7);
  EXPECT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  EXPECT_EQ(vxGetReferenceFromDelay(delay, -1), current);
  EXPECT_EQ(read_int32(current), 8);
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseDelay(&delay), VX_SUCCESS);
}

TEST_F(Delays, NotWhileAGraphExecutes) {
  vx_kernel kernel = add_kernel("ager", ager, int32_output, {{VX_INPUT, VX_TYPE_SCALAR}, {VX_OUTPUT, VX_TYPE_SCALAR}});
  vx_delay delay = scalar_delay(2);
  vx_scalar out = vxCreateScalar(context_, VX_TYPE_INT32, &kZero);
  vx_graph graph = vxCreateGraph(context_);
  add_node(graph, kernel, {vxGetReferenceFromDelay(delay, -1), ref(out)});
  delay_to_age = delay;
  vx_reference before = vxGetReferenceFromDelay(delay, 0);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  EXPECT_EQ(aged_from_kernel, VX_ERROR_NOT_SUPPORTED) << "aging from kernel code is refused";
  EXPECT_EQ(vxGetReferenceFromDelay(delay, 0), before);
  // Scheduled (not waited for yet), the graph may be running: aging its delay is refused.
  ASSERT_EQ(vxScheduleGraph(graph), VX_SUCCESS);
  EXPECT_EQ(vxAgeDelay(delay), VX_ERROR_GRAPH_SCHEDULED);
  ASSERT_EQ(vxWaitGraph(graph), VX_SUCCESS);
  EXPECT_EQ(vxAgeDelay(delay), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&out), VX_SUCCESS);
  EXPECT_EQ(vxReleaseDelay(&delay), VX_SUCCESS);
}

// A delay given whole is an input that reaches all its slots; it cannot be an output.
TEST_F(Delays, WholeDelayAsAnInput) {
  vx_kernel reader = add_kernel("read_delay", read_delay, int32_output, {{VX_INPUT, VX_TYPE_DELAY}, {VX_OUTPUT, VX_TYPE_SCALAR}});
  vx_kernel writer = add_one_kernel();
  vx_kernel wrong = add_kernel("delay_out", add_one, int32_output, {{VX_INPUT, VX_TYPE_SCALAR}, {VX_OUTPUT, VX_TYPE_REFERENCE}});
  vx_delay delay = scalar_delay(2);
  vx_scalar in = vxCreateScalar(context_, VX_TYPE_INT32, &kZero);
  vx_scalar out = vxCreateScalar(context_, VX_TYPE_INT32, &kZero);
  write_int32(ref(in), 41);
  vx_graph graph = vxCreateGraph(context_);
  add_node(graph, reader, {ref(delay), ref(out)});  // created first, runs after the writer of slot 0
  add_node(graph, writer, {ref(in), vxGetReferenceFromDelay(delay, 0)});
  vx_node bad = vxCreateGenericNode(graph, wrong);
  EXPECT_EQ(vxSetParameterByIndex(bad, 1, ref(delay)), VX_ERROR_INVALID_PARAMETERS);
  EXPECT_EQ(vxRemoveNode(&bad), VX_SUCCESS);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  EXPECT_EQ(read_int32(ref(out)), 42);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&in), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&out), VX_SUCCESS);
  EXPECT_EQ(vxReleaseDelay(&delay), VX_SUCCESS);
}

// --- reference counts -----------------------------------------------------------------------------------

TEST_F(Delays, DelayReleasedBeforeTheGraph) {
  vx_kernel kernel = accumulate_kernel();
  const vx_uint32 before = references();
  vx_delay sums = scalar_delay(2);
  vx_scalar in = vxCreateScalar(context_, VX_TYPE_INT32, &kZero);
  write_int32(ref(in), 2);
  vx_graph graph = vxCreateGraph(context_);
  vx_node node = nullptr;
  add_node(graph, kernel, {ref(in), vxGetReferenceFromDelay(sums, -1), vxGetReferenceFromDelay(sums, 0)}, &node);
  ASSERT_EQ(vxRegisterAutoAging(graph, sums), VX_SUCCESS);
  EXPECT_EQ(references(), before + 4);
  // The graph keeps the delay it ages; the application's handle goes.
  ASSERT_EQ(vxReleaseDelay(&sums), VX_SUCCESS);
  EXPECT_EQ(references(), before + 3);
  for (int t = 1; t <= 3; ++t) ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  EXPECT_EQ(read_int32(argument(node, 1)), 6) << "still aged by the graph";
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&in), VX_SUCCESS);
  EXPECT_EQ(references(), before);
}

TEST_F(Delays, DelayReleasedBeforeTheGraphWithoutAutoAging) {
  vx_kernel kernel = accumulate_kernel();
  vx_delay sums = scalar_delay(2);
  vx_scalar in = vxCreateScalar(context_, VX_TYPE_INT32, &kZero);
  write_int32(ref(in), 3);
  vx_graph graph = vxCreateGraph(context_);
  vx_node node = nullptr;
  add_node(graph, kernel, {ref(in), vxGetReferenceFromDelay(sums, -1), vxGetReferenceFromDelay(sums, 0)}, &node);
  vx_reference slot0 = vxGetReferenceFromDelay(sums, 0);
  ASSERT_EQ(vxReleaseDelay(&sums), VX_SUCCESS);  // the node keeps the slots it uses, as plain objects now
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  EXPECT_EQ(read_int32(slot0), 3);
  vx_scalar other = vxCreateScalar(context_, VX_TYPE_INT32, &kZero);
  EXPECT_EQ(vxSetParameterByIndex(node, 2, ref(other)), VX_SUCCESS);
  EXPECT_NE(vxGetStatus(slot0), VX_SUCCESS) << "its last holder let it go";
  EXPECT_EQ(vxReleaseScalar(&other), VX_SUCCESS);
  EXPECT_EQ(vxReleaseNode(&node), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseScalar(&in), VX_SUCCESS);
}

TEST_F(Delays, GraphReleasedBeforeTheDelay) {
  vx_kernel kernel = accumulate_kernel();
  const vx_uint32 before = references();
  vx_delay sums = scalar_delay(2);
  vx_scalar in = vxCreateScalar(context_, VX_TYPE_INT32, &kZero);
  vx_graph graph = vxCreateGraph(context_);
  add_node(graph, kernel, {ref(in), vxGetReferenceFromDelay(sums, -1), vxGetReferenceFromDelay(sums, 0)});
  ASSERT_EQ(vxRegisterAutoAging(graph, sums), VX_SUCCESS);
  ASSERT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  EXPECT_EQ(vxReleaseGraph(&graph), VX_SUCCESS);
  // The nodes are gone: aging has nobody to re-point, and the slots are the delay's alone again.
  EXPECT_EQ(vxAgeDelay(sums), VX_SUCCESS);
  vx_reference slot = vxGetReferenceFromDelay(sums, 0);
  vx_reference borrowed = slot;
  EXPECT_EQ(vxReleaseReference(&borrowed), VX_ERROR_INVALID_REFERENCE);
  EXPECT_EQ(vxReleaseScalar(&in), VX_SUCCESS);
  EXPECT_EQ(references(), before + 1);
  EXPECT_EQ(vxReleaseDelay(&sums), VX_SUCCESS);
  EXPECT_EQ(references(), before);
  EXPECT_NE(vxGetStatus(slot), VX_SUCCESS);
}

TEST_F(Delays, ContextReleasedWithDelaysInUse) {
  vx_context context = vxCreateContext();
  vx_scalar exemplar = vxCreateScalar(context, VX_TYPE_INT32, &kZero);
  vx_delay delay = vxCreateDelay(context, ref(exemplar), 3);
  vx_pyramid pyramid = vxCreatePyramid(context, 2, VX_SCALE_PYRAMID_HALF, kWidth, kHeight, VX_DF_IMAGE_U8);
  vx_delay pyramids = vxCreateDelay(context, ref(pyramid), 2);
  vx_graph graph = vxCreateGraph(context);
  ASSERT_EQ(vxRegisterAutoAging(graph, delay), VX_SUCCESS);
  ASSERT_EQ(vxRegisterAutoAging(graph, pyramids), VX_SUCCESS);
  vx_reference retained = vxGetReferenceFromDelay(delay, -2);
  EXPECT_EQ(vxRetainReference(retained), VX_SUCCESS);
  vx_kernel kernel = add_user_kernel(context, "org.visiongraph.test.delays.teardown", add_one,
                                     {{VX_INPUT, VX_TYPE_SCALAR}, {VX_OUTPUT, VX_TYPE_SCALAR}}, int32_output);
  vx_node node = vxCreateGenericNode(graph, kernel);
  EXPECT_EQ(vxSetParameterByIndex(node, 0, vxGetReferenceFromDelay(delay, -1)), VX_SUCCESS);
  EXPECT_EQ(vxSetParameterByIndex(node, 1, vxGetReferenceFromDelay(delay, 0)), VX_SUCCESS);
  EXPECT_EQ(vxProcessGraph(graph), VX_SUCCESS);
  // Everything goes with the context (the sanitizers check nothing is touched twice).
  EXPECT_EQ(vxReleaseContext(&context), VX_SUCCESS);
}

}  // namespace
