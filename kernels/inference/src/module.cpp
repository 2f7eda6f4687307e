#include "visiongraph/kernels/inference/module.hpp"

#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <vector>

#include "visiongraph/core/error.hpp"
#include "visiongraph/data/meta.hpp"
#include "visiongraph/kernel/callbacks.hpp"
#include "visiongraph/kernel/kernel_context.hpp"
#include "visiongraph/kernel/kernel_decl.hpp"
#include "visiongraph/kernel/validate_context.hpp"
#include "visiongraph/kernels/inference/backend.hpp"
#if defined(VG_INFERENCE_HAVE_RKNN)
#include "visiongraph/kernels/inference/rknn_backend.hpp"
#endif
#include "visiongraph/memory/allocator.hpp"
#include "model_registry.hpp"
#if defined(VG_INFERENCE_HAVE_RKNN)
#include "visiongraph/npu/drm_device.hpp"
#include "visiongraph/npu/rknn_runtime.hpp"
#include "visiongraph/npu/soc.hpp"
#endif

namespace vg::inference {
namespace {

constexpr const char* kKernelName = "vg.inference";
constexpr std::int64_t kMaxImportedBuffersLimit = 64;

/// The NPU cores a node's core masks must stay within: the npu_cores attribute, else VG_NPU_CORES, else the
/// device tree's SoC (npu/soc.hpp); 0 = unknown (not a Rockchip board). Also says where it came from.
struct NpuCores {
  unsigned count = 0;
  std::string source;
};

template <class Ctx>
NpuCores npu_cores_for(const Ctx& c) {
  const std::int64_t attribute = c.integer("npu_cores");
  if (attribute != 0) return {static_cast<unsigned>(attribute), "the npu_cores attribute"};
#if defined(VG_INFERENCE_HAVE_RKNN)
  const npu::NpuSoc soc = npu::detect_npu_soc();
  return {soc.cores, soc.name.empty() ? soc.source : soc.name + ", " + soc.source};
#else
  return {0, "built without the NPU layer"};
#endif
}

/// The core masks the rknpu driver accepts on @p cores cores: 0 (auto), 0xffff (all), or bits below cores.
bool core_mask_fits(int mask, unsigned cores) noexcept {
  if (mask == 0 || mask == 0xffff || cores == 0) return true;
  return (static_cast<unsigned>(mask) & ~((1u << cores) - 1u)) == 0;
}

/// Checks opt.core_mask against the SoC's cores (@p fail reports it, naming the count and its source), and
/// drops a mask of 1 on a one-core NPU: that is its only core, and the runtime supports rknn_set_core_mask
/// on multi-core NPUs only.
template <class Fail>
void fit_core_mask(BackendOptions& opt, const NpuCores& cores, Fail&& fail) {
  if (!core_mask_fits(opt.core_mask, cores.count)) {
    fail("core_mask", std::to_string(opt.core_mask) + " selects a core the NPU does not have (" +
                          std::to_string(cores.count) + " core" + (cores.count == 1 ? "" : "s") + ", " + cores.source +
                          "); the driver refuses it: use 0 (auto) or a mask below " + std::to_string(1u << cores.count));
  }
  if (cores.count == 1 && opt.core_mask == 1) opt.core_mask = 0;
}

/// The input as the backend reads it: the tensor's first byte, and where that byte sits in the DMA-BUF
/// (an imported layout may start the tensor past block.data).
MemoryBlock tensor_block(const TensorView& t) noexcept {
  MemoryBlock b = t.block();
  if (b.data != nullptr && t.data() != nullptr && t.data() != b.data) {
    const auto skip = static_cast<std::size_t>(static_cast<const char*>(t.data()) - static_cast<const char*>(b.data));
    b.data = t.data();
    b.size = b.size > skip ? b.size - skip : 0;
    b.fd_offset += skip;
  }
  return b;
}

bool to_element_type(ElementKind k, ElementType& out) {
  switch (k) {
    case ElementKind::f32: out = ElementType::f32; return true;
    case ElementKind::f16: out = ElementType::f16; return true;
    case ElementKind::i8: out = ElementType::i8; return true;
    case ElementKind::u8: out = ElementType::u8; return true;
    case ElementKind::i16: out = ElementType::i16; return true;
    case ElementKind::u16: out = ElementType::u16; return true;
    case ElementKind::i32: out = ElementType::i32; return true;
    case ElementKind::u32: out = ElementType::u32; return true;
    case ElementKind::i64: out = ElementType::i64; return true;
    case ElementKind::boolean: out = ElementType::u8; return true;
  }
  return false;
}

bool to_element_kind(ElementType t, ElementKind& out) {
  switch (t) {
    case ElementType::f32: out = ElementKind::f32; return true;
    case ElementType::f16: out = ElementKind::f16; return true;
    case ElementType::i8: out = ElementKind::i8; return true;
    case ElementType::u8: out = ElementKind::u8; return true;
    case ElementType::i16: out = ElementKind::i16; return true;
    case ElementType::u16: out = ElementKind::u16; return true;
    case ElementType::i32: out = ElementKind::i32; return true;
    case ElementType::u32: out = ElementKind::u32; return true;
    case ElementType::i64: out = ElementKind::i64; return true;
    case ElementType::f64: return false;
  }
  return false;
}

TensorLayout to_tensor_layout(Layout l) {
  switch (l) {
    case Layout::nchw: return TensorLayout::nchw;
    case Layout::nhwc: return TensorLayout::nhwc;
    case Layout::nc1hwc2: return TensorLayout::nc1hwc2;
    case Layout::unspecified: break;
  }
  return TensorLayout::unspecified;
}

Layout to_layout(TensorLayout l) {
  switch (l) {
    case TensorLayout::nchw: return Layout::nchw;
    case TensorLayout::nhwc: return Layout::nhwc;
    case TensorLayout::nc1hwc2: return Layout::nc1hwc2;
    case TensorLayout::unspecified: break;
  }
  return Layout::unspecified;
}

/// Node attributes and input metadata as backend options. @p fail reports a bad value.
template <class Ctx, class Fail>
BackendOptions options_from(const Ctx& c, const DataMeta& input, Fail&& fail) {
  BackendOptions o;
  o.runtime_path = c.string("runtime_path");
  o.dequantize = c.boolean("dequantize");
  o.warmup = static_cast<int>(c.integer("warmup"));
  o.core_mask = static_cast<int>(c.integer("core_mask"));
  o.timeout_ms = static_cast<int>(c.integer("timeout_ms"));
  o.require_zero_copy = c.boolean("require_zero_copy");
  o.async = c.boolean("async");
  const std::int64_t max_imported = c.integer("max_imported_buffers");
  if (max_imported < 0 || max_imported > kMaxImportedBuffersLimit) fail("max_imported_buffers", "must be 0..64");
  o.max_imported_buffers = static_cast<int>(max_imported);
  if (o.warmup < 0 || o.warmup > 1000) fail("warmup", "must be 0..1000");
  if (o.timeout_ms < 0) fail("timeout_ms", "must be >= 0 (0 = runtime default)");
  if (o.core_mask < 0 || o.core_mask > 0xffff) fail("core_mask", "must be an rknn_core_mask value (0 = auto)");
  if (const std::int64_t cores = c.integer("npu_cores"); cores < 0 || cores > 3)
    fail("npu_cores", "must be 0 (detect) or 1..3");
  const TensorMeta& t = input.tensor;
  o.input.name = "input";
  o.input.dims.assign(t.dims.begin(), t.dims.begin() + t.rank);
  if (!to_element_kind(t.type, o.input.type)) fail("input", "f64 tensors are not supported by any backend");
  o.input.layout = to_layout(t.layout);
  // input1..input3, in order: a model's inputs are positional, so a gap is an error.
  for (std::size_t k = 1; k <= kMaxExtraInputs; ++k) {
    const std::size_t param = kFirstExtraInputParam + k - 1;
    if (!c.is_bound(param)) continue;
    const std::string name = "input" + std::to_string(k);
    if (o.extra_inputs.size() + 1 != k) {
      fail(name.c_str(), "bound, but input" + std::to_string(o.extra_inputs.size() + 1) +
                             " is not: bind input1..input3 in the model's input order without gaps");
    }
    const DataMeta& m = c.meta(param);
    if (m.kind != DataKind::tensor) fail(name.c_str(), "expected a tensor");
    TensorDesc d;
    d.name = name;
    d.dims.assign(m.tensor.dims.begin(), m.tensor.dims.begin() + m.tensor.rank);
    if (!to_element_kind(m.tensor.type, d.type)) fail(name.c_str(), "f64 tensors are not supported by any backend");
    d.layout = to_layout(m.tensor.layout);
    o.extra_inputs.push_back(std::move(d));
  }
  return o;
}

DataMeta meta_of(const TensorDesc& d) {
  TensorMeta t;
  t.rank = static_cast<std::uint32_t>(d.dims.size());
  for (std::size_t i = 0; i < d.dims.size() && i < kMaxTensorDims; ++i) t.dims[i] = d.dims[i];
  to_element_type(d.type, t.type);
  t.layout = to_tensor_layout(d.layout);
  t.scale = d.quantized ? d.scale : 1.0f;
  t.zero_point = d.quantized ? d.zero_point : 0;
  return DataMeta::tensor_of(t);
}

}  // namespace

/// @brief A model validate loaded (registry value, model_registry.hpp), shared by every node instance that
/// loads the same model with the same load options, and by the replicas of a node.
///
/// Who runs what. `backend` is the instance validate loaded. The node that validate loaded it for runs it
/// directly when that node is not replicated (one context, as a single node always had). Every other
/// context (each replica, each later graph instance) is duplicated from an *idle* source with
/// InferenceBackend::load_replica (rknn: rknn_dup_context, the weights loaded once). Never from a context a
/// node is running: librknnrt contexts must not be used from two threads at once (failed submits and
/// lock-ups are reported, rknn-toolkit2#533), and a duplicate rebuilds itself after a timeout by
/// duplicating its source again, at any moment. So the idle source is `backend` when no node runs it (its
/// node is replicated), else `spare`: one duplicate of `backend`, made only when a second instance
/// appears, while `mutex` keeps the node running `backend` out (that node holds it around every call into
/// its backend, and its asynchronous run in flight counts as a use). Whoever holds this object keeps every
/// source alive: a duplicate never outlives the context it came from.
struct SharedModel {
  enum class Use : std::uint8_t { undecided, idle, run_by_node };

  std::string kind;
  std::string model;
  BackendOptions options;  // what `backend` was loaded with (the spare is loaded with them)
  ModelInfo info;
  std::unique_ptr<InferenceBackend> backend;
  // load_replica duplicates the source's context (rknn with rknn_dup_context). Without it, later instances
  // load the model themselves (one rknn_init each, as before) and no source is needed.
  bool duplicates = false;

  std::mutex mutex;  // guards the fields below, and `backend` while a node runs it
  std::condition_variable no_run_in_flight;
  Use use = Use::undecided;  // set by the create of the node validate loaded `backend` for
  bool in_flight = false;    // the node running `backend` has an asynchronous run in flight
  std::unique_ptr<InferenceBackend> spare;  // declared after `backend`: destroyed first

  /// The idle context a later instance duplicates from: `backend` once its node is known not to run it,
  /// else the spare, made on first need (waiting for an asynchronous run of `backend` to finish); null
  /// when contexts cannot be duplicated. Called by validate on the verifying thread, never on a target:
  /// there the wait could block the very target that has to complete that run. Throws vg::Error.
  InferenceBackend* idle_source() {
    if (!duplicates) return nullptr;
    std::unique_lock<std::mutex> lock(mutex);
    if (use == Use::idle) return backend.get();
    if (!spare) {
      if (!no_run_in_flight.wait_for(lock, std::chrono::seconds(60), [&] { return !in_flight; })) {
        throw Error("the node running the first instance of " + model + " has had a run in flight for 60 s");
      }
      BackendOptions idle_options = options;
      idle_options.core_mask = 0;  // never runs: no core to pick
      std::unique_ptr<InferenceBackend> s = make_backend(kind, model);
      (void)s->load_replica(*backend, model, idle_options);  // under `mutex`: the node running `backend` waits
      spare = std::move(s);
    }
    return spare.get();
  }
};

namespace {

/// What validate hands to create.
struct ValidatedModel {
  std::shared_ptr<SharedModel> shared;
  bool loaded_here = false;          // validate loaded `shared` for this node (else it is a later instance's)
  InferenceBackend* source = nullptr;  // a later instance: the idle source its contexts are duplicated from
                                       // (null: it loads the model itself)
};

/// True when instances of a @p kind model share one load (rknn; @p runtime: the runtime library it would
/// use). OpenCV never shares: a cv::dnn::Net must not run on two threads at once and its load_replica is
/// load(), so each OpenCV instance keeps parsing the file once, in its own validate, as before.
bool shares_loads(const std::string& kind, const BackendOptions& opt, std::string& runtime) {
#if defined(VG_INFERENCE_HAVE_RKNN)
  if (kind != "rknn") return false;
  runtime = npu::RknnRuntime::resolve_path(opt.runtime_path);
  return true;
#else
  (void)kind, (void)opt, (void)runtime;
  return false;
#endif
}

std::shared_ptr<SharedModel> load_model(const std::string& kind, const std::string& model, const BackendOptions& opt) {
  auto m = std::make_shared<SharedModel>();
  m->kind = kind;
  m->model = model;
  m->options = opt;
  m->backend = make_backend(kind, model);
  m->info = m->backend->load(model, opt);
#if defined(VG_INFERENCE_HAVE_RKNN)
  if (const auto* r = dynamic_cast<const RknnBackend*>(m->backend.get()); r != nullptr && r->runtime() != nullptr) {
    m->duplicates = r->runtime()->api().dup_context != nullptr;
  }
#endif
  return m;
}

void validate(ValidateContext& v) {
  const DataMeta& in = v.meta(kInputParam);
  if (in.kind != DataKind::tensor) v.fail("input", "expected a tensor");
  const std::string& model = v.string("model");
  if (model.empty()) v.fail("model", "attribute model is empty");
  if (!std::filesystem::exists(model)) v.fail("model", "attribute model: file not found: " + model);
  std::string kind;
  try {
    kind = resolve_backend_kind(v.string("backend"), model);
  } catch (const Error& e) {
    v.fail("backend", e.what());
  }
  // The same options create uses (warm-up included): the backend loaded here goes on to create.
  BackendOptions opt = options_from(v, in, [&](const char* what, const std::string& msg) { v.fail(what, msg); });
  if (kind == "rknn") fit_core_mask(opt, npu_cores_for(v), [&](const char* what, const std::string& msg) { v.fail(what, msg); });
  if (opt.async && kind != "rknn") {
    v.fail("async", "async runs exist only on the rknn backend (the NPU runs while the target does other work); "
                    "backend " + kind + " runs each frame inside process: remove async: true, or use an .rknn model");
  }

  // Load the model on the host to learn its outputs: a graph that disagrees fails here, not per frame. Or
  // take the model another instance loaded with the same load options: its outputs are the same, and this
  // node's contexts are duplicated from it (one rknn_init for every instance in the process).
  ValidatedModel handed;
  try {
    std::string runtime;
    ModelKey key;
    if (shares_loads(kind, opt, runtime) && make_model_key(kind, model, runtime, opt, key)) {
      auto [shared, loaded] = ModelRegistry::instance().acquire(key, [&] { return load_model(kind, model, opt); });
      handed.shared = std::move(shared);
      handed.loaded_here = loaded;
      // A later instance: its core mask and version checks come at create, from load_replica.
      if (!loaded) handed.source = handed.shared->idle_source();
    } else {
      handed.shared = load_model(kind, model, opt);
      handed.loaded_here = true;
    }
  } catch (const Error& e) {
    const std::string why = e.what();
    // Backends name the model in most messages; say it once.
    std::string msg = why.find(model) != std::string::npos ? "backend " + kind + ": " + why
                                                           : "backend " + kind + " cannot load " + model + ": " + why;
#if defined(VG_INFERENCE_HAVE_RKNN)
    if (kind == "rknn") {
      std::string why_not;
      if (!npu::NpuDevice::open(&why_not) && msg.find(why_not) == std::string::npos) msg += "; " + why_not;
    }
#endif
    // Name the parameter or attribute the message is about.
    std::string what = "model";
    if (kind == "rknn" && msg.find("dlopen") != std::string::npos) what = "runtime_path";
    if (msg.find("core_mask") != std::string::npos) what = "core_mask";
    for (std::size_t k = 1; k <= kMaxExtraInputs; ++k) {
      if (msg.find("'input" + std::to_string(k) + "'") != std::string::npos) what = "input" + std::to_string(k);
    }
    v.fail(what, msg);
  }
  const ModelInfo& info = handed.shared->info;
  // Exactly the model's inputs: input, then input1..input{n-1}.
  std::string model_inputs;
  for (std::size_t k = 0; k < info.inputs.size(); ++k) {
    model_inputs += (k ? ", " : "") + std::string(k ? "input" + std::to_string(k) : "input") + " = '" +
                    info.inputs[k].name + "' " + info.inputs[k].to_text();
  }
  if (info.inputs.size() > kMaxExtraInputs + 1) {
    v.fail("model", model + " has " + std::to_string(info.inputs.size()) + " inputs; vg.inference supports up to 4");
  }
  for (std::size_t k = 1; k <= kMaxExtraInputs; ++k) {
    const bool is = v.is_bound(kFirstExtraInputParam + k - 1);
    if (is && k >= info.inputs.size()) {
      v.fail("input" + std::to_string(k), "the model " + model + " has only " + std::to_string(info.inputs.size()) +
                                              " input(s) (" + model_inputs + ")");
    }
    if (!is && k < info.inputs.size()) {
      v.fail("input" + std::to_string(k), "not bound, but the model " + model + " has " +
                                              std::to_string(info.inputs.size()) + " inputs (" + model_inputs +
                                              "): bind a tensor of that shape to each");
    }
  }
  if (info.outputs.size() > kMaxOutputs) {
    v.fail("model", model + " has " + std::to_string(info.outputs.size()) + " outputs; vg.inference supports up to 9");
  }
  std::size_t bound = 0;
  for (std::size_t i = 0; i < kMaxOutputs; ++i) {
    const bool is = v.is_bound(kFirstOutputParam + i);
    if (is) ++bound;
    if (is && i >= info.outputs.size()) {
      v.fail("out" + std::to_string(i), "the model " + model + " has only " + std::to_string(info.outputs.size()) +
                                            " outputs (out0..out" + std::to_string(info.outputs.size() - 1) + ")");
    }
    if (!is && i < info.outputs.size()) {
      v.fail("out" + std::to_string(i), "not bound, but the model " + model + " has " +
                                            std::to_string(info.outputs.size()) + " outputs: bind out0..out" +
                                            std::to_string(info.outputs.size() - 1) + " (" + std::to_string(bound) +
                                            " bound so far)");
    }
  }
  for (std::size_t i = 0; i < info.outputs.size(); ++i) {
    const TensorDesc& d = info.outputs[i];
    if (d.dims.size() > kMaxTensorDims) {
      v.fail("out" + std::to_string(i), "model output has rank " + std::to_string(d.dims.size()) + " > 6");
    }
    v.set_meta(kFirstOutputParam + i, meta_of(d));
  }
  v.hand_to_create(std::make_shared<ValidatedModel>(std::move(handed)));
}

/// @brief The target-side instance of vg.inference.
class InferenceKernel {
 public:
  explicit InferenceKernel(KernelContext& ctx) {
    const std::string& model = ctx.string("model");
    const std::string kind = resolve_backend_kind(ctx.string("backend"), model);
    const bool device_only_input = ctx.device_only(kInputParam);
    if (device_only_input && kind == "opencv") {
      throw Error("node '" + std::string(ctx.node_name()) +
                  "', 'input': the input is device-only memory (no CPU address), but the opencv backend needs a "
                  "CPU address to read it (use backend rknn, or import host-visible memory)");
    }
    BackendOptions opt = options_from(ctx, ctx.meta(kInputParam), [&](const char* what, const std::string& msg) {
      throw Error("node '" + std::string(ctx.node_name()) + "', '" + what + "': " + msg);
    });
    if (opt.async && kind != "rknn") {
      throw Error("node '" + std::string(ctx.node_name()) + "', 'async': async runs exist only on the rknn backend");
    }
    // A replicated node (Graph::set_targets, e.g. npu0..npu2) is one instance per target: with core_mask
    // 0 (auto), replica r is pinned to NPU core r, so the replicas run side by side instead of contending
    // for whichever core the runtime picks. The SoC's core count bounds both (RK3588 3, RK3576 2, RK356x
    // and RV1106 1): the driver refuses a mask beyond its cores, so that is a verify error here, naming it.
    const bool replicated = ctx.replica_count() > 1;
    if (kind == "rknn") {
      const NpuCores cores = npu_cores_for(ctx);
      const std::string node = "node '" + std::string(ctx.node_name()) + "'";
      if (replicated && cores.count > 0 && ctx.replica_count() > cores.count) {
        throw Error(node + " runs as " + std::to_string(ctx.replica_count()) + " replicas, but the NPU has " +
                    std::to_string(cores.count) + " core" + (cores.count == 1 ? "" : "s") + " (" + cores.source +
                    "): list at most " + std::to_string(cores.count) + " NPU target" + (cores.count == 1 ? "" : "s") +
                    " for it (one replica per core)");
      }
      fit_core_mask(opt, cores, [&](const char* what, const std::string& msg) {
        throw Error(node + ", '" + what + "': " + msg);
      });
      // Unknown core count (not a board, no override): replicas stay on auto rather than guessing a SoC.
      if (replicated && opt.core_mask == 0 && cores.count > 0) opt.core_mask = 1 << ctx.replica_index();
      npu_cores_ = cores.count;
    }
    ModelInfo info;
    const auto handed = ctx.take_from_validate_as<ValidatedModel>();
    SharedModel* const loaded = handed ? handed->shared.get() : nullptr;
    const bool same_model = loaded != nullptr && loaded->backend && loaded->kind == kind && loaded->model == model;
    if (same_model && !handed->loaded_here) {
      // A later graph instance of a model another node loaded (model_registry.hpp): its own context, made on
      // its target thread with its own core mask, duplicated from that model's idle source (its weights
      // loaded once for every instance); each replica of it likewise. The source stays loaded while any
      // instance lives; they hold it.
      shared_ = handed->shared;
      own_ = make_backend(kind, model);
      info = handed->source != nullptr ? own_->load_replica(*handed->source, model, opt) : own_->load(model, opt);
    } else if (replicated && same_model) {
      // Every replica makes its own context on its own target thread, with its own core mask, from
      // validate's instance (loaded on the verifying thread, core mask auto, never run): rknn duplicates
      // that context, so the weights are loaded once for all replicas. The source stays loaded (idle)
      // while any replica lives; the replicas hold it.
      shared_ = handed->shared;
      {
        const std::lock_guard<std::mutex> lock(loaded->mutex);
        loaded->use = SharedModel::Use::idle;  // later instances duplicate from it too
      }
      own_ = make_backend(kind, model);
      info = own_->load_replica(*loaded->backend, model, opt);
    } else if (same_model) {
      // validate's instance, run by this node: one context, as ever. Later instances never duplicate from
      // it while it may run (SharedModel): this node holds the model's mutex around every use of it.
      shared_ = handed->shared;
      runs_shared_ = true;
      const std::lock_guard<std::mutex> lock(loaded->mutex);
      loaded->use = SharedModel::Use::run_by_node;
      info = loaded->info;
    } else {
      own_ = make_backend(kind, model);
      info = own_->load(model, opt);
    }
    backend_ = runs_shared_ ? shared_->backend.get() : own_.get();
    const std::unique_lock<std::mutex> guard = hold();  // binding and warm-up use the context
    num_outputs_ = info.outputs.size();
    // Every graph-owned buffer the input will be, bound now: process only selects one by index.
    // A device-only input has none (every frame is imported): the backend warms up on its staging memory.
    std::vector<MemoryBlock> blocks;
    if (!device_only_input) {
      for (std::size_t k = 0; k < ctx.num_buffers(kInputParam); ++k) blocks.push_back(ctx.buffer_block(kInputParam, k));
    }
    bound_data_.reserve(blocks.size());
    for (const MemoryBlock& b : blocks) bound_data_.push_back(b.data);
    // input1..input3 first: bind_inputs warms up, reading every input.
    num_extra_ = opt.extra_inputs.size();
    for (std::size_t e = 0; e < num_extra_; ++e) {
      const std::size_t param = kFirstExtraInputParam + e;
      if (ctx.device_only(param)) {
        throw Error("node '" + std::string(ctx.node_name()) + "', 'input" + std::to_string(e + 1) +
                    "': device-only memory is supported for 'input' only; extra inputs need a CPU address");
      }
      std::vector<MemoryBlock> extra_blocks;
      for (std::size_t j = 0; j < ctx.num_buffers(param); ++j) extra_blocks.push_back(ctx.buffer_block(param, j));
      extra_data_[e].reserve(extra_blocks.size());
      for (const MemoryBlock& b : extra_blocks) extra_data_[e].push_back(b.data);
      backend_->bind_extra_inputs(e + 1, extra_blocks);
    }
    backend_->bind_inputs(blocks);
  }

  ~InferenceKernel() {
    if (!runs_shared_) return;
    {
      // Released with an asynchronous run in flight: wait for it here (as the backend's destructor would),
      // since the model may stay loaded for other instances.
      const std::lock_guard<std::mutex> lock(shared_->mutex);
      if (!shared_->in_flight) return;
      (void)backend_->finish({});
      shared_->in_flight = false;
    }
    shared_->no_run_in_flight.notify_all();
  }
  InferenceKernel(const InferenceKernel&) = delete;
  InferenceKernel& operator=(const InferenceKernel&) = delete;

  Status process(KernelContext& ctx) noexcept {
    const std::unique_lock<std::mutex> guard = hold();
    const TensorView in = ctx.tensor(kInputParam);
    const std::size_t k = ctx.buffer_index(kInputParam);
    std::array<void*, kMaxOutputs> outs{};
    for (std::size_t i = 0; i < num_outputs_; ++i) {
      const TensorView o = ctx.tensor(kFirstOutputParam + i);
      outs[i] = o.data();
      if (Allocator* a = o.block().owner) (void)a->begin_cpu_access(o.block(), CpuAccess::write);
    }
    // The writer of the input may have used the CPU without a bracket: flush it before the device reads.
    if (Allocator* a = in.block().owner) (void)a->end_cpu_access(in.block(), CpuAccess::write);
    const std::span<void* const> out_span(outs.data(), num_outputs_);
    // input1..input3: select the buffer bound at create, or hand over other memory (copied by rknn, counted).
    for (std::size_t e = 0; e < num_extra_; ++e) {
      const std::size_t param = kFirstExtraInputParam + e;
      const TensorView x = ctx.tensor(param);
      const std::size_t j = ctx.buffer_index(param);
      const bool bound = !ctx.imported(param) && j < extra_data_[e].size() && extra_data_[e][j] == x.data();
      if (Allocator* a = x.block().owner) (void)a->end_cpu_access(x.block(), CpuAccess::write);
      bool copied = false;
      const Status xs = backend_->select_extra_input(e + 1, bound ? j : SIZE_MAX, tensor_block(x), copied);
      if (copied) ctx.count_conversion();
      if (xs != Status::ok) {
        char msg[320];
        const std::string_view why = backend_->last_failure();
        std::snprintf(msg, sizeof(msg), "%.*s backend cannot use 'input%zu': %.*s (runtime code %d)",
                      static_cast<int>(backend_->name().size()), backend_->name().data(), e + 1,
                      static_cast<int>(why.size()), why.data(), backend_->last_runtime_code());
        ctx.set_error(msg);
        ctx.report_code(backend_->last_runtime_code());
        return xs;
      }
    }
    // The graph's own buffers were bound at create; anything else (a camera's DMA-BUF, host memory) is
    // imported: the backend binds it once or copies it, and a copy is counted, never silent.
    const bool prebound = !ctx.imported(kInputParam) && k < bound_data_.size() && bound_data_[k] == in.data();
    bool converted = false;
    const MemoryBlock input = tensor_block(in);
    const Status s = prebound ? backend_->run(k, out_span) : backend_->run_imported(input, out_span, converted);
    if (converted || (prebound && backend_->copies_bound_input(k))) ctx.count_conversion();
    if (s == Status::pending) {
      // async: the run goes on on the NPU; complete collects the outputs once its fence is readable.
      if (runs_shared_) shared_->in_flight = true;
      if (const int fence = backend_->pending_fence(); fence >= 0) ctx.complete_after(fence);
      return Status::pending;
    }
    for (std::size_t i = 0; i < num_outputs_; ++i) {
      const TensorView o = ctx.tensor(kFirstOutputParam + i);
      if (Allocator* a = o.block().owner) (void)a->end_cpu_access(o.block(), CpuAccess::write);
    }
    if (s != Status::ok && !prebound && !backend_->last_failure().empty()) {
      char msg[320];
      const std::string_view why = backend_->last_failure();
      std::snprintf(msg, sizeof(msg), "%.*s backend cannot use the imported input: %.*s%s",
                    static_cast<int>(backend_->name().size()), backend_->name().data(), static_cast<int>(why.size()),
                    why.data(), input.data == nullptr ? "; it is device-only memory: no CPU address to copy from" : "");
      ctx.set_error(msg);
    } else if (s != Status::ok) {
      char msg[320];
      const std::string_view why = backend_->last_failure();  // e.g. a context rebuild that failed
      std::snprintf(msg, sizeof(msg), "%.*s backend failed: %.*s, runtime code %d%s%.*s",
                    static_cast<int>(backend_->name().size()), backend_->name().data(),
                    static_cast<int>(to_string(s).size()), to_string(s).data(), backend_->last_runtime_code(),
                    why.empty() ? "" : "; ", static_cast<int>(why.size()), why.data());
      ctx.set_error(msg);
    }
    if (s != Status::ok) ctx.report_code(backend_->last_runtime_code());  // in the frame's sample
    return s;
  }

  /// async: the run process started has finished (its fence is readable) or the node's deadline passed:
  /// wait for it (timeout_ms), read the outputs as a blocking run does, close the fence.
  Status complete(KernelContext& ctx) noexcept {
    const std::unique_lock<std::mutex> guard = hold();
    std::array<void*, kMaxOutputs> outs{};
    for (std::size_t i = 0; i < num_outputs_; ++i) outs[i] = ctx.tensor(kFirstOutputParam + i).data();
    const Status s = backend_->finish(std::span<void* const>(outs.data(), num_outputs_));
    if (runs_shared_) {
      shared_->in_flight = false;
      shared_->no_run_in_flight.notify_all();
    }
    for (std::size_t i = 0; i < num_outputs_; ++i) {
      const TensorView o = ctx.tensor(kFirstOutputParam + i);
      if (Allocator* a = o.block().owner) (void)a->end_cpu_access(o.block(), CpuAccess::write);
    }
    if (s != Status::ok) {
      char msg[320];
      const std::string_view why = backend_->last_failure();
      std::snprintf(msg, sizeof(msg), "%.*s backend failed: %.*s, runtime code %d (asynchronous run)%s%.*s",
                    static_cast<int>(backend_->name().size()), backend_->name().data(),
                    static_cast<int>(to_string(s).size()), to_string(s).data(), backend_->last_runtime_code(),
                    why.empty() ? "" : "; ", static_cast<int>(why.size()), why.data());
      ctx.set_error(msg);
      ctx.report_code(backend_->last_runtime_code());
    }
    return s;
  }

  Status control(KernelContext& ctx, const ControlCommand& cmd, CommandReply& reply) noexcept {
    const std::unique_lock<std::mutex> guard = hold();
    switch (cmd.id) {
      case kCmdSetCoreMask: {
        std::int64_t mask = 0;
        if (!cmd.read(mask) || mask < 0 || mask > 0xffff) return Status::invalid_argument;
        if (!core_mask_fits(static_cast<int>(mask), npu_cores_)) {
          char msg[96];
          std::snprintf(msg, sizeof(msg), "set_core_mask(%lld): the NPU has %u core%s", static_cast<long long>(mask),
                        npu_cores_, npu_cores_ == 1 ? "" : "s");
          ctx.set_error(msg);
          return Status::invalid_argument;
        }
        if (npu_cores_ == 1 && mask <= 1) return Status::ok;  // the only core; the runtime has no call for it
        const Status s = backend_->set_core_mask(static_cast<int>(mask));
        if (s != Status::ok) {
          char msg[96];
          std::snprintf(msg, sizeof(msg), "set_core_mask(%lld) failed, runtime code %d", static_cast<long long>(mask),
                        backend_->last_runtime_code());
          ctx.set_error(msg);
        }
        return s;
      }
      case kCmdGetRunTime: {
        char text[96];
        std::snprintf(text, sizeof(text), "last_run_us=%lld backend=%.*s",
                      static_cast<long long>(backend_->last_run_time_us()), static_cast<int>(backend_->name().size()),
                      backend_->name().data());
        reply.write_text(text);
        return Status::ok;
      }
      default:
        return Status::unknown_command;
    }
  }

 private:
  /// Locks the shared model while this node uses validate's instance, so that a later instance never
  /// duplicates it mid-use (SharedModel); empty otherwise. No allocation.
  std::unique_lock<std::mutex> hold() const noexcept {
    return runs_shared_ ? std::unique_lock<std::mutex>(shared_->mutex) : std::unique_lock<std::mutex>();
  }

  std::shared_ptr<SharedModel> shared_;     // the model validate loaded, held while this node lives (it
                                            // runs it, or its context came from it); declared first, so it
                                            // is released after own_
  std::unique_ptr<InferenceBackend> own_;   // this node's own context (a replica, a later instance)
  InferenceBackend* backend_ = nullptr;     // own_, or shared_->backend when runs_shared_
  bool runs_shared_ = false;                // this node runs validate's instance (shared_->backend)
  std::size_t num_outputs_ = 0;
  unsigned npu_cores_ = 0;  // 0 = unknown: set_core_mask is left to the runtime
  std::vector<const void*> bound_data_;
  std::size_t num_extra_ = 0;
  std::array<std::vector<const void*>, kMaxExtraInputs> extra_data_;  // per extra input: bound buffers' data
};

}  // namespace

Module make_inference_module() {
  Module m("vg.inference");
  KernelDecl decl(kKernelName, "runs a model (OpenCV DNN or Rockchip NPU) on one input tensor");
  decl.input("input", DataKind::tensor, true, "model input (NHWC for images)");
  for (std::size_t i = 0; i < kMaxOutputs; ++i) {
    decl.output("out" + std::to_string(i), DataKind::tensor, i == 0,
                "model output " + std::to_string(i) + " (metadata from the model)");
  }
  // After the outputs, so graphs written for one input keep their parameter indices.
  for (std::size_t k = 1; k <= kMaxExtraInputs; ++k) {
    decl.input("input" + std::to_string(k), DataKind::tensor, false,
               "model input " + std::to_string(k) + " (models with several inputs, in the model's order)");
  }
  decl.required_attribute("model", AttrType::string, "model file (.rknn for the NPU, else anything cv::dnn reads)")
      .attribute("backend", "auto", "auto (.rknn -> rknn, else opencv), opencv or rknn")
      .attribute("runtime_path", "", "librknnrt path (default: VG_RKNNRT_PATH, else librknnrt.so)")
      .attribute("dequantize", false, "rknn: deliver f32 outputs instead of int8 with scale/zero point")
      .attribute("warmup", 1, "runs at create, before the first frame")
      .attribute("core_mask", 0,
                 "rknn: NPU core mask (0 auto, 1/2/4 one core, 3 two, 7 three); 0 on a node replicated over "
                 "several targets: replica r gets core r (mask 1 << r) when the core count is known")
      .attribute("npu_cores", 0,
                 "rknn: the SoC's NPU cores (1..3) for core masks and replicas; 0 = VG_NPU_CORES, else the device "
                 "tree (RK3588 3, RK3576 2, RK356x/RK3562/RV1106 1), else unknown (replicas on core_mask auto)")
      .attribute("timeout_ms", 1000, "rknn: rknn_run timeout in milliseconds (0 = runtime default)")
      .attribute("require_zero_copy", false,
                 "rknn: a graph input buffer that cannot be bound zero-copy fails verify instead of being copied")
      .attribute("async", false,
                 "rknn: start each run without blocking (process returns pending; complete reads the outputs "
                 "once the run's fence is readable), so the target runs other nodes or replicas meanwhile")
      .attribute("max_imported_buffers", 8,
                 "rknn: distinct imported DMA-BUFs bound once and kept (0..64); "
                 "others are copied, counted as conversions")
      .command(kCmdSetCoreMask, "set_core_mask", PayloadKind::integer, "restrict the NPU cores (rknn)")
      .command(kCmdGetRunTime, "get_run_time", PayloadKind::none, "reply: last run time in microseconds")
      // Generous: OpenCV DNN's first forward on a small board can take seconds. A run still going after
      // a minute is stuck and is reported and contained (docs/service.md, deadlines).
      .deadline(std::chrono::seconds(60))
      .validate(&validate);
  m.add(std::move(decl));
  // rknn reads imported DMA-BUFs through their fd, so the input may be device-only memory (create refuses
  // it for the OpenCV backend, which needs a CPU address).
  m.implement(kKernelName, "npu", callbacks_for<InferenceKernel>(), ImplementOptions{.accepts_device_memory = true});
  return m;
}

}  // namespace vg::inference
