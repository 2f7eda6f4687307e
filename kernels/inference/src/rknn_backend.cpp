#include "visiongraph/kernels/inference/rknn_backend.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <mutex>

#include "visiongraph/core/error.hpp"
#include "visiongraph/npu/drm_device.hpp"
#include "visiongraph/npu/rknn_runtime.hpp"

namespace vg::inference {
namespace {

using npu::RknnRuntime;

std::string attr_text(const rknn::TensorAttr& a) {
  std::string s = "[";
  for (std::uint32_t i = 0; i < a.n_dims && i < rknn::kMaxDims; ++i) s += (i ? "," : "") + std::to_string(a.dims[i]);
  return s + "] type " + std::to_string(a.type) + " fmt " + std::to_string(a.fmt);
}

bool kind_of(rknn::TensorType t, ElementKind& out) {
  switch (t) {
    case rknn::kTensorFloat32: out = ElementKind::f32; return true;
    case rknn::kTensorFloat16: out = ElementKind::f16; return true;
    case rknn::kTensorInt8: out = ElementKind::i8; return true;
    case rknn::kTensorUint8: out = ElementKind::u8; return true;
    case rknn::kTensorInt16: out = ElementKind::i16; return true;
    case rknn::kTensorUint16: out = ElementKind::u16; return true;
    case rknn::kTensorInt32: out = ElementKind::i32; return true;
    case rknn::kTensorUint32: out = ElementKind::u32; return true;
    case rknn::kTensorInt64: out = ElementKind::i64; return true;
    case rknn::kTensorBool: out = ElementKind::boolean; return true;
    default: return false;
  }
}

Layout layout_of(rknn::TensorFormat f) {
  switch (f) {
    case rknn::kFormatNchw: return Layout::nchw;
    case rknn::kFormatNhwc: return Layout::nhwc;
    case rknn::kFormatNc1hwc2: return Layout::nc1hwc2;
    default: return Layout::unspecified;
  }
}

float half_to_float(std::uint16_t h) noexcept {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  std::uint32_t exp = (h >> 10) & 0x1fu;
  std::uint32_t mant = h & 0x3ffu;
  std::uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {  // subnormal: normalise
      exp = 127 - 15 + 1;
      while ((mant & 0x400u) == 0) {
        mant <<= 1;
        --exp;
      }
      mant &= 0x3ffu;
      bits = sign | (exp << 23) | (mant << 13);
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}

/// How one output travels from its runtime memory to the graph's tensor.
struct OutputPlan {
  rknn::TensorAttr attr{};    // attr bound with rknn_set_io_mem (native or normal)
  rknn::TensorMem* mem = nullptr;
  bool nc1hwc2 = false;       // convert [N,C1,H,W,C2] -> [N,C,H,W]
  std::uint32_t n = 1, c = 1, h = 1, w = 1;        // logical NCHW
  std::uint32_t c2 = 1, native_h = 1, native_w = 1;
  std::size_t elems = 0;      // logical element count
  rknn::TensorType src_type = rknn::kTensorInt8;
  ElementKind dst_type = ElementKind::i8;
  bool dequantize = false;
  float scale = 1.0f;
  std::int32_t zp = 0;
};

/// One imported DMA-BUF bound with rknn_create_mem_from_fd, kept until the backend goes (mem == null: free).
struct ImportedBinding {
  rknn::TensorMem* mem = nullptr;
  dev_t dev = 0;  // identity of the DMA-BUF object: fd numbers are reused after close, inodes are not
  ino_t ino = 0;
  std::size_t fd_offset = 0;
  std::size_t size = 0;
  int fd = -1;  // the fd number last seen for it: tells a stale entry when that number names another object
};

bool same_object(const ImportedBinding& b, const struct stat& st) noexcept {
  return b.dev == st.st_dev && b.ino == st.st_ino;
}

/// How one model input is bound: the attr passed to rknn_set_io_mem, the dense bytes the graph provides
/// and the row pitch the runtime reads.
struct InputPlan {
  rknn::TensorAttr attr{};
  TensorDesc desc;
  std::size_t bytes = 0;                      // dense bytes the graph provides
  std::size_t row_bytes = 0, pitch = 0, rows = 1;
  std::size_t bound_bytes = 0;                // bytes the runtime reads (size_with_stride in the bound type)
  std::uint32_t width = 0, w_stride = 0;      // pixels, for messages (0 for non-image inputs)
};

/// Model inputs 1..3: bound buffers (kept for a context rebuild), their memories, one staging memory.
struct ExtraInput {
  InputPlan plan;
  std::vector<MemoryBlock> blocks;
  std::vector<rknn::TensorMem*> mems;  // per bound buffer; null -> copied into staging
  std::vector<char> zc;                // per bound buffer: bound zero-copy (rebound after a context rebuild)
  rknn::TensorMem* staging = nullptr;
  std::size_t selected = SIZE_MAX;     // bound buffer read by the next run; SIZE_MAX = staging
};

/// "graph parameter 'input'" / "'input2'" for model input @p index.
std::string param_name(std::size_t index) { return index == 0 ? "input" : "input" + std::to_string(index); }


/// What rknn_init's model-related error codes usually mean, and what fixes them.
const char* init_error_advice(int rc) noexcept {
  switch (rc) {
    case rknn::kErrModelInvalid:
      return "the runtime rejects the model file (librknnrt logs e.g. \"Invalid RKNN model version\"): it was converted "
             "by an rknn-toolkit2 release this librknnrt does not accept (usually a newer toolkit than the runtime), or "
             "it is not an .rknn file; needed: a librknnrt at least as new as the toolkit that converted the model "
             "(toolkit and runtime are released together), or the model converted again with the toolkit matching "
             "the installed librknnrt";
    case rknn::kErrIncompatiblePreCompileModel:
    case rknn::kErrIncompatibleOptimizationLevelVersion:
      return "the model was compiled by a toolkit whose pre-compiled format or optimisation level this librknnrt "
             "does not support; needed: the model converted again with the rknn-toolkit2 matching the installed "
             "librknnrt";
    case rknn::kErrDeviceUnmatch:
    case rknn::kErrTargetPlatformUnmatch:
      return "the model was converted for another SoC; needed: the model converted with rknn.config("
             "target_platform=...) set to this board's SoC";
    case rknn::kErrDeviceUnavailable:
      return "the NPU is unavailable; needed: the rknpu driver loaded in DRM mode (dmesg | grep -i rknpu) and the "
             "user in group video";
    default:
      return "";
  }
}

}  // namespace

struct RknnBackend::Impl {
  std::unique_ptr<RknnRuntime> rt;
  rknn::Context ctx{};
  bool ctx_valid = false;
  std::string model;
  // The model file's bytes, kept for the context's lifetime (older runtimes may reference them) and shared
  // with the replicas made from this backend (load_replica), which do not read the file again.
  std::shared_ptr<const std::vector<char>> model_bytes;
  // load_replica: the backend whose context this one was duplicated from (it outlives this one), used
  // again to rebuild the context after a timeout. dup_mutex serialises rknn_dup_context on this
  // backend's context: the vendor reports failures when one context is used from several threads at once.
  Impl* dup_source = nullptr;
  std::mutex dup_mutex;
  BackendOptions options;
  npu::RknnRuntime::Versions versions;
  std::vector<ExtraInput> extra;          // model inputs 1..n-1
  std::vector<MemoryBlock> input_blocks;  // input 0's bound buffers, kept to bind them again after a rebuild
  std::vector<char> input_zc;             // per input-0 buffer: bound zero-copy
  int current_core_mask = 0;              // options.core_mask, or the last set_core_mask: restored by a rebuild
  bool needs_recovery = false;            // the last run left the context unusable (timeout, invalid context)
  std::uint64_t recoveries = 0;
  rknn::TensorAttr input_attr{};  // attr passed to rknn_set_io_mem for the input
  std::size_t input_bytes = 0;    // dense bytes the graph provides
  std::size_t input_row_bytes = 0, input_pitch = 0, input_rows = 0;
  std::size_t input_bound_bytes = 0;  // bytes the runtime reads: strided size in the bound type
  std::vector<rknn::TensorMem*> input_mems;  // per bound buffer; null -> staging
  std::vector<const void*> input_data;       // per bound buffer: CPU address (staging copy source)
  rknn::TensorMem* staging = nullptr;
  std::size_t zero_copy = 0;
  std::vector<ImportedBinding> imported;  // fixed capacity (max_imported_buffers), sized in bind_inputs
  ImportCounters import_counters;
  char failure[192] = {};  // last_failure(): why imported memory could not be used (no allocation)
  std::vector<OutputPlan> outputs;
  std::int64_t last_us = 0;
  int last_code = 0;
  ModelInfo info;
  // Asynchronous runs (options.async): the context's init flag, and the run submitted and not yet finished.
  std::uint32_t init_flag = 0;
  bool pending = false;
  int fence = -1;  // the pending run's fence fd (ours: closed by finish)
  std::chrono::steady_clock::time_point submitted{};

  ~Impl() { teardown(); }

  Status execute(rknn::TensorMem* in, std::span<void* const> outputs) noexcept;
  Status collect(std::span<void* const> outputs, std::int64_t wall_us) noexcept;
  Status finish_pending(std::span<void* const> outputs) noexcept;
  void drain_pending() noexcept;
  bool refuse_while_pending() noexcept {
    if (!pending) return false;
    set_failure("a run is still in flight: finish() it before the next frame");
    return true;
  }
  Status ensure_context() noexcept;
  ModelInfo load(const std::string& model_path, const BackendOptions& options, Impl* source);
  int create_context(Impl* source) noexcept;
  Status recover() noexcept;
  void release_runtime_objects() noexcept;
  InputPlan plan_input(std::uint32_t index, const TensorDesc& graph) const;
  void check_versions() const;
  std::string versions_text() const;
  std::string zero_copy_obstacle(std::size_t input, const InputPlan& p, const MemoryBlock& b) const;
  static void copy_rows(const InputPlan& p, const void* src, rknn::TensorMem* dst) noexcept;
  Status run_staged(const void* input, std::span<void* const> outputs) noexcept;
  rknn::TensorMem* bound_import(const MemoryBlock& input) noexcept;
  void release_imported() noexcept;

  template <class... Args>
  void set_failure(const char* format, Args... args) noexcept {
    std::snprintf(failure, sizeof(failure), format, args...);
  }

  void teardown() noexcept { release_runtime_objects(); }

  [[noreturn]] void fail(const std::string& what, int rc) const {
    throw Error("rknn backend (" + model + "): " + what + " failed: " + std::to_string(rc) + " " +
                rknn::error_name(rc));
  }

  rknn::TensorAttr query_attr(rknn::QueryCmd cmd, std::uint32_t index, const char* what) const {
    rknn::TensorAttr a{};
    a.index = index;
    const int rc = rt->api().query(ctx, cmd, &a, sizeof(a));
    if (rc != rknn::kSucc) fail(std::string("rknn_query(") + what + " " + std::to_string(index) + ")", rc);
    return a;
  }

  Status finish_output(const OutputPlan& o, void* dst) const noexcept {
    const auto* src = static_cast<const std::uint8_t*>(o.mem->virt_addr);
    if (src == nullptr) return Status::inference_error;
    const std::size_t src_elem = o.src_type == rknn::kTensorFloat32 ? 4 : o.src_type == rknn::kTensorFloat16 ? 2 : 1;
    auto store = [&](std::size_t d, std::size_t s) {
      const std::uint8_t* p = src + s * src_elem;
      if (o.dst_type == ElementKind::f32) {
        float v;
        if (o.src_type == rknn::kTensorFloat32) {
          std::memcpy(&v, p, 4);
        } else if (o.src_type == rknn::kTensorFloat16) {
          std::uint16_t hbits;
          std::memcpy(&hbits, p, 2);
          v = half_to_float(hbits);
        } else if (o.src_type == rknn::kTensorUint8) {
          v = o.dequantize ? (static_cast<float>(*p) - static_cast<float>(o.zp)) * o.scale : static_cast<float>(*p);
        } else {
          const auto q = static_cast<std::int8_t>(*p);
          v = o.dequantize ? (static_cast<float>(q) - static_cast<float>(o.zp)) * o.scale : static_cast<float>(q);
        }
        static_cast<float*>(dst)[d] = v;
      } else {
        std::memcpy(static_cast<std::uint8_t*>(dst) + d * src_elem, p, src_elem);
      }
    };
    if (!o.nc1hwc2) {
      if (o.dst_type != ElementKind::f32 || o.src_type == rknn::kTensorFloat32) {
        std::memcpy(dst, src, o.elems * src_elem);
      } else {
        for (std::size_t i = 0; i < o.elems; ++i) store(i, i);
      }
      return Status::ok;
    }
    // NC1HWC2 -> NCHW: dst[n][c][y][x] = src[n][c / C2][y][x][c % C2] (native H/W may be padded).
    const std::size_t plane = static_cast<std::size_t>(o.h) * o.w;
    const std::size_t c1 = (o.c + o.c2 - 1) / o.c2;
    for (std::uint32_t n = 0; n < o.n; ++n) {
      for (std::uint32_t ch = 0; ch < o.c; ++ch) {
        const std::size_t src_base = ((static_cast<std::size_t>(n) * c1 + ch / o.c2) * o.native_h) * o.native_w * o.c2 +
                                     ch % o.c2;
        const std::size_t dst_base = (static_cast<std::size_t>(n) * o.c + ch) * plane;
        for (std::uint32_t y = 0; y < o.h; ++y) {
          for (std::uint32_t x = 0; x < o.w; ++x) {
            store(dst_base + static_cast<std::size_t>(y) * o.w + x,
                  src_base + (static_cast<std::size_t>(y) * o.native_w + x) * o.c2);
          }
        }
      }
    }
    return Status::ok;
  }
};

RknnBackend::RknnBackend() : impl_(std::make_unique<Impl>()) {}
RknnBackend::~RknnBackend() = default;

const npu::RknnRuntime* RknnBackend::runtime() const noexcept { return impl_->rt.get(); }
std::size_t RknnBackend::zero_copy_inputs() const noexcept { return impl_->zero_copy; }
const ImportCounters& RknnBackend::import_counters() const noexcept { return impl_->import_counters; }
std::string_view RknnBackend::last_failure() const noexcept { return impl_->failure; }
std::int64_t RknnBackend::last_run_time_us() const noexcept { return impl_->last_us; }
int RknnBackend::last_runtime_code() const noexcept { return impl_->last_code; }

ModelInfo RknnBackend::load(const std::string& model_path, const BackendOptions& options) {
  return impl_->load(model_path, options, nullptr);
}

ModelInfo RknnBackend::load_replica(InferenceBackend& source, const std::string& model_path,
                                    const BackendOptions& options) {
  auto* rknn_source = dynamic_cast<RknnBackend*>(&source);
  Impl* from = rknn_source != nullptr && rknn_source->impl_->ctx_valid ? rknn_source->impl_.get() : nullptr;
  return impl_->load(model_path, options, from);
}

bool RknnBackend::shares_weights() const noexcept { return impl_->dup_source != nullptr; }

/// Makes this backend's context: rknn_dup_context on @p source's when given and exported (the weights
/// stay loaded once), else rknn_init on the model bytes. Returns the runtime's code.
int RknnBackend::Impl::create_context(Impl* source) noexcept {
  const auto& api = rt->api();
  if (source != nullptr && api.dup_context != nullptr) {
    std::lock_guard<std::mutex> lock(source->dup_mutex);
    rknn::Context from = source->ctx;
    const int rc = api.dup_context(&from, &ctx);
    if (rc == rknn::kSucc) dup_source = source;
    return rc;
  }
  dup_source = nullptr;
  return api.init(&ctx, const_cast<char*>(model_bytes->data()), static_cast<std::uint32_t>(model_bytes->size()),
                  init_flag, nullptr);
}

ModelInfo RknnBackend::Impl::load(const std::string& model_path, const BackendOptions& options, Impl* source) {
  Impl& m = *this;
  m.teardown();
  m.model = model_path;
  m.options = options;
  m.current_core_mask = options.core_mask;
  m.needs_recovery = false;
  m.recoveries = 0;
  m.extra.clear();
  m.input_blocks.clear();
  m.dup_source = nullptr;
  if (source != nullptr && source->model_bytes) {
    m.model_bytes = source->model_bytes;  // one copy of the file for every replica
  } else {
    std::ifstream in(model_path, std::ios::binary);
    if (!in) throw Error("model file not found: " + model_path);
    auto bytes = std::make_shared<std::vector<char>>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (bytes->empty()) throw Error("model file is empty: " + model_path);
    m.model_bytes = std::move(bytes);
  }
  m.rt = RknnRuntime::open(options.runtime_path);
  const auto& api = m.rt->api();
  if (options.async && api.wait == nullptr) {
    throw Error("rknn backend (" + model_path + "): async runs need rknn_wait, which " + m.rt->path() +
                " does not export; needed: a librknnrt that does (present from 1.2.0 on), or async false");
  }
  // Asynchronous runs need the run's output fence: a non-blocking run without one cannot be waited for
  // (librknnrt 2.3.2 is reported to fail rknn_wait with "fence fd = -1 is invalid").
  m.init_flag = options.async ? rknn::flag::kFenceOutOutside : 0u;
  // A replica of an async source shares its init flag through rknn_dup_context; one of a blocking source
  // (or the reverse) cannot, so it loads the model itself.
  if (source != nullptr && source->init_flag != m.init_flag) source = nullptr;
  int rc = m.create_context(source);
  if (rc != rknn::kSucc && m.dup_source == nullptr && source != nullptr && api.dup_context != nullptr) {
    throw Error("rknn backend: rknn_dup_context for a replica of " + model_path + " with " + m.rt->path() +
                " failed: " + std::to_string(rc) + " " + rknn::error_name(rc));
  }
  if (rc != rknn::kSucc) {
    // librknnrt reports its version only on a context it created: the driver is read from the DRM device.
    std::string why_not;
    const auto npu = npu::NpuDevice::open(&why_not);
    const std::string driver = npu ? "rknpu driver " + npu->driver_version_text() + " (" + npu->path() + ")"
                                   : "rknpu driver unknown (" + why_not + ")";
    const std::string advice = init_error_advice(rc);
    throw Error("rknn backend: rknn_init(" + model_path + ") with " + m.rt->path() + " failed: " +
                std::to_string(rc) + " " + rknn::error_name(rc) + "; found: librknnrt " + m.rt->path() +
                " (version not reported: it is queried on a context), " + driver +
                (advice.empty() ? "" : "; " + advice));
  }
  m.ctx_valid = true;
  m.versions = m.rt->query_version(m.ctx);
  const auto& versions = m.versions;
  RknnRuntime::check_abi(versions.api_version, versions.api);
  m.check_versions();

  if (options.core_mask != 0) {
    rc = api.set_core_mask(m.ctx, static_cast<rknn::CoreMask>(options.core_mask));
    if (rc != rknn::kSucc) m.fail("rknn_set_core_mask(" + std::to_string(options.core_mask) + ")", rc);
  }

  rknn::InputOutputNum io{};
  rc = api.query(m.ctx, rknn::kQueryInOutNum, &io, sizeof(io));
  if (rc != rknn::kSucc) m.fail("rknn_query(IN_OUT_NUM)", rc);
  if (io.n_input == 0 || io.n_input > 4) {
    throw Error("rknn backend (" + model_path + "): the model has " + std::to_string(io.n_input) +
                " inputs; vg.inference supports 1..4 (input, input1..input3)");
  }
  if (options.extra_inputs.size() + 1 > io.n_input) {
    throw Error("rknn backend (" + model_path + "): the graph binds " + std::to_string(options.extra_inputs.size() + 1) +
                " inputs but the model has only " + std::to_string(io.n_input) + " input(s) ('" + param_name(io.n_input) +
                "' and later must stay unbound)");
  }
  if (io.n_output == 0 || io.n_output > 9) {
    throw Error("rknn backend (" + model_path + "): the model has " + std::to_string(io.n_output) +
                " outputs; vg.inference supports 1..9");
  }

  ModelInfo info;
  // Input 0 (graph parameter "input") and inputs 1..n-1 ("input1".."input3").
  const InputPlan p0 = m.plan_input(0, options.input);
  m.input_attr = p0.attr;
  m.input_bytes = p0.bytes;
  m.input_bound_bytes = p0.bound_bytes;
  m.input_rows = p0.rows;
  m.input_row_bytes = p0.row_bytes;
  m.input_pitch = p0.pitch;
  info.inputs.push_back(p0.desc);
  m.extra.assign(io.n_input - 1, ExtraInput{});
  for (std::uint32_t k = 1; k < io.n_input; ++k) {
    const TensorDesc none;
    m.extra[k - 1].plan = m.plan_input(k, k - 1 < options.extra_inputs.size() ? options.extra_inputs[k - 1] : none);
    info.inputs.push_back(m.extra[k - 1].plan.desc);
  }

  m.outputs.assign(io.n_output, OutputPlan{});
  for (std::uint32_t i = 0; i < io.n_output; ++i) {
    OutputPlan& o = m.outputs[i];
    const rknn::TensorAttr normal = m.query_attr(rknn::kQueryOutputAttr, i, "OUTPUT_ATTR");
    const rknn::TensorAttr native = m.query_attr(rknn::kQueryNativeOutputAttr, i, "NATIVE_OUTPUT_ATTR");
    TensorDesc d;
    d.name = std::string(normal.name, strnlen(normal.name, rknn::kMaxNameLen));
    for (std::uint32_t k = 0; k < normal.n_dims && k < rknn::kMaxDims; ++k) d.dims.push_back(normal.dims[k]);
    d.layout = layout_of(normal.fmt);
    o.elems = d.element_count();
    bool same_shape = native.n_dims == normal.n_dims && native.fmt == normal.fmt;
    for (std::uint32_t k = 0; same_shape && k < normal.n_dims && k < rknn::kMaxDims; ++k) {
      same_shape = native.dims[k] == normal.dims[k];
    }
    // Native NC1HWC2 is converted here (forcing NCHW through set_io_mem is known to misbehave on some
    // runtime versions); any other mismatch lets the runtime convert by binding the normal attr.
    if (native.fmt == rknn::kFormatNc1hwc2 && native.n_dims == 5 && normal.n_dims == 4 &&
        normal.fmt == rknn::kFormatNchw) {
      o.attr = native;
      o.nc1hwc2 = true;
      o.n = normal.dims[0];
      o.c = normal.dims[1];
      o.h = normal.dims[2];
      o.w = normal.dims[3];
      o.c2 = native.dims[4] == 0 ? 1 : native.dims[4];
      o.native_h = native.dims[2];
      o.native_w = native.dims[3];
      if (o.native_h < o.h || o.native_w < o.w || native.dims[1] * o.c2 < o.c) {
        throw Error("rknn backend (" + model_path + "): native output " + std::to_string(i) + " " +
                    attr_text(native) + " does not cover " + attr_text(normal));
      }
    } else if (same_shape) {
      o.attr = native;
    } else {
      o.attr = normal;
    }
    o.src_type = o.attr.type;
    const bool affine = o.attr.qnt_type == rknn::kQntAffineAsymmetric &&
                        (o.src_type == rknn::kTensorInt8 || o.src_type == rknn::kTensorUint8);
    if (o.src_type == rknn::kTensorFloat16 || o.src_type == rknn::kTensorFloat32) {
      d.type = ElementKind::f32;
    } else if (affine && options.dequantize) {
      d.type = ElementKind::f32;
      o.dequantize = true;
    } else if (!kind_of(o.src_type, d.type) || (o.nc1hwc2 && element_size(d.type) != 1)) {
      throw Error("rknn backend (" + model_path + "): output " + std::to_string(i) + " has unsupported type " +
                  std::to_string(o.src_type));
    }
    if (o.nc1hwc2 && d.type == ElementKind::f32 && o.src_type != rknn::kTensorInt8 &&
        o.src_type != rknn::kTensorUint8 && o.src_type != rknn::kTensorFloat16) {
      throw Error("rknn backend (" + model_path + "): output " + std::to_string(i) + " type not convertible");
    }
    o.dst_type = d.type;
    o.scale = o.attr.scale;
    o.zp = o.attr.zp;
    if (affine && !o.dequantize) {
      d.quantized = true;
      d.scale = o.attr.scale;
      d.zero_point = o.attr.zp;
    }
    const std::uint32_t bytes = o.attr.size_with_stride != 0 ? o.attr.size_with_stride : o.attr.size;
    o.mem = m.rt->api().create_mem(m.ctx, bytes);
    if (o.mem == nullptr) m.fail("rknn_create_mem(output " + std::to_string(i) + ")", rknn::kErrMallocFail);
    rc = api.set_io_mem(m.ctx, o.mem, &o.attr);
    if (rc != rknn::kSucc) m.fail("rknn_set_io_mem(output " + std::to_string(i) + ")", rc);
    info.outputs.push_back(std::move(d));
  }
  // Inputs 1..n-1 read zeros from their staging memory until bind_extra_inputs binds the graph's buffers.
  for (ExtraInput& e : m.extra) {
    e.staging = api.create_mem(m.ctx, static_cast<std::uint32_t>(e.plan.bound_bytes));
    if (e.staging == nullptr) m.fail("rknn_create_mem(extra input staging)", rknn::kErrMallocFail);
    std::memset(e.staging->virt_addr, 0, e.plan.bound_bytes);
  }
  info.detail = "librknnrt " + versions.api + ", driver " + versions.driver + " (" + m.rt->path() + ")";
  m.info = info;
  return info;
}

std::string RknnBackend::Impl::versions_text() const {
  return "librknnrt " + versions.api + " (" + rt->path() + "), rknpu driver " +
         (versions.driver.empty() ? std::string("unknown") : versions.driver);
}

void RknnBackend::Impl::check_versions() const {
  // Each feature the node uses, against the version that introduced it (rknn_api.h history).
  const npu::RknnVersion& api = versions.api_version;
  const npu::RknnVersion drv = npu::RknnVersion::parse(versions.driver);
  auto refuse = [&](const std::string& what, const std::string& needed) {
    throw Error("rknn backend (" + model + "): " + what + "; found " + versions_text() + "; needed: " + needed);
  };
  // Non-blocking runs need the run's output fence (rknn_wait waits on it), and that needs
  // RKNN_FLAG_FENCE_OUT_OUTSIDE, with which librknnrt 2.3.2 and 2.4.2a15 are reported to fail rknn_run
  // (rknn-toolkit2#577; without the flag rknn_wait fails: "fence fd = -1 is invalid").
  if (options.async && api.at_least(2, 3, 2)) {
    refuse("async runs (non-blocking rknn_run + rknn_wait) do not work on librknnrt 2.3.2 and later: rknn_run "
           "fails on a context made with RKNN_FLAG_FENCE_OUT_OUTSIDE, and without it rknn_wait has no fence to "
           "wait on (airockchip/rknn-toolkit2#577, 2.3.2 and 2.4.2a15)",
           "async false (replicas run the NPU cores in parallel instead), or a librknnrt older than 2.3.2");
  }
  if (options.core_mask == rknn::kCoreAll && !api.at_least(2, 0, 0)) {
    refuse("core_mask 0xffff (RKNN_NPU_CORE_ALL) exists from librknnrt 2.0.0 on",
           "librknnrt >= 2.0.0, or core_mask 7 (three cores) / 3 (two cores)");
  }
  // Users report that rknpu 0.9.0-0.9.5 runs a model on core 0 only: a mask with core 1 or 2 (alone or
  // with others, or "all") fails to submit or hangs the NPU (rknpu2#121 on 0.9.2, rknn-toolkit2#294 on
  // 0.9.2, #138 fixed by >= 0.9.6), while 0.8.x and >= 0.9.6 run every core (#294, #297 on 0.8.2).
  const bool uses_core_1_or_2 = options.core_mask == rknn::kCoreAll || (options.core_mask & 0x6) != 0;
  if (uses_core_1_or_2 && drv.valid && drv.at_least(0, 9, 0) && !drv.at_least(0, 9, 6)) {
    refuse("core_mask " + std::to_string(options.core_mask) +
               " uses NPU core 1 or 2, which rknpu drivers 0.9.0 to 0.9.5 are reported to fail to submit to or "
               "hang on (rknpu2#121, rknn-toolkit2#294 and #138)",
           "rknpu driver >= 0.9.6 or 0.8.x (the board's kernel), or core_mask 0 (auto) / 1 (core 0), and one "
           "replica");
  }
  // A runtime that claims a version must export what that version introduced: otherwise it is not the
  // library it says it is, and calls would go through the wrong entry points.
  if (api.at_least(1, 6, 0) && !rt->has_mem_sync()) {
    refuse("the runtime reports " + versions.api + " but does not export rknn_mem_sync (present from 1.6.0 on)",
           "the librknnrt.so matching its reported version (reinstall it from rknn-toolkit2 rknpu2/runtime)");
  }
  if (api.at_least(2, 0, 0) && !rt->has_create_mem2()) {
    refuse("the runtime reports " + versions.api + " but does not export rknn_create_mem2 (present from 2.0.0 on)",
           "the librknnrt.so matching its reported version (reinstall it from rknn-toolkit2 rknpu2/runtime)");
  }
}

InputPlan RknnBackend::Impl::plan_input(std::uint32_t index, const TensorDesc& graph) const {
  // The native attr (NHWC for images) is what the NPU reads without conversion.
  const std::string param = param_name(index);
  const std::string where = "rknn backend (" + model + "): model input " + std::to_string(index);
  const rknn::TensorAttr in_attr = query_attr(rknn::kQueryInputAttr, index, "INPUT_ATTR");
  const rknn::TensorAttr native_in = query_attr(rknn::kQueryNativeInputAttr, index, "NATIVE_INPUT_ATTR");
  InputPlan p;
  TensorDesc& in = p.desc;
  in.name = in_attr.name[0] != '\0' ? std::string(in_attr.name, strnlen(in_attr.name, rknn::kMaxNameLen)) : param;
  const bool image_input = native_in.n_dims == 4 && native_in.fmt == rknn::kFormatNhwc;
  rknn::TensorAttr bind = image_input ? native_in : in_attr;
  if (image_input) {
    // uint8 lets the NPU fuse mean/std normalisation and quantisation (the toolkit's zero-copy recipe);
    // float32 makes the runtime convert.
    const bool want_f32 = graph.type == ElementKind::f32 && !graph.dims.empty();
    bind.type = want_f32 ? rknn::kTensorFloat32 : rknn::kTensorUint8;
    bind.pass_through = 0;
    in.type = want_f32 ? ElementKind::f32 : ElementKind::u8;
    in.layout = Layout::nhwc;
  } else {
    if (!kind_of(bind.type, in.type)) throw Error(where + " ('" + in.name + "') has an unsupported type");
    if (bind.type == rknn::kTensorFloat16) {
      bind.type = rknn::kTensorFloat32;
      in.type = ElementKind::f32;
    }
    in.layout = layout_of(bind.fmt);
  }
  for (std::uint32_t i = 0; i < bind.n_dims && i < rknn::kMaxDims; ++i) in.dims.push_back(bind.dims[i]);
  // size_with_stride counts bytes of the model's own input type; rebinding as u8/f32 rescales it.
  const std::size_t model_esz = native_in.type == rknn::kTensorFloat32 ? 4 : native_in.type == rknn::kTensorFloat16 ? 2 : 1;
  const std::uint64_t strided = native_in.size_with_stride != 0 ? native_in.size_with_stride : native_in.size;
  // Sizes are worked out in 64 bits: on 32-bit ARM size_t would wrap before the 4 GiB check below could see it.
  std::uint64_t dense = element_size(in.type);
  for (const std::uint32_t d : in.dims) dense *= d;
  const std::uint64_t bound = std::max<std::uint64_t>(
      dense, image_input ? strided / model_esz * element_size(in.type) : dense);
  // rknn_create_mem/_from_fd take 32-bit sizes: a larger input cannot be bound at all.
  if (bound > UINT32_MAX) {
    throw Error(where + " ('" + in.name + "') needs " + std::to_string(bound) + " bytes as " +
                std::string(to_string(in.type)) + ", beyond the runtime's 32-bit memory sizes (4 GiB): bind '" +
                param + "' as u8 so the NPU converts, or use a smaller model input");
  }
  p.attr = bind;
  p.bytes = static_cast<std::size_t>(dense);
  p.bound_bytes = static_cast<std::size_t>(bound);
  p.rows = 1;
  p.row_bytes = p.bytes;
  p.pitch = p.bytes;
  if (image_input) {
    const std::size_t esz = element_size(in.type);
    const std::uint32_t w = bind.dims[2];
    const std::uint32_t stride = bind.w_stride == 0 ? w : bind.w_stride;
    p.width = w;
    p.w_stride = stride;
    p.rows = static_cast<std::size_t>(bind.dims[0]) * bind.dims[1];
    p.row_bytes = static_cast<std::size_t>(w) * bind.dims[3] * esz;
    p.pitch = static_cast<std::size_t>(stride) * bind.dims[3] * esz;
    if (stride < w) {
      throw Error(where + " ('" + in.name + "') reports w_stride " + std::to_string(stride) + " < width " +
                  std::to_string(w) + ": the runtime's native input attributes are inconsistent");
    }
  }
  if (!graph.dims.empty() && graph.type != in.type) {
    throw Error(where + ": the model input takes " + in.to_text() + (image_input ? " (or f32)" : "") +
                " but the graph binds " + graph.to_text() + " to '" + param + "'");
  }
  if (!graph.dims.empty() && graph.dims != in.dims) {
    throw Error(where + ": the model input is " + in.to_text() + " but the graph binds " + graph.to_text() +
                " to '" + param + "'");
  }
  if (!graph.dims.empty() && graph.layout != Layout::unspecified && in.layout != Layout::unspecified &&
      graph.layout != in.layout) {
    throw Error(where + ": the runtime reads '" + in.name + "' as " + std::string(to_string(in.layout)) +
                " but the graph's tensor bound to '" + param + "' is declared " +
                std::string(to_string(graph.layout)) + " (the kernel does not transpose): declare the tensor " +
                std::string(to_string(in.layout)) + " with dims " + in.to_text());
  }
  return p;
}

std::string RknnBackend::Impl::zero_copy_obstacle(std::size_t input, const InputPlan& p, const MemoryBlock& b) const {
  const std::string fix_copy = " (or leave require_zero_copy false: the frame is then copied, counted as a conversion)";
  if (!b.is_dmabuf()) {
    return "it is host memory without a DMA-BUF fd; install the NPU allocator (install_npu_allocator) so the graph "
           "allocates '" + param_name(input) + "' as DMA-BUFs" + fix_copy;
  }
  if (p.pitch != p.row_bytes) {
    return "the model's native input rows are padded to w_stride " + std::to_string(p.w_stride) + " px but the tensor is " +
           std::to_string(p.width) + " px wide and dense (" + std::to_string(p.row_bytes) + "-byte rows, the runtime reads " +
           std::to_string(p.pitch) + "-byte rows); convert the model with an input width that needs no padding (w_stride " +
           "equal to the width)" + fix_copy;
  }
  if (b.size < p.bound_bytes) {
    return "it holds " + std::to_string(b.size) + " bytes but the runtime reads size_with_stride " +
           std::to_string(p.bound_bytes) + " bytes from it; allocate buffers of at least that size (a DMA-BUF allocator "
           "rounding to pages does)" + fix_copy;
  }
  if (b.fd_offset > INT32_MAX) {
    return "its offset " + std::to_string(b.fd_offset) + " in DMA-BUF fd " + std::to_string(b.dmabuf_fd) +
           " exceeds rknn_create_mem_from_fd's 32-bit offset; allocate it in a smaller DMA-BUF" + fix_copy;
  }
  return {};
}

void RknnBackend::Impl::copy_rows(const InputPlan& p, const void* input, rknn::TensorMem* dst_mem) noexcept {
  const auto* src = static_cast<const std::uint8_t*>(input);
  auto* dst = static_cast<std::uint8_t*>(dst_mem->virt_addr);
  for (std::size_t r = 0; r < p.rows; ++r) std::memcpy(dst + r * p.pitch, src + r * p.row_bytes, p.row_bytes);
}

void RknnBackend::Impl::release_runtime_objects() noexcept {
  if (!ctx_valid) return;
  drain_pending();
  const auto& api = rt->api();
  // Every memory first, then the context: a context destroyed first would leave the mems dangling.
  release_imported();
  for (rknn::TensorMem*& mem : input_mems) {
    if (mem != nullptr) (void)api.destroy_mem(ctx, mem);
    mem = nullptr;
  }
  if (staging != nullptr) (void)api.destroy_mem(ctx, staging);
  staging = nullptr;
  for (ExtraInput& e : extra) {
    for (rknn::TensorMem*& mem : e.mems) {
      if (mem != nullptr) (void)api.destroy_mem(ctx, mem);
      mem = nullptr;
    }
    if (e.staging != nullptr) (void)api.destroy_mem(ctx, e.staging);
    e.staging = nullptr;
  }
  for (OutputPlan& o : outputs) {
    if (o.mem != nullptr) (void)api.destroy_mem(ctx, o.mem);
    o.mem = nullptr;
  }
  (void)api.destroy(ctx);
  ctx_valid = false;
}

Status RknnBackend::Impl::ensure_context() noexcept {
  if (!needs_recovery) return Status::ok;
  return recover();
}

Status RknnBackend::Impl::recover() noexcept {
  // The last run left the context unusable (timeout): destroy it with every memory, create it again from
  // the same model bytes and core mask, and bind everything as create did. No throw, no container growth.
  const auto& api = rt->api();
  release_runtime_objects();
  auto failed = [&](const char* what, int rc) {
    last_code = rc;
    set_failure("the rknn context was unusable after a timeout and rebuilding it failed: %s returned %d %s", what, rc,
                rknn::error_name(rc));
    return Status::inference_error;
  };
  int rc = create_context(dup_source);
  if (rc != rknn::kSucc) return failed(dup_source != nullptr ? "rknn_dup_context" : "rknn_init", rc);
  ctx_valid = true;
  if (current_core_mask != 0) {
    rc = api.set_core_mask(ctx, static_cast<rknn::CoreMask>(current_core_mask));
    if (rc != rknn::kSucc) return failed("rknn_set_core_mask", rc);
  }
  for (OutputPlan& o : outputs) {
    const std::uint32_t bytes = o.attr.size_with_stride != 0 ? o.attr.size_with_stride : o.attr.size;
    o.mem = api.create_mem(ctx, bytes);
    if (o.mem == nullptr) return failed("rknn_create_mem(output)", rknn::kErrMallocFail);
    rc = api.set_io_mem(ctx, o.mem, &o.attr);
    if (rc != rknn::kSucc) return failed("rknn_set_io_mem(output)", rc);
  }
  auto bind_fd = [&](const MemoryBlock& b, std::size_t bytes) {
    void* base = static_cast<char*>(b.data) - b.fd_offset;
    return api.create_mem_from_fd(ctx, b.dmabuf_fd, base, static_cast<std::uint32_t>(bytes),
                                  static_cast<std::int32_t>(b.fd_offset));
  };
  // Exactly the buffers bind_inputs bound zero-copy are bound again; the others keep going through staging.
  for (std::size_t k = 0; k < input_blocks.size() && k < input_mems.size(); ++k) {
    if (input_zc[k] == 0) continue;
    input_mems[k] = bind_fd(input_blocks[k], input_bound_bytes);
    if (input_mems[k] == nullptr) return failed("rknn_create_mem_from_fd(input)", rknn::kErrMallocFail);
  }
  staging = api.create_mem(ctx, static_cast<std::uint32_t>(input_bound_bytes));
  if (staging == nullptr) return failed("rknn_create_mem(input staging)", rknn::kErrMallocFail);
  std::memset(staging->virt_addr, 0, input_bound_bytes);
  for (ExtraInput& e : extra) {
    for (std::size_t k = 0; k < e.blocks.size() && k < e.mems.size(); ++k) {
      if (e.zc[k] == 0) continue;
      e.mems[k] = bind_fd(e.blocks[k], e.plan.bound_bytes);
      if (e.mems[k] == nullptr) return failed("rknn_create_mem_from_fd(extra input)", rknn::kErrMallocFail);
    }
    e.staging = api.create_mem(ctx, static_cast<std::uint32_t>(e.plan.bound_bytes));
    if (e.staging == nullptr) return failed("rknn_create_mem(extra input staging)", rknn::kErrMallocFail);
    std::memset(e.staging->virt_addr, 0, e.plan.bound_bytes);
    e.selected = SIZE_MAX;
  }
  needs_recovery = false;
  ++recoveries;
  failure[0] = '\0';
  return Status::ok;
}

void RknnBackend::bind_inputs(std::span<const MemoryBlock> buffers) {
  Impl& m = *impl_;
  if (!m.ctx_valid) throw Error("rknn backend: bind_inputs before load");
  const auto& api = m.rt->api();
  const std::size_t bound_size = m.input_bound_bytes;
  const bool dense = m.input_pitch == m.input_row_bytes;
  for (rknn::TensorMem*& mem : m.input_mems) {
    if (mem != nullptr) (void)api.destroy_mem(m.ctx, mem);
  }
  // The imported-buffer cache gets its whole capacity now: a frame never grows it.
  m.release_imported();
  m.imported.assign(static_cast<std::size_t>(m.options.max_imported_buffers < 0 ? 0 : m.options.max_imported_buffers),
                    ImportedBinding{});
  m.import_counters = ImportCounters{};
  m.import_counters.capacity = m.imported.size();
  m.input_mems.assign(buffers.size(), nullptr);
  m.input_data.assign(buffers.size(), nullptr);
  m.input_blocks.assign(buffers.begin(), buffers.end());
  m.input_zc.assign(buffers.size(), 0);
  m.zero_copy = 0;
  InputPlan p0;
  p0.bytes = m.input_bytes;
  p0.row_bytes = m.input_row_bytes;
  p0.pitch = m.input_pitch;
  p0.rows = m.input_rows;
  p0.bound_bytes = m.input_bound_bytes;
  p0.width = m.input_attr.n_dims == 4 ? m.input_attr.dims[2] : 0;
  p0.w_stride = m.input_attr.w_stride == 0 ? p0.width : m.input_attr.w_stride;
  for (std::size_t k = 0; k < buffers.size(); ++k) {
    const MemoryBlock& b = buffers[k];
    if (b.data == nullptr || b.size < m.input_bytes) {
      throw Error("'input' buffer " + std::to_string(k) + " holds " + std::to_string(b.size) +
                  " bytes, the model input " + m.info.inputs[0].to_text() + " of " + m.model + " needs " +
                  std::to_string(m.input_bytes) + ": bind a tensor of that shape and type");
    }
    m.input_data[k] = b.data;
    if (m.options.require_zero_copy) {
      const std::string why = m.zero_copy_obstacle(0, p0, b);
      if (!why.empty()) {
        throw Error("'input' buffer " + std::to_string(k) + " cannot be bound zero-copy to model input 0 of " + m.model +
                    " (require_zero_copy): " + why);
      }
    }
    if (b.is_dmabuf() && dense && b.size >= bound_size && b.fd_offset <= INT32_MAX) {
      // virt_addr is the start of the fd's mapping; offset locates the tensor inside the fd.
      void* base = static_cast<char*>(b.data) - b.fd_offset;
      rknn::TensorMem* mem = api.create_mem_from_fd(m.ctx, b.dmabuf_fd, base, static_cast<std::uint32_t>(bound_size),
                                                    static_cast<std::int32_t>(b.fd_offset));
      if (mem == nullptr) {
        throw Error("rknn backend (" + m.model + "): rknn_create_mem_from_fd(fd " + std::to_string(b.dmabuf_fd) +
                    ") failed for input buffer " + std::to_string(k));
      }
      m.input_mems[k] = mem;
      m.input_zc[k] = 1;
      ++m.zero_copy;
    }
  }
  if (m.staging == nullptr) {
    // Host memory, a row-strided model input, or imported memory that cannot be bound: one runtime-owned
    // buffer, filled by a copy per frame (created even when every buffer is zero-copy, for run_imported).
    m.staging = api.create_mem(m.ctx, static_cast<std::uint32_t>(bound_size));
    if (m.staging == nullptr) m.fail("rknn_create_mem(input staging)", rknn::kErrMallocFail);
    std::memset(m.staging->virt_addr, 0, bound_size);
  }
  // Warm-up on buffer 0, or on the staging memory when every buffer will be imported later (device-only
  // input); contents are irrelevant: the first rknn_run pays one-off costs.
  for (int i = 0; i < m.options.warmup; ++i) {
    Status s = buffers.empty() ? m.execute(m.staging, {}) : run(0, {});
    if (s == Status::pending) s = m.finish_pending({});
    if (s != Status::ok) {
      throw Error("rknn backend (" + m.model + "): warm-up run failed with " + std::to_string(m.last_code) + " " +
                  rknn::error_name(m.last_code));
    }
  }
}

void RknnBackend::bind_extra_inputs(std::size_t input, std::span<const MemoryBlock> buffers) {
  Impl& m = *impl_;
  if (!m.ctx_valid) throw Error("rknn backend: bind_extra_inputs before load");
  if (input == 0 || input > m.extra.size()) {
    throw Error("rknn backend (" + m.model + "): '" + param_name(input) + "' is bound but the model has " +
                std::to_string(m.extra.size() + 1) + " input(s)");
  }
  const auto& api = m.rt->api();
  ExtraInput& e = m.extra[input - 1];
  const InputPlan& p = e.plan;
  for (rknn::TensorMem*& mem : e.mems) {
    if (mem != nullptr) (void)api.destroy_mem(m.ctx, mem);
  }
  e.blocks.assign(buffers.begin(), buffers.end());
  e.mems.assign(buffers.size(), nullptr);
  e.zc.assign(buffers.size(), 0);
  const std::string param = param_name(input);
  for (std::size_t k = 0; k < buffers.size(); ++k) {
    const MemoryBlock& b = buffers[k];
    if (b.data == nullptr || b.size < p.bytes) {
      throw Error("'" + param + "' buffer " + std::to_string(k) + " holds " + std::to_string(b.size) +
                  " bytes, model input " + std::to_string(input) + " " + p.desc.to_text() + " of " + m.model +
                  " needs " + std::to_string(p.bytes) + ": bind a tensor of that shape and type");
    }
    if (m.options.require_zero_copy) {
      const std::string why = m.zero_copy_obstacle(input, p, b);
      if (!why.empty()) {
        throw Error("'" + param + "' buffer " + std::to_string(k) + " cannot be bound zero-copy to model input " +
                    std::to_string(input) + " of " + m.model + " (require_zero_copy): " + why);
      }
    }
    if (b.is_dmabuf() && p.pitch == p.row_bytes && b.size >= p.bound_bytes && b.fd_offset <= INT32_MAX) {
      void* base = static_cast<char*>(b.data) - b.fd_offset;
      e.mems[k] = api.create_mem_from_fd(m.ctx, b.dmabuf_fd, base, static_cast<std::uint32_t>(p.bound_bytes),
                                         static_cast<std::int32_t>(b.fd_offset));
      if (e.mems[k] == nullptr) {
        throw Error("rknn backend (" + m.model + "): rknn_create_mem_from_fd(fd " + std::to_string(b.dmabuf_fd) +
                    ") failed for '" + param + "' buffer " + std::to_string(k));
      }
      e.zc[k] = 1;
    }
  }
  if (e.staging == nullptr) {
    e.staging = api.create_mem(m.ctx, static_cast<std::uint32_t>(p.bound_bytes));
    if (e.staging == nullptr) m.fail("rknn_create_mem(" + param + " staging)", rknn::kErrMallocFail);
    std::memset(e.staging->virt_addr, 0, p.bound_bytes);
  }
  e.selected = buffers.empty() ? SIZE_MAX : 0;
  if (!buffers.empty() && e.mems[0] == nullptr) Impl::copy_rows(p, buffers[0].data, e.staging);
}

Status RknnBackend::select_extra_input(std::size_t input, std::size_t bound_index, const MemoryBlock& block,
                                       bool& converted) noexcept {
  Impl& m = *impl_;
  converted = false;
  m.failure[0] = '\0';
  if (m.refuse_while_pending()) return Status::invalid_argument;
  if (m.ensure_context() != Status::ok) return Status::inference_error;
  if (!m.ctx_valid || input == 0 || input > m.extra.size()) return Status::invalid_argument;
  ExtraInput& e = m.extra[input - 1];
  if (e.staging == nullptr) return Status::not_verified;
  if (bound_index < e.mems.size()) {
    if (e.mems[bound_index] != nullptr) {
      e.selected = bound_index;
      return Status::ok;
    }
    Impl::copy_rows(e.plan, e.blocks[bound_index].data, e.staging);
    e.selected = SIZE_MAX;
    converted = true;
    return Status::ok;
  }
  if (block.data == nullptr) {
    m.set_failure("input%zu is device-only memory that was not bound at create; extra inputs are read from their "
                  "bound buffers or copied from a CPU address", input);
    return Status::not_supported;
  }
  if (block.size < e.plan.bytes) {
    m.set_failure("the buffer for input%zu holds %zu bytes, the model input needs %zu", input, block.size,
                  e.plan.bytes);
    return Status::invalid_argument;
  }
  Impl::copy_rows(e.plan, block.data, e.staging);
  e.selected = SIZE_MAX;
  converted = true;
  return Status::ok;
}

std::uint64_t RknnBackend::recoveries() const noexcept { return impl_->recoveries; }

Status RknnBackend::run(std::size_t input_index, std::span<void* const> outputs) noexcept {
  Impl& m = *impl_;
  m.failure[0] = '\0';
  if (m.refuse_while_pending()) return Status::invalid_argument;
  if (m.ensure_context() != Status::ok) return Status::inference_error;
  if (!m.ctx_valid || input_index >= m.input_mems.size()) return Status::invalid_argument;
  rknn::TensorMem* in = m.input_mems[input_index];
  if (in == nullptr) return m.run_staged(m.input_data[input_index], outputs);
  return impl_->execute(in, outputs);
}

bool RknnBackend::copies_bound_input(std::size_t input_index) const noexcept {
  return input_index < impl_->input_mems.size() && impl_->input_mems[input_index] == nullptr;
}

Status RknnBackend::run_imported(const MemoryBlock& input, std::span<void* const> outputs, bool& converted) noexcept {
  Impl& m = *impl_;
  converted = false;
  m.failure[0] = '\0';
  if (m.refuse_while_pending()) return Status::invalid_argument;
  if (m.ensure_context() != Status::ok) return Status::inference_error;
  if (!m.ctx_valid || m.staging == nullptr) return Status::not_verified;
  if (input.size < m.input_bytes) {
    m.set_failure("the imported buffer holds %zu bytes, the model input needs %zu", input.size, m.input_bytes);
    return Status::invalid_argument;
  }
  if (input.is_dmabuf()) {
    if (rknn::TensorMem* mem = m.bound_import(input)) return m.execute(mem, outputs);
    if (input.data == nullptr) return Status::not_supported;  // device-only: no CPU address to copy from
  } else if (input.data == nullptr) {
    m.set_failure("the imported buffer has neither a CPU address nor a DMA-BUF fd");
    return Status::invalid_argument;
  }
  // Host memory, or a DMA-BUF that cannot be bound: one explicit copy, reported to the caller.
  m.failure[0] = '\0';
  converted = true;
  ++m.import_counters.staging_copies;
  return m.run_staged(input.data, outputs);
}

Status RknnBackend::Impl::run_staged(const void* input, std::span<void* const> outputs) noexcept {
  if (!ctx_valid || staging == nullptr || input == nullptr) return Status::invalid_argument;
  InputPlan p;
  p.rows = input_rows;
  p.pitch = input_pitch;
  p.row_bytes = input_row_bytes;
  copy_rows(p, input, staging);
  return execute(staging, outputs);
}

rknn::TensorMem* RknnBackend::Impl::bound_import(const MemoryBlock& input) noexcept {
  const int fd = input.dmabuf_fd;
  if (input_pitch != input_row_bytes) {
    set_failure("the model's input rows are padded (w_stride), so DMA-BUF fd %d cannot be read in place", fd);
    return nullptr;
  }
  if (input.size < input_bound_bytes || input_bound_bytes > UINT32_MAX || input.fd_offset > INT32_MAX) {
    set_failure("DMA-BUF fd %d (offset %zu, %zu bytes) cannot hold the runtime's %zu-byte input", fd,
                input.fd_offset, input.size, input_bound_bytes);
    return nullptr;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    set_failure("fstat(DMA-BUF fd %d) failed: %s", fd, std::strerror(errno));
    return nullptr;
  }
  // Seen before: only select it.
  for (ImportedBinding& b : imported) {
    if (b.mem != nullptr && same_object(b, st) && b.fd_offset == input.fd_offset && b.size == input.size) {
      b.fd = fd;
      ++import_counters.hits;
      return b.mem;
    }
  }
  // New: a slot whose fd number now names another object (the pool was replaced and the number reused),
  // else a free slot, else any entry whose fd is closed or reused.
  ImportedBinding* slot = nullptr;
  for (ImportedBinding& b : imported) {
    if (b.mem != nullptr && b.fd == fd && !same_object(b, st)) {
      slot = &b;
      break;
    }
  }
  for (std::size_t i = 0; slot == nullptr && i < imported.size(); ++i) {
    if (imported[i].mem == nullptr) slot = &imported[i];
  }
  for (std::size_t i = 0; slot == nullptr && i < imported.size(); ++i) {
    struct stat old {};
    if (::fstat(imported[i].fd, &old) != 0 || !same_object(imported[i], old)) slot = &imported[i];
  }
  if (slot == nullptr) {
    set_failure("DMA-BUF fd %d is not bound and all %zu imported-buffer slots (max_imported_buffers) hold live "
                "DMA-BUFs", fd, imported.size());
    return nullptr;
  }
  const auto& api = rt->api();
  if (slot->mem != nullptr) {
    (void)api.destroy_mem(ctx, slot->mem);
    *slot = ImportedBinding{};
    --import_counters.cached;
    ++import_counters.rebinds;
  }
  // virt_addr is the start of the fd's CPU mapping (null for device-only memory: the runtime uses the fd).
  void* base = input.data != nullptr ? static_cast<char*>(input.data) - input.fd_offset : nullptr;
  rknn::TensorMem* mem = api.create_mem_from_fd(ctx, fd, base, static_cast<std::uint32_t>(input_bound_bytes),
                                                static_cast<std::int32_t>(input.fd_offset));
  if (mem == nullptr) {
    set_failure("rknn_create_mem_from_fd(fd %d, offset %zu) failed", fd, input.fd_offset);
    return nullptr;
  }
  *slot = ImportedBinding{mem, st.st_dev, st.st_ino, input.fd_offset, input.size, fd};
  ++import_counters.binds;
  ++import_counters.cached;
  return mem;
}

void RknnBackend::Impl::release_imported() noexcept {
  for (ImportedBinding& b : imported) {
    if (b.mem != nullptr && ctx_valid) (void)rt->api().destroy_mem(ctx, b.mem);
    b = ImportedBinding{};
  }
  import_counters.cached = 0;
}

Status RknnBackend::Impl::execute(rknn::TensorMem* in, std::span<void* const> outputs) noexcept {
  Impl& m = *this;
  if (!outputs.empty() && outputs.size() < m.outputs.size()) return Status::invalid_argument;
  const auto& api = m.rt->api();
  auto bind_input = [&](rknn::TensorMem* mem, rknn::TensorAttr* attr) {
    int code = api.set_io_mem(m.ctx, mem, attr);
    if (code == rknn::kSucc && api.mem_sync != nullptr) code = api.mem_sync(m.ctx, mem, rknn::kSyncToDevice);
    if (code == rknn::kErrCtxInvalid) m.needs_recovery = true;
    return code;
  };
  int rc = bind_input(in, &m.input_attr);
  for (std::size_t k = 0; rc == rknn::kSucc && k < m.extra.size(); ++k) {
    ExtraInput& e = m.extra[k];
    rknn::TensorMem* mem = e.selected < e.mems.size() && e.mems[e.selected] != nullptr ? e.mems[e.selected] : e.staging;
    rc = mem != nullptr ? bind_input(mem, &e.plan.attr) : rknn::kErrInputInvalid;
  }
  if (rc != rknn::kSucc) {
    m.last_code = rc;
    return Status::inference_error;
  }
  rknn::RunExtend ext{};
  ext.timeout_ms = m.options.timeout_ms;
  if (m.options.async) {
    ext.non_block = 1;
    ext.fence_fd = -1;  // no input fence (RKNN_FLAG_FENCE_IN_OUTSIDE is not set)
  }
  const auto t0 = std::chrono::steady_clock::now();
  rc = api.run(m.ctx, m.options.timeout_ms > 0 || m.options.async ? &ext : nullptr);
  const auto wall =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count();
  if (rc != rknn::kSucc) {
    m.last_code = rc;
    m.last_us = wall;
    // A timed-out (or invalidated) context may still hold the job: it is rebuilt before the next frame.
    if (rc == rknn::kErrTimeout || rc == rknn::kErrCtxInvalid) m.needs_recovery = true;
    return rc == rknn::kErrTimeout ? Status::timeout : Status::inference_error;
  }
  if (m.options.async) {
    // Submitted: finish() waits for it, then reads the outputs as below.
    m.pending = true;
    m.fence = ext.fence_fd;
    m.submitted = t0;
    return Status::pending;
  }
  return m.collect(outputs, wall);
}

Status RknnBackend::Impl::collect(std::span<void* const> outputs, std::int64_t wall) noexcept {
  Impl& m = *this;
  const auto& api = m.rt->api();
  int rc = rknn::kSucc;
  rknn::PerfRun perf{};
  m.last_us = api.query(m.ctx, rknn::kQueryPerfRun, &perf, sizeof(perf)) == rknn::kSucc && perf.run_duration > 0
                  ? perf.run_duration
                  : wall;
  for (std::size_t i = 0; i < m.outputs.size(); ++i) {
    const OutputPlan& o = m.outputs[i];
    if (api.mem_sync != nullptr) {
      rc = api.mem_sync(m.ctx, o.mem, rknn::kSyncFromDevice);
      if (rc != rknn::kSucc) {
        m.last_code = rc;
        return Status::inference_error;
      }
    }
    if (!outputs.empty() && outputs[i] != nullptr) {
      const Status s = m.finish_output(o, outputs[i]);
      if (s != Status::ok) return s;
    }
  }
  m.last_code = 0;
  return Status::ok;
}

Status RknnBackend::set_core_mask(int mask) noexcept {
  Impl& m = *impl_;
  if (m.ensure_context() != Status::ok) return Status::inference_error;
  if (!m.ctx_valid) return Status::not_verified;
  const int rc = m.rt->api().set_core_mask(m.ctx, static_cast<rknn::CoreMask>(mask));
  if (rc != rknn::kSucc) {
    m.last_code = rc;
    return Status::inference_error;
  }
  m.current_core_mask = mask;
  return Status::ok;
}

int RknnBackend::pending_fence() const noexcept { return impl_->pending ? impl_->fence : -1; }

Status RknnBackend::finish(std::span<void* const> outputs) noexcept {
  Impl& m = *impl_;
  m.failure[0] = '\0';
  if (!m.pending) {
    m.set_failure("finish() without a run in flight");
    return Status::invalid_argument;
  }
  return m.finish_pending(outputs);
}

Status RknnBackend::Impl::finish_pending(std::span<void* const> outputs) noexcept {
  if (!outputs.empty() && outputs.size() < this->outputs.size()) return Status::invalid_argument;
  // rknn_wait waits on the fence it is given: the one rknn_run handed out for this run. That fd is ours
  // (the runtime keeps its own), so it is closed here once the run is retired.
  rknn::RunExtend ext{};
  ext.timeout_ms = options.timeout_ms;
  ext.fence_fd = fence;
  const int rc = rt->api().wait(ctx, &ext);
  pending = false;
  if (fence >= 0) ::close(fence);
  fence = -1;
  const auto wall =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - submitted).count();
  if (rc != rknn::kSucc) {
    last_code = rc;
    last_us = wall;
    // As after a blocking timeout: the run may still be in flight, so the context is rebuilt first.
    if (rc == rknn::kErrTimeout || rc == rknn::kErrCtxInvalid) needs_recovery = true;
    return rc == rknn::kErrTimeout ? Status::timeout : Status::inference_error;
  }
  return collect(outputs, wall);
}

void RknnBackend::Impl::drain_pending() noexcept {
  // A run still in flight reads and writes this context's memories: wait for it before they go.
  if (!pending) return;
  rknn::RunExtend ext{};
  ext.timeout_ms = options.timeout_ms > 0 ? options.timeout_ms : 1000;
  ext.fence_fd = fence;
  (void)rt->api().wait(ctx, &ext);
  pending = false;
  if (fence >= 0) ::close(fence);
  fence = -1;
}

}  // namespace vg::inference
