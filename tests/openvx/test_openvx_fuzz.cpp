// Random call sequences over the C API: creation, queries, maps, copies, graphs and releases, with handles
// that are good, NULL, released, of the wrong type or error objects, and sizes at the edges (0, 1, 2^31,
// 2^32-1, SIZE_MAX, products that wrap on 32-bit). The library must never crash (the sanitizer builds
// watch for memory errors) and, once the fuzzer releases what it holds, hold no more references than at
// the start. VG_FUZZ_SECONDS sets how long it runs (3 s by default), VG_FUZZ_SEED the seed (printed, so a
// failing run can be repeated).
#include <VX/vx.h>
#include <VX/vx_khr_user_data_object.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

namespace {

/// One outstanding map the fuzzer made, to unmap later (or to give to the wrong object).
struct Map {
  vx_reference object;
  vx_map_id id;
};

/// Elements one object may hold in this fuzzer: requests that the library would accept and that are
/// larger are shrunk (only to keep the run's memory small; refused sizes are passed as they are).
constexpr long double kBudget = 1 << 16;
/// Above this many elements every request is refused by the library (one object holds at most 1 TiB).
constexpr long double kSurelyRefused = static_cast<long double>(std::uint64_t{1} << 41);

class Fuzzer {
 public:
  Fuzzer(vx_context context, std::uint64_t seed) : context_(context), rng_(seed) {}

  ~Fuzzer() { finish(); }

  void step() {
    switch (below(30)) {
      case 0: case 1: create_image(); break;
      case 2: create_virtual_image(); break;
      case 3: create_array(); break;
      case 4: create_remap(); break;
      case 5: create_tensor(); break;
      case 6: create_object_array(); break;
      case 7: create_small_objects(); break;
      case 8: create_pyramid(); break;
      case 9: keep(vxCreateGraph(context_)); break;
      case 10: case 11: create_node(); break;
      case 12: run_graph(); break;
      case 13: case 14: query(); break;
      case 15: case 16: map_something(); break;
      case 17: unmap_something(); break;
      case 18: copy_image(); break;
      case 19: array_calls(); break;
      case 20: tensor_calls(); break;
      case 21: flat_data_calls(); break;
      case 22: case 23: release_something(); break;
      case 24: retain_something(); break;
      case 25: items(); break;
      case 26: graph_parameters(); break;
      case 27: remap_calls(); break;
      case 28: delay_calls(); break;
      default: reference_calls(); break;
    }
    // Bounded memory: the pool of held objects stays small.
    while (live_.size() > 96) release_at(below(live_.size()));
  }

  /// Unmaps and releases everything held; the context must then be back to where it started.
  void finish() {
    for (const Map& m : maps_) unmap(m.object, m.id);
    maps_.clear();
    while (!live_.empty()) release_at(live_.size() - 1);
  }

 private:
  // --- randomness -------------------------------------------------------------------------------------
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng_() % n); }
  bool chance(unsigned percent) { return below(100) < percent; }

  /// A size: mostly small, else one at an edge.
  vx_size size() {
    static const vx_size small[] = {1, 2, 3, 4, 8, 16, 17, 64};
    static const vx_size edge[] = {0,
                                   255,
                                   256,
                                   65536,
                                   vx_size{1} << 16,
                                   vx_size{1} << 20,
                                   vx_size{1} << 30,
                                   vx_size{1} << 31,
                                   0xffffffffu,
                                   0x80000001u,
                                   SIZE_MAX,
                                   SIZE_MAX / 2,
                                   SIZE_MAX / 4 + 1,
                                   SIZE_MAX - 1};
    if (chance(75)) return small[below(std::size(small))];
    return edge[below(std::size(edge))];
  }
  vx_uint32 size32() { return static_cast<vx_uint32>(std::min<vx_size>(size(), 0xffffffffu)); }

  /// Whether a request of @p elements should be shrunk (accepted by the library, yet too big for this run).
  static bool too_big(long double elements) { return elements > kBudget && elements <= kSurelyRefused; }

  // --- handles ----------------------------------------------------------------------------------------
  vx_reference keep(void* handle) {
    auto* ref = static_cast<vx_reference>(handle);
    if (ref == nullptr) {
      ADD_FAILURE() << "a creator returned NULL for a valid context";
      return nullptr;
    }
    if (vxGetStatus(ref) == VX_SUCCESS) {
      live_.push_back(ref);
    } else if (std::find(errors_.begin(), errors_.end(), ref) == errors_.end()) {
      errors_.push_back(ref);
    }
    return ref;
  }

  /// Any handle: mostly a held one (of whatever type), sometimes NULL, a released one or an error object.
  vx_reference any() {
    const std::size_t roll = below(100);
    if (roll < 6) return nullptr;
    if (roll < 12 && !stale_.empty()) return stale_[below(stale_.size())];
    if (roll < 18 && !errors_.empty()) return errors_[below(errors_.size())];
    if (roll < 20) return reinterpret_cast<vx_reference>(context_);
    if (live_.empty()) return nullptr;
    return live_[below(live_.size())];
  }

  /// A handle of @p type when one is held (most of the time), else any().
  vx_reference of(vx_enum type) {
    if (chance(85)) {
      std::vector<vx_reference> matching;
      for (vx_reference r : live_) {
        vx_enum t = 0;
        if (vxQueryReference(r, VX_REFERENCE_TYPE, &t, sizeof t) == VX_SUCCESS && t == type) matching.push_back(r);
      }
      if (!matching.empty()) return matching[below(matching.size())];
    }
    return any();
  }
  template <typename Handle>
  Handle as(vx_enum type) {
    return reinterpret_cast<Handle>(of(type));
  }

  void release_at(std::size_t index) {
    vx_reference r = live_[index];
    live_.erase(live_.begin() + static_cast<std::ptrdiff_t>(index));
    // A held map keeps nothing alive by itself: unmap before the release, as an application must.
    for (std::size_t i = maps_.size(); i-- > 0;) {
      if (maps_[i].object == r) {
        unmap(maps_[i].object, maps_[i].id);
        maps_.erase(maps_.begin() + static_cast<std::ptrdiff_t>(i));
      }
    }
    vx_reference copy = r;
    if (vxReleaseReference(&copy) == VX_SUCCESS) {
      if (stale_.size() < 64) stale_.push_back(r);
    }
  }

  // --- creation ---------------------------------------------------------------------------------------
  vx_df_image format() {
    static const vx_df_image formats[] = {VX_DF_IMAGE_U8,   VX_DF_IMAGE_U16,  VX_DF_IMAGE_S16,  VX_DF_IMAGE_U32,
                                          VX_DF_IMAGE_S32,  VX_DF_IMAGE_RGB,  VX_DF_IMAGE_RGBX, VX_DF_IMAGE_NV12,
                                          VX_DF_IMAGE_IYUV, VX_DF_IMAGE_YUYV, VX_DF_IMAGE_YUV4, VX_DF_IMAGE_VIRT,
                                          VX_DF_IMAGE_U1,   0x12345678};
    return chance(50) ? static_cast<vx_df_image>(VX_DF_IMAGE_U8) : formats[below(std::size(formats))];
  }

  void create_image() {
    vx_uint32 w = size32(), h = size32();
    if (too_big(static_cast<long double>(w) * h)) w = h = 16;
    keep(vxCreateImage(context_, w, h, format()));
  }

  void create_virtual_image() {
    vx_uint32 w = chance(30) ? 0 : size32(), h = chance(30) ? 0 : size32();
    if (too_big(static_cast<long double>(w) * h)) w = h = 16;
    vx_graph graph = as<vx_graph>(VX_TYPE_GRAPH);
    vx_image image = vxCreateVirtualImage(graph, w, h, format());
    if (image != nullptr) keep(image);
  }

  vx_enum item_type() {
    static const vx_enum types[] = {VX_TYPE_UINT8, VX_TYPE_INT16, VX_TYPE_UINT32, VX_TYPE_FLOAT32, VX_TYPE_COORDINATES2D,
                                    VX_TYPE_KEYPOINT, VX_TYPE_RECTANGLE, VX_TYPE_INVALID, VX_TYPE_IMAGE, 0x7fffffff};
    return types[below(std::size(types))];
  }

  void create_array() {
    vx_size capacity = size();
    if (too_big(static_cast<long double>(capacity))) capacity = 8;
    keep(vxCreateArray(context_, item_type(), capacity));
  }

  void create_remap() {
    vx_uint32 sw = size32(), sh = size32(), dw = size32(), dh = size32();
    if (too_big(static_cast<long double>(dw) * dh)) dw = dh = 8;
    keep(vxCreateRemap(context_, sw, sh, dw, dh));
  }

  void create_tensor() {
    vx_size dims[8] = {};
    const vx_size n = below(8);
    long double elements = 1;
    for (vx_size i = 0; i < n; ++i) {
      dims[i] = chance(60) ? 1 + below(6) : size();
      elements *= static_cast<long double>(dims[i]);
    }
    if (too_big(elements)) {
      for (vx_size i = 0; i < n; ++i) dims[i] = 2;
    }
    static const vx_enum types[] = {VX_TYPE_UINT8, VX_TYPE_INT16, VX_TYPE_FLOAT32, VX_TYPE_INT64, VX_TYPE_BOOL, 0};
    keep(vxCreateTensor(context_, n, chance(95) ? dims : nullptr, types[below(std::size(types))], 0));
  }

  void create_object_array() {
    vx_size count = size();
    if (count > 8 && count <= 65536) count = 4;  // legitimate but slow to make and release
    keep(vxCreateObjectArray(context_, any(), count));
  }

  void create_pyramid() {
    vx_size levels = size();
    if (levels > 6 && levels <= 65536) levels = 3;
    vx_uint32 w = size32(), h = size32();
    if (too_big(static_cast<long double>(w) * h)) w = h = 32;
    static const vx_float32 scales[] = {VX_SCALE_PYRAMID_HALF, VX_SCALE_PYRAMID_ORB, 0.0f, -1.0f, 1.0f, 1e30f};
    keep(vxCreatePyramid(context_, levels, scales[below(std::size(scales))], w, h, format()));
  }

  void create_small_objects() {
    switch (below(8)) {
      case 0: {
        vx_int32 v = 7;
        keep(vxCreateScalar(context_, chance(80) ? VX_TYPE_INT32 : item_type(), chance(80) ? &v : nullptr));
        break;
      }
      case 1: keep(vxCreateLUT(context_, chance(50) ? VX_TYPE_UINT8 : VX_TYPE_INT16, size())); break;
      case 2: {
        vx_size rows = size(), columns = size();
        if (too_big(static_cast<long double>(rows) * columns)) rows = columns = 3;
        keep(vxCreateMatrix(context_, chance(50) ? VX_TYPE_FLOAT32 : VX_TYPE_UINT8, columns, rows));
        break;
      }
      case 3: {
        vx_size bins = size();
        if (too_big(static_cast<long double>(bins))) bins = 16;
        keep(vxCreateDistribution(context_, bins, chance(50) ? 0 : -5, size32()));
        break;
      }
      case 4: keep(vxCreateConvolution(context_, chance(70) ? 3 : size(), chance(70) ? 3 : size())); break;
      case 5: {
        vx_size bytes = size();
        if (too_big(static_cast<long double>(bytes))) bytes = 32;
        keep(vxCreateUserDataObject(context_, chance(50) ? "fuzz" : nullptr, bytes, nullptr));
        break;
      }
      case 6:
        keep(vxCreateThresholdForImage(context_, VX_THRESHOLD_TYPE_BINARY, chance(80) ? static_cast<vx_df_image>(VX_DF_IMAGE_U8) : format(), format()));
        break;
      default: {
        vx_size slots = size();
        if (slots > 8 && slots <= 65536) slots = 2;
        keep(vxCreateDelay(context_, any(), slots));
        break;
      }
    }
  }

  void create_node() {
    vx_graph graph = as<vx_graph>(VX_TYPE_GRAPH);
    auto image = [this] { return as<vx_image>(VX_TYPE_IMAGE); };
    vx_node node = nullptr;
    switch (below(7)) {
      case 0: node = vxNotNode(graph, image(), image()); break;
      case 1: node = vxAndNode(graph, image(), image(), image()); break;
      case 2: node = vxAddNode(graph, image(), image(), chance(80) ? VX_CONVERT_POLICY_SATURATE : 99, image()); break;
      case 3: node = vxBox3x3Node(graph, image(), image()); break;
      case 4: node = vxTableLookupNode(graph, image(), as<vx_lut>(VX_TYPE_LUT), image()); break;
      case 5: node = vxHistogramNode(graph, image(), as<vx_distribution>(VX_TYPE_DISTRIBUTION)); break;
      default: {
        // A chain through a virtual image of the graph (what verifies most often).
        vx_image middle = vxCreateVirtualImage(graph, 0, 0, VX_DF_IMAGE_VIRT);
        if (middle != nullptr) keep(middle);
        node = vxNotNode(graph, image(), middle);
        if (node != nullptr) keep(node);
        node = vxNotNode(graph, middle, image());
        break;
      }
    }
    if (node != nullptr) keep(node);
  }

  void run_graph() {
    vx_graph graph = as<vx_graph>(VX_TYPE_GRAPH);
    const vx_status verified = vxVerifyGraph(graph);
    if (graph == nullptr) {
      EXPECT_EQ(verified, VX_ERROR_INVALID_REFERENCE);
    }
    if (verified == VX_SUCCESS) ++verified_;
    if (chance(70) && vxProcessGraph(graph) == VX_SUCCESS) ++processed_;
    if (chance(20)) {
      (void)vxScheduleGraph(graph);
      (void)vxWaitGraph(graph);
    }
  }

  // --- queries, maps, copies --------------------------------------------------------------------------
  void query() {
    static const vx_enum attributes[] = {
        VX_IMAGE_WIDTH,        VX_IMAGE_FORMAT,         VX_IMAGE_PLANES,       VX_ARRAY_CAPACITY,   VX_ARRAY_NUMITEMS,
        VX_ARRAY_ITEMSIZE,     VX_TENSOR_DIMS,          VX_TENSOR_NUMBER_OF_DIMS, VX_REMAP_DESTINATION_WIDTH,
        VX_LUT_SIZE,           VX_MATRIX_SIZE,          VX_DISTRIBUTION_SIZE,  VX_CONVOLUTION_SIZE, VX_OBJECT_ARRAY_NUMITEMS,
        VX_PYRAMID_LEVELS,     VX_GRAPH_NUMNODES,       VX_NODE_STATUS,        VX_REFERENCE_COUNT,  VX_REFERENCE_TYPE,
        VX_USER_DATA_OBJECT_SIZE, VX_SCALAR_TYPE,       VX_DELAY_SLOTS,        0x7fffffff};
    static const vx_size sizes[] = {0, 1, 4, 8, 16, 48, 64, SIZE_MAX};
    alignas(16) vx_uint8 out[64] = {};
    const vx_enum attribute = attributes[below(std::size(attributes))];
    vx_size bytes = sizes[below(std::size(sizes))];
    void* ptr = chance(90) ? out : nullptr;
    if (bytes > sizeof out) ptr = nullptr;  // a size past the buffer would be the fuzzer's own overflow
    vx_reference r = any();
    vx_status s = VX_SUCCESS;
    switch (below(12)) {
      case 0: s = vxQueryImage(reinterpret_cast<vx_image>(r), attribute, ptr, bytes); break;
      case 1: s = vxQueryArray(reinterpret_cast<vx_array>(r), attribute, ptr, bytes); break;
      case 2: s = vxQueryTensor(reinterpret_cast<vx_tensor>(r), attribute, ptr, bytes); break;
      case 3: s = vxQueryRemap(reinterpret_cast<vx_remap>(r), attribute, ptr, bytes); break;
      case 4: s = vxQueryLUT(reinterpret_cast<vx_lut>(r), attribute, ptr, bytes); break;
      case 5: s = vxQueryMatrix(reinterpret_cast<vx_matrix>(r), attribute, ptr, bytes); break;
      case 6: s = vxQueryDistribution(reinterpret_cast<vx_distribution>(r), attribute, ptr, bytes); break;
      case 7: s = vxQueryObjectArray(reinterpret_cast<vx_object_array>(r), attribute, ptr, bytes); break;
      case 8: s = vxQueryPyramid(reinterpret_cast<vx_pyramid>(r), attribute, ptr, bytes); break;
      case 9: s = vxQueryGraph(reinterpret_cast<vx_graph>(r), attribute, ptr, bytes); break;
      case 10: s = vxQueryNode(reinterpret_cast<vx_node>(r), attribute, ptr, bytes); break;
      default: s = vxQueryReference(r, attribute, ptr, bytes); break;
    }
    if (r == nullptr) {
      EXPECT_EQ(s, VX_ERROR_INVALID_REFERENCE);
    }
  }

  vx_rectangle_t rectangle(vx_reference r) {
    vx_uint32 w = 0, h = 0;
    (void)vxQueryImage(reinterpret_cast<vx_image>(r), VX_IMAGE_WIDTH, &w, sizeof w);
    (void)vxQueryImage(reinterpret_cast<vx_image>(r), VX_IMAGE_HEIGHT, &h, sizeof h);
    if (chance(10)) return vx_rectangle_t{size32(), size32(), size32(), size32()};
    if (w == 0 || h == 0) return vx_rectangle_t{0, 0, 1, 1};
    const vx_uint32 x0 = static_cast<vx_uint32>(below(w)), y0 = static_cast<vx_uint32>(below(h));
    return vx_rectangle_t{x0 & ~1u, y0 & ~1u, x0 + 1 + static_cast<vx_uint32>(below(w - x0)),
                          y0 + 1 + static_cast<vx_uint32>(below(h - y0))};
  }

  static vx_enum usage(unsigned roll) {
    return roll < 40 ? VX_READ_ONLY : roll < 70 ? VX_WRITE_ONLY : roll < 95 ? VX_READ_AND_WRITE : 0x7000;
  }

  void map_something() {
    vx_map_id id = 0;
    void* ptr = nullptr;
    const vx_enum how = usage(static_cast<unsigned>(below(100)));
    switch (below(3)) {
      case 0: {
        vx_reference r = of(VX_TYPE_IMAGE);
        const vx_rectangle_t rect = rectangle(r);
        vx_imagepatch_addressing_t addr{};
        const vx_uint32 plane = chance(90) ? 0 : static_cast<vx_uint32>(below(4));
        if (vxMapImagePatch(reinterpret_cast<vx_image>(r), &rect, plane, &id, &addr, &ptr, how, VX_MEMORY_TYPE_HOST, 0) != VX_SUCCESS) {
          return;
        }
        // Touch the first and the last byte of the patch: any overrun of the image's memory shows under ASan.
        auto* first = static_cast<vx_uint8*>(ptr);
        auto* last = static_cast<vx_uint8*>(vxFormatImagePatchAddress2d(ptr, addr.dim_x - 1, addr.dim_y - 1, &addr));
        if (last == nullptr) {
          ADD_FAILURE() << "a mapped patch has no last pixel";
        } else if (how != VX_READ_ONLY) {
          *first = 1;
          *last = 2;
        } else {
          sink_ += *first + *last;
        }
        note_map(r, id);
        return;
      }
      case 1: {
        vx_reference r = of(VX_TYPE_ARRAY);
        vx_size stride = 0, items = 0;
        (void)vxQueryArray(reinterpret_cast<vx_array>(r), VX_ARRAY_NUMITEMS, &items, sizeof items);
        const vx_size start = chance(90) ? below(items + 1) : size(), end = chance(90) ? start + 1 + below(items + 1) : size();
        if (vxMapArrayRange(reinterpret_cast<vx_array>(r), start, end, &id, &stride, &ptr, how, VX_MEMORY_TYPE_HOST, 0) != VX_SUCCESS) return;
        if (how != VX_READ_ONLY) std::memset(static_cast<vx_uint8*>(ptr) + (end - start - 1) * stride, 3, stride);
        note_map(r, id);
        return;
      }
      default: {
        vx_reference r = of(VX_TYPE_TENSOR);
        vx_size strides[6] = {};
        vx_size n = 0;
        (void)vxQueryTensor(reinterpret_cast<vx_tensor>(r), VX_TENSOR_NUMBER_OF_DIMS, &n, sizeof n);
        if (vxMapTensorPatch(reinterpret_cast<vx_tensor>(r), chance(90) ? n : size(), nullptr, nullptr, &id, strides, &ptr, how,
                             VX_MEMORY_TYPE_HOST) != VX_SUCCESS) {
          return;
        }
        if (how != VX_READ_ONLY) *static_cast<vx_uint8*>(ptr) = 4;
        note_map(r, id);
        return;
      }
    }
  }

  /// Keeps a map to unmap later when the fuzzer holds the object; a map made through a released handle
  /// whose address a new object took (one the fuzzer may not hold) is unmapped at once.
  void note_map(vx_reference r, vx_map_id id) {
    ++mapped_;
    if (std::find(live_.begin(), live_.end(), r) != live_.end()) {
      maps_.push_back({r, id});
    } else {
      (void)unmap(r, id);
    }
  }

  vx_status unmap(vx_reference r, vx_map_id id) {
    vx_enum type = 0;
    (void)vxQueryReference(r, VX_REFERENCE_TYPE, &type, sizeof type);
    switch (type) {
      case VX_TYPE_IMAGE: return vxUnmapImagePatch(reinterpret_cast<vx_image>(r), id);
      case VX_TYPE_ARRAY: return vxUnmapArrayRange(reinterpret_cast<vx_array>(r), id);
      case VX_TYPE_TENSOR: return vxUnmapTensorPatch(reinterpret_cast<vx_tensor>(r), id);
      case VX_TYPE_LUT: return vxUnmapLUT(reinterpret_cast<vx_lut>(r), id);
      case VX_TYPE_DISTRIBUTION: return vxUnmapDistribution(reinterpret_cast<vx_distribution>(r), id);
      case VX_TYPE_REMAP: return vxUnmapRemapPatch(reinterpret_cast<vx_remap>(r), id);
      case VX_TYPE_USER_DATA_OBJECT: return vxUnmapUserDataObject(reinterpret_cast<vx_user_data_object>(r), id);
      default: return vxUnmapImagePatch(reinterpret_cast<vx_image>(r), id);
    }
  }

  void unmap_something() {
    if (maps_.empty()) {
      EXPECT_NE(unmap(any(), static_cast<vx_map_id>(size())), VX_SUCCESS) << "nothing is mapped";
      return;
    }
    const std::size_t i = below(maps_.size());
    if (chance(25)) {
      // Another object's id (map ids are unique in the context): always refused.
      vx_reference other = any();
      if (other != maps_[i].object) {
        EXPECT_NE(unmap(other, maps_[i].id), VX_SUCCESS);
      }
      return;
    }
    EXPECT_EQ(unmap(maps_[i].object, maps_[i].id), VX_SUCCESS);
    maps_.erase(maps_.begin() + static_cast<std::ptrdiff_t>(i));
  }

  void copy_image() {
    vx_reference r = of(VX_TYPE_IMAGE);
    const vx_rectangle_t rect = rectangle(r);
    vx_df_image f = 0;
    (void)vxQueryImage(reinterpret_cast<vx_image>(r), VX_IMAGE_FORMAT, &f, sizeof f);
    const vx_uint32 w = rect.end_x > rect.start_x ? rect.end_x - rect.start_x : 1;
    const vx_uint32 h = rect.end_y > rect.start_y ? rect.end_y - rect.start_y : 1;
    if (static_cast<long double>(w) * h > kBudget) return;
    // A packed buffer of 4 bytes a pixel holds the patch of every format; a bad stride is one that is refused.
    std::vector<vx_uint8> buffer(static_cast<std::size_t>(w) * h * 4);
    vx_imagepatch_addressing_t addr{};
    addr.dim_x = w;
    addr.dim_y = h;
    addr.stride_x = chance(90) ? 4 : static_cast<vx_int32>(below(3)) - 1;
    addr.stride_y = chance(90) ? static_cast<vx_int32>(w * 4) : -static_cast<vx_int32>(below(8));
    addr.scale_x = addr.scale_y = VX_SCALE_UNITY;
    addr.step_x = addr.step_y = 1;
    (void)vxCopyImagePatch(reinterpret_cast<vx_image>(r), &rect, chance(90) ? 0 : static_cast<vx_uint32>(below(4)), &addr,
                           chance(95) ? buffer.data() : nullptr, usage(static_cast<unsigned>(below(70))), VX_MEMORY_TYPE_HOST);
  }

  void array_calls() {
    vx_array array = as<vx_array>(VX_TYPE_ARRAY);
    alignas(16) vx_uint8 items[16 * 64] = {};
    vx_size item_size = 0;
    (void)vxQueryArray(array, VX_ARRAY_ITEMSIZE, &item_size, sizeof item_size);
    switch (below(3)) {
      case 0: {
        const vx_size count = chance(80) ? below(16) : size();
        // Strides that fit the buffer for the counts that fit, and huge ones (refused) otherwise.
        const vx_size stride = chance(80) ? item_size : chance(50) ? SIZE_MAX / 2 + 1 : 0;
        if (count <= 16 && stride == item_size && item_size <= 64) {
          (void)vxAddArrayItems(array, count, items, stride);
        } else if (stride != item_size && count >= 2) {
          EXPECT_NE(vxAddArrayItems(array, count, items, stride), VX_SUCCESS);
        }
        break;
      }
      case 1: (void)vxTruncateArray(array, chance(80) ? below(8) : size()); break;
      default: {
        const vx_size start = below(4), end = chance(90) ? start + 1 + below(12) : size();
        if (end - start <= 16 && item_size <= 64) {
          (void)vxCopyArrayRange(array, start, end, item_size, items, usage(static_cast<unsigned>(below(70))), VX_MEMORY_TYPE_HOST);
        } else {
          (void)vxCopyArrayRange(array, start, end, SIZE_MAX / 2, items, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
        }
        break;
      }
    }
  }

  void tensor_calls() {
    vx_tensor tensor = as<vx_tensor>(VX_TYPE_TENSOR);
    vx_size n = 0;
    vx_size dims[6] = {};
    vx_enum type = 0;
    if (vxQueryTensor(tensor, VX_TENSOR_NUMBER_OF_DIMS, &n, sizeof n) != VX_SUCCESS || n == 0 || n > 6) {
      (void)vxCopyTensorPatch(tensor, 1, nullptr, nullptr, nullptr, nullptr, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
      return;
    }
    (void)vxQueryTensor(tensor, VX_TENSOR_DIMS, dims, sizeof dims);
    (void)vxQueryTensor(tensor, VX_TENSOR_DATA_TYPE, &type, sizeof type);
    const vx_size item = type == VX_TYPE_INT64 ? 8 : type == VX_TYPE_FLOAT32 ? 4 : type == VX_TYPE_INT16 ? 2 : 1;
    vx_size strides[6] = {};
    vx_size bytes = item;
    for (vx_size i = 0; i < n; ++i) {
      strides[i] = bytes;
      bytes *= dims[i];
    }
    if (static_cast<long double>(bytes) > kBudget * 8) return;
    std::vector<vx_uint8> buffer(bytes);
    if (chance(15)) strides[n - 1] = SIZE_MAX / 2;  // refused: beyond the address space
    if (chance(10)) strides[0] = 0;                 // refused: less than an element
    (void)vxCopyTensorPatch(tensor, n, nullptr, nullptr, strides, buffer.data(), usage(static_cast<unsigned>(below(70))),
                            VX_MEMORY_TYPE_HOST);
    if (chance(30)) {
      vx_size start[6] = {}, end[6] = {};
      for (vx_size i = 0; i < n; ++i) {
        start[i] = chance(90) ? below(dims[i]) : size();
        end[i] = chance(90) ? start[i] + 1 : size();
      }
      vx_tensor view = vxCreateTensorFromView(tensor, n, start, end);
      if (view != nullptr) keep(view);
    }
  }

  void flat_data_calls() {
    vx_map_id id = 0;
    void* ptr = nullptr;
    alignas(16) vx_uint8 buffer[256 * 1024] = {};
    switch (below(6)) {
      case 0: {
        vx_lut lut = as<vx_lut>(VX_TYPE_LUT);
        vx_size bytes = 0;
        if (vxQueryLUT(lut, VX_LUT_SIZE, &bytes, sizeof bytes) == VX_SUCCESS && bytes <= sizeof buffer) {
          (void)vxCopyLUT(lut, buffer, usage(static_cast<unsigned>(below(70))), VX_MEMORY_TYPE_HOST);
        }
        if (vxMapLUT(lut, &id, &ptr, usage(static_cast<unsigned>(below(100))), VX_MEMORY_TYPE_HOST, 0) == VX_SUCCESS) {
          note_map(reinterpret_cast<vx_reference>(lut), id);
        }
        break;
      }
      case 1: {
        vx_distribution d = as<vx_distribution>(VX_TYPE_DISTRIBUTION);
        vx_size bytes = 0;
        if (vxQueryDistribution(d, VX_DISTRIBUTION_SIZE, &bytes, sizeof bytes) == VX_SUCCESS && bytes <= sizeof buffer) {
          (void)vxCopyDistribution(d, buffer, usage(static_cast<unsigned>(below(70))), VX_MEMORY_TYPE_HOST);
        }
        if (vxMapDistribution(d, &id, &ptr, usage(static_cast<unsigned>(below(100))), VX_MEMORY_TYPE_HOST, 0) == VX_SUCCESS) {
          note_map(reinterpret_cast<vx_reference>(d), id);
        }
        break;
      }
      case 2: {
        vx_matrix m = as<vx_matrix>(VX_TYPE_MATRIX);
        vx_size bytes = 0;
        if (vxQueryMatrix(m, VX_MATRIX_SIZE, &bytes, sizeof bytes) == VX_SUCCESS && bytes <= sizeof buffer) {
          (void)vxCopyMatrix(m, buffer, usage(static_cast<unsigned>(below(70))), VX_MEMORY_TYPE_HOST);
        }
        break;
      }
      case 3: {
        vx_convolution c = as<vx_convolution>(VX_TYPE_CONVOLUTION);
        vx_size bytes = 0;
        if (vxQueryConvolution(c, VX_CONVOLUTION_SIZE, &bytes, sizeof bytes) == VX_SUCCESS && bytes <= sizeof buffer) {
          (void)vxCopyConvolutionCoefficients(c, buffer, usage(static_cast<unsigned>(below(70))), VX_MEMORY_TYPE_HOST);
        }
        break;
      }
      case 4: {
        vx_user_data_object u = as<vx_user_data_object>(VX_TYPE_USER_DATA_OBJECT);
        const vx_size offset = chance(80) ? below(8) : size(), bytes = chance(80) ? below(16) : size();
        if (bytes <= sizeof buffer) {
          (void)vxCopyUserDataObject(u, offset, bytes, buffer, usage(static_cast<unsigned>(below(70))), VX_MEMORY_TYPE_HOST);
        }
        if (vxMapUserDataObject(u, offset, bytes, &id, &ptr, usage(static_cast<unsigned>(below(100))), VX_MEMORY_TYPE_HOST, 0) ==
            VX_SUCCESS) {
          note_map(reinterpret_cast<vx_reference>(u), id);
        }
        break;
      }
      default: {
        vx_scalar s = as<vx_scalar>(VX_TYPE_SCALAR);
        (void)vxCopyScalar(s, buffer, usage(static_cast<unsigned>(below(70))), VX_MEMORY_TYPE_HOST);
        (void)vxCopyScalarWithSize(s, chance(50) ? 4 : size(), buffer, VX_READ_ONLY, VX_MEMORY_TYPE_HOST);
        break;
      }
    }
  }

  void remap_calls() {
    vx_remap remap = as<vx_remap>(VX_TYPE_REMAP);
    vx_uint32 w = 0, h = 0;
    (void)vxQueryRemap(remap, VX_REMAP_DESTINATION_WIDTH, &w, sizeof w);
    (void)vxQueryRemap(remap, VX_REMAP_DESTINATION_HEIGHT, &h, sizeof h);
    vx_rectangle_t rect{0, 0, std::max(w, 1u), std::max(h, 1u)};
    if (chance(15)) rect = vx_rectangle_t{size32(), size32(), size32(), size32()};
    if (chance(50)) {
      vx_map_id id = 0;
      vx_size stride = 0;
      void* ptr = nullptr;
      if (vxMapRemapPatch(remap, &rect, &id, &stride, &ptr, VX_TYPE_COORDINATES2DF, usage(static_cast<unsigned>(below(100))),
                          VX_MEMORY_TYPE_HOST) == VX_SUCCESS) {
        note_map(reinterpret_cast<vx_reference>(remap), id);
      }
      return;
    }
    const vx_size cells = static_cast<vx_size>(rect.end_x - std::min(rect.start_x, rect.end_x)) *
                          (rect.end_y - std::min(rect.start_y, rect.end_y));
    if (static_cast<long double>(cells) > kBudget) return;
    std::vector<vx_coordinates2df_t> table(std::max<vx_size>(cells, 1));
    const vx_size stride = chance(85) ? (rect.end_x - std::min(rect.start_x, rect.end_x)) * sizeof(vx_coordinates2df_t)
                                      : chance(50) ? SIZE_MAX / 2 : 1;
    (void)vxCopyRemapPatch(remap, &rect, stride, table.data(), VX_TYPE_COORDINATES2DF, usage(static_cast<unsigned>(below(70))),
                           VX_MEMORY_TYPE_HOST);
  }

  void items() {
    if (chance(50)) {
      vx_reference item = vxGetObjectArrayItem(as<vx_object_array>(VX_TYPE_OBJECT_ARRAY), static_cast<vx_uint32>(chance(80) ? below(4) : size32()));
      if (item != nullptr) keep(item);
    } else {
      vx_image level = vxGetPyramidLevel(as<vx_pyramid>(VX_TYPE_PYRAMID), static_cast<vx_uint32>(chance(80) ? below(4) : size32()));
      if (level != nullptr) keep(level);
    }
  }

  void delay_calls() {
    vx_delay delay = as<vx_delay>(VX_TYPE_DELAY);
    if (chance(50)) {
      (void)vxAgeDelay(delay);
    } else {
      // Borrowed, not held: queried only.
      vx_reference slot = vxGetReferenceFromDelay(delay, static_cast<vx_int32>(below(5)) - 2);
      vx_enum type = 0;
      (void)vxQueryReference(slot, VX_REFERENCE_TYPE, &type, sizeof type);
    }
  }

  void graph_parameters() {
    vx_node node = as<vx_node>(VX_TYPE_NODE);
    vx_graph graph = as<vx_graph>(VX_TYPE_GRAPH);
    vx_parameter p = vxGetParameterByIndex(node, static_cast<vx_uint32>(chance(85) ? below(4) : size32()));
    if (p != nullptr) keep(p);
    if (chance(60)) {
      (void)vxAddParameterToGraph(graph, chance(90) ? p : reinterpret_cast<vx_parameter>(any()));
    } else {
      (void)vxSetGraphParameterByIndex(graph, static_cast<vx_uint32>(below(4)), any());
    }
    if (chance(20)) (void)vxSetParameterByReference(p, any());
  }

  void release_something() {
    if (chance(80) && !live_.empty()) {
      release_at(below(live_.size()));
      return;
    }
    // NULL, an error object or a released handle: refused (a released handle's address may have been
    // reused by a new object, so that case is not asserted).
    vx_reference r = chance(50) ? nullptr : !errors_.empty() && chance(50) ? errors_[below(errors_.size())] : nullptr;
    vx_reference copy = r;
    EXPECT_EQ(vxReleaseReference(&copy), VX_ERROR_INVALID_REFERENCE);
    EXPECT_EQ(vxReleaseReference(nullptr), VX_ERROR_INVALID_REFERENCE);
    if (!stale_.empty()) {
      vx_image stale = reinterpret_cast<vx_image>(stale_[below(stale_.size())]);
      vx_uint32 w = 0;
      (void)vxQueryImage(stale, VX_IMAGE_WIDTH, &w, sizeof w);
    }
  }

  void retain_something() {
    vx_reference r = chance(80) && !live_.empty() ? live_[below(live_.size())] : nullptr;
    if (vxRetainReference(r) == VX_SUCCESS) {
      live_.push_back(r);  // one more hold to release
    } else {
      EXPECT_EQ(r, nullptr);
    }
  }

  void reference_calls() {
    vx_reference r = any();
    (void)vxGetStatus(r);
    (void)vxGetContext(r);
    (void)vxSetReferenceName(r, chance(80) ? "fuzzed" : nullptr);
    vx_char name_buffer[VX_MAX_REFERENCE_NAME] = {};
    vx_char* name = name_buffer;
    (void)vxQueryReference(r, VX_REFERENCE_NAME, &name, sizeof name);
    (void)vxHint(r, VX_HINT_PERFORMANCE_DEFAULT, nullptr, 0);
  }

  vx_context context_;
  std::mt19937_64 rng_;
  std::vector<vx_reference> live_;    // one entry per hold the fuzzer has
  std::vector<vx_reference> stale_;   // released (their addresses may be reused)
  std::vector<vx_reference> errors_;  // error objects from failed creators (never released)
  std::vector<Map> maps_;
  unsigned sink_ = 0;

 public:
  std::uint64_t verified_ = 0, processed_ = 0, mapped_ = 0;  // how far the calls got (reported, to see coverage)
};

std::uint64_t env_number(const char* name, std::uint64_t fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  return std::strtoull(text, nullptr, 0);
}

TEST(OpenVxFuzz, RandomCallSequencesNeverBreakTheLibrary) {
  const std::uint64_t seed =
      env_number("VG_FUZZ_SEED", static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
  const std::uint64_t seconds = env_number("VG_FUZZ_SECONDS", 3);
  std::printf("OpenVX fuzz: seed %llu for %llu s (repeat with VG_FUZZ_SEED=%llu)\n", static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(seconds), static_cast<unsigned long long>(seed));
  std::fflush(stdout);
  ::testing::Test::RecordProperty("seed", std::to_string(seed));

  vx_context context = vxCreateContext();
  ASSERT_EQ(vxGetStatus(reinterpret_cast<vx_reference>(context)), VX_SUCCESS);
  vx_uint32 at_start = 0;
  ASSERT_EQ(vxQueryContext(context, VX_CONTEXT_REFERENCES, &at_start, sizeof at_start), VX_SUCCESS);
  std::uint64_t steps = 0;
  {
    Fuzzer fuzzer(context, seed);
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (std::chrono::steady_clock::now() < end && !::testing::Test::HasFatalFailure()) {
      for (int i = 0; i < 64; ++i) fuzzer.step();
      steps += 64;
      if (::testing::Test::HasFailure()) break;
    }
    fuzzer.finish();
    std::printf("OpenVX fuzz: %llu steps, %llu graphs verified, %llu processed, %llu maps\n", static_cast<unsigned long long>(steps),
                static_cast<unsigned long long>(fuzzer.verified_), static_cast<unsigned long long>(fuzzer.processed_),
                static_cast<unsigned long long>(fuzzer.mapped_));
  }
  vx_uint32 at_end = 0;
  EXPECT_EQ(vxQueryContext(context, VX_CONTEXT_REFERENCES, &at_end, sizeof at_end), VX_SUCCESS);
  EXPECT_EQ(at_end, at_start) << "references left once the fuzzer released what it held (seed " << seed << ")";
  EXPECT_EQ(vxReleaseContext(&context), VX_SUCCESS);
  if (::testing::Test::HasFailure()) std::printf("OpenVX fuzz: FAILED with seed %llu\n", static_cast<unsigned long long>(seed));
}

}  // namespace
