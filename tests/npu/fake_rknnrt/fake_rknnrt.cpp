// Stand-in for librknnrt used only by the contract tests: the same C ABI as declared in
// visiongraph/npu/rknn_types.hpp, a call log, a known output, and switches for failures.
// It must not allocate with operator new per frame (the zero-allocation test counts those).

#include "fake_rknnrt.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#include "visiongraph/npu/rknn_types.hpp"

using namespace vg::rknn;

namespace {

constexpr int kMaxLog = 16384;
constexpr int kEntryLen = 96;
constexpr int kMaxOutputs = 9;
constexpr int kMaxContexts = 64;  // bench_streams: 8 graphs x (one load + three replicas) = 32
constexpr std::uint32_t kC2 = 8;
constexpr int kMaxTrackedFd = 4096;
constexpr int kMaxRunRecords = 16384;
constexpr int kMaxInitRecords = 256;
constexpr int kNumCores = 3;  // RK3588: NPU cores 0, 1, 2
constexpr int kMaxInFlight = 8;     // non-blocking runs submitted and not yet waited for, per context
constexpr int kMaxWaitRecords = 16384;
constexpr long kWaitCapMs = 10000;  // a wait without timeout_ms gives up after this (the driver's job timeout)

struct FakeMem {
  TensorMem pub;
  void* own = nullptr;        // calloc'd storage (create_mem)
  void* fd_map = nullptr;     // our own mapping of an imported fd
  std::size_t fd_map_len = 0;
  Context ctx = 0;
};

struct Tensor {
  std::uint32_t n_dims = 0;
  std::uint32_t dims[4] = {0, 0, 0, 0};
};

constexpr int kMaxExtraInputs = 3;

/// One non-blocking run: submitted by rknn_run(non_block=1), carried out by the device thread, retired by
/// rknn_wait (or, on a context without RKNN_FLAG_FENCE_OUT_OUTSIDE, when it finishes).
struct InFlightRun {
  enum State : int { queued, running, done };
  State state = queued;
  enum Kind : int { normal, fail, timeout, hang };
  Kind kind = normal;
  unsigned long long frame_id = 0;
  long latency_us = 0;
  std::chrono::steady_clock::time_point end{};
  int core = -1;     // core occupied while running (-1: none)
  int fence = -1;    // the runtime's own copy of the fence (the caller holds a dup); closed once signalled
  int caller_fence = -1;  // the fd number rknn_run handed out: rknn_wait must be given it back
  int status = 0;    // what rknn_wait returns once done
  int record = -1;   // run record index
  FakeMem* in_mem = nullptr;  // the memories bound at submission (a run reads them when it executes)
  FakeMem* extra_mem[kMaxExtraInputs] = {};
};

struct FakeContext {
  bool used = false;
  Tensor input;   // NHWC
  std::uint32_t wstride = 0;
  std::uint32_t input_pad = 0;  // extra bytes in input 0's native size_with_stride ("input_pad N")
  int n_extra = 0;              // inputs 1..n_extra ("input" lines after the first)
  Tensor extra_in[kMaxExtraInputs];
  FakeMem* extra_mem[kMaxExtraInputs] = {};
  int min_runtime[3] = {0, 0, 0};  // "min_runtime X.Y.Z": rknn_init refuses the model on older runtimes
  std::size_t weight_bytes = 0;    // "weights B": the model's weight memory, loaded by rknn_init
  int weights = -1;                // its slot in g_weights, shared by rknn_dup_context copies
  int n_out = 0;
  Tensor out[kMaxOutputs];
  FakeMem* in_mem = nullptr;
  FakeMem* out_mem[kMaxOutputs] = {};
  bool out_native[kMaxOutputs] = {};
  int core_mask = 0;
  long run_latency_us = -1;  // -1: the global run latency
  long init_tid = 0;         // thread that ran rknn_init
  long runs = 0;             // successful runs since init
  long input_fd_binds = 0;   // rknn_create_mem_from_fd calls since init
  std::uint32_t init_flag = 0;  // rknn_init flag
  unsigned long long frame_counter = 0;  // frame ids of non-blocking runs
  InFlightRun in_flight[kMaxInFlight];   // ring, oldest at in_flight_head
  int in_flight_head = 0;
  int in_flight_count = 0;
};

/// What one successful rknn_run read from its bound input.
struct RunRecord {
  int fd = -1;                   // fd of the bound input memory (-1: runtime-allocated, e.g. staging)
  unsigned long long checksum = 0;  // FNV-1a 64 of the dense input bytes, read through the bound memory
  Context ctx = 0;               // the context that ran
  long tid = 0;                  // the calling thread
  int core = -1;                 // core the run occupied (-1: no run latency, no core model)
  int non_block = 0;             // 1: a non-blocking run (checksum, core and done_us filled when it finished)
  unsigned long long frame_id = 0;
  long long done_us = -1;        // steady clock (us) when a non-blocking run finished; -1 while in flight
  int status = 0;                // a non-blocking run's result
};

/// One rknn_wait call.
struct WaitRecord {
  Context ctx = 0;
  unsigned long long frame_id = 0;  // the run it retired (0: none)
  int rc = 0;
  long tid = 0;
  long long return_us = 0;  // steady clock (us) when it returned
  int blocked = 0;          // 1: the run was not finished when the wait was called (the caller blocked)
};

/// One successful rknn_init: the context and the calling thread.
struct InitRecord {
  Context ctx = 0;
  long tid = 0;
};

/// Per-call counters since the last fake_rknn_counters_reset().
struct CallCounters {
  long create_mem_from_fd = 0;
  long create_mem = 0;  // rknn_create_mem and rknn_create_mem2
  long destroy_mem = 0;
  long set_io_mem = 0;
  long set_io_mem_input = 0;
  long run = 0;
  int binds_per_fd[kMaxTrackedFd] = {};
  RunRecord runs[kMaxRunRecords];
  int run_records = 0;
  InitRecord inits[kMaxInitRecords];
  int init_records = 0;
  long max_concurrent_runs = 0;  // most runs inside their latency wait at once
  long nonblock_runs = 0;        // rknn_run(non_block=1) accepted
  long fences = 0;               // fence fds handed out
  long fences_signalled = 0;
  long waits = 0;                // rknn_wait calls
  long wait_timeouts = 0;        // of those: RKNN_ERR_TIMEOUT
  long wait_invalid_fence = 0;   // of those: -1 "fence fd = -1 is invalid" (context without FENCE_OUT_OUTSIDE)
  long runs_dropped = 0;         // non-blocking runs still in flight when their context was destroyed
  long max_in_flight = 0;        // most non-blocking runs submitted and not yet retired, over all contexts
  long weight_loads = 0;         // weight memories loaded (rknn_init of a model with "weights B")
  long dups = 0;                 // successful rknn_dup_context calls
  WaitRecord waits_rec[kMaxWaitRecords];
  int wait_records = 0;
};

std::mutex g_mutex;
CallCounters g_counters;
char g_log[kMaxLog][kEntryLen];
int g_log_count = 0;
long g_fail_runs = 0;
long g_timeout_runs = 0;
long g_fail_init = 0;
long g_fail_waits = 0;  // next N non-blocking runs finish with -1
long g_hang_runs = 0;   // next N non-blocking runs never finish (their fence never signals)
// The SoC's NPU cores ("npu_cores", default 3 as an RK3588). As the vendor documents, rknn_set_core_mask is
// only supported on a multi-core NPU: one core refuses every call; and the driver refuses a mask beyond
// its cores (-EINVAL), which the call reports here.
long g_npu_cores = 3;
long g_in_flight = 0;   // non-blocking runs not yet retired, over all contexts

/// A model's weight memory, as rknn_init loads it: touched, so it counts in the process's resident set
/// as device memory would count on a board. rknn_dup_context shares it (the vendor's way to run one
/// model on several contexts without loading it again, rknn-toolkit2#461); freed with its last context.
struct WeightBlock {
  char* data = nullptr;
  std::size_t bytes = 0;
  int contexts = 0;
};
WeightBlock g_weights[kMaxContexts];
std::size_t g_weight_bytes_live = 0;

/// Under g_mutex: a new weight block of @p bytes for one context, or -1 when memory ran out.
int load_weights(std::size_t bytes) {
  for (int i = 0; i < kMaxContexts; ++i) {
    if (g_weights[i].contexts != 0) continue;
    // Mapped, not malloc'd: the pages go back to the system when the block is freed, as device memory
    // would, so a process's resident set shows exactly the weight blocks alive.
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return -1;
    g_weights[i].data = static_cast<char*>(p);
    std::memset(g_weights[i].data, 0x5a, bytes);
    g_weights[i].bytes = bytes;
    g_weights[i].contexts = 1;
    g_weight_bytes_live += bytes;
    ++g_counters.weight_loads;
    return i;
  }
  return -1;
}

/// Under g_mutex: one context fewer uses weight block @p i; the last one frees it.
void drop_weights(int i) {
  if (i < 0 || g_weights[i].contexts == 0) return;
  if (--g_weights[i].contexts > 0) return;
  ::munmap(g_weights[i].data, g_weights[i].bytes);
  g_weight_bytes_live -= g_weights[i].bytes;
  g_weights[i] = WeightBlock{};
}
std::atomic<int> g_live_mems{0};
char g_version[128] = {0};
char g_driver[64] = {0};
long g_init_error = kErrModelInvalid;  // code returned by fail_init
FakeContext g_ctx[kMaxContexts];

// Accelerator model (only with a run latency): a run occupies one free NPU core allowed by its context's
// core mask for the latency, waiting (never spinning) for a core when all allowed ones are busy.
long g_run_latency_us = 0;
long g_run_jitter_us = 0;
unsigned long long g_jitter_state = 0x9e3779b97f4a7c15ull;
bool g_core_busy[kNumCores] = {};
long g_runs_in_latency = 0;
std::condition_variable g_core_cv;
// The device thread (non-blocking runs) and rknn_wait callers wait here. Never destroyed: the detached
// device thread may still wait on it when the process exits. A leak on purpose, so LeakSanitizer is told.
std::condition_variable& make_async_cv() {
  auto* cv = new std::condition_variable;
#if defined(__SANITIZE_ADDRESS__)
  __lsan_ignore_object(cv);
#endif
  return *cv;
}
std::condition_variable& g_async_cv = make_async_cv();
bool g_device_started = false;

long current_tid() { return static_cast<long>(::syscall(SYS_gettid)); }

/// Next value of the jitter generator (xorshift64*), under g_mutex.
unsigned long long next_jitter() {
  g_jitter_state ^= g_jitter_state >> 12;
  g_jitter_state ^= g_jitter_state << 25;
  g_jitter_state ^= g_jitter_state >> 27;
  return g_jitter_state * 2685821657736338717ull;
}

/// Cores a core mask allows (bit i: core i); auto and "all" allow every core.
unsigned allowed_cores(int mask) {
  const unsigned m = static_cast<unsigned>(mask) & ((1u << kNumCores) - 1u);
  return mask == kCoreAuto || mask == kCoreAll || m == 0 ? (1u << kNumCores) - 1u : m;
}

/// Waits like an accelerator: takes a free allowed core (waiting on a condition variable while none is
/// free), releases g_mutex for @p latency_us, then frees the core. Returns the core used. @p lock holds g_mutex.
int occupy_core(std::unique_lock<std::mutex>& lock, int mask, long latency_us) {
  const unsigned allowed = allowed_cores(mask);
  int core = -1;
  g_core_cv.wait(lock, [&] {
    for (int i = 0; i < kNumCores; ++i) {
      if ((allowed & (1u << i)) != 0 && !g_core_busy[i]) {
        core = i;
        return true;
      }
    }
    return false;
  });
  g_core_busy[core] = true;
  ++g_runs_in_latency;
  if (g_runs_in_latency > g_counters.max_concurrent_runs) g_counters.max_concurrent_runs = g_runs_in_latency;
  const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(latency_us);
  lock.unlock();
  std::this_thread::sleep_until(until);
  lock.lock();
  --g_runs_in_latency;
  g_core_busy[core] = false;
  g_core_cv.notify_all();
  g_async_cv.notify_all();  // a non-blocking run may be waiting for this core
  return core;
}

long long steady_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void log_call(const char* fmt, ...) {
  if (g_log_count >= kMaxLog) return;
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(g_log[g_log_count], kEntryLen, fmt, ap);
  va_end(ap);
  ++g_log_count;
}

FakeContext* lookup(Context ctx) {
  if (ctx < 1 || ctx > kMaxContexts || !g_ctx[ctx - 1].used) return nullptr;
  return &g_ctx[ctx - 1];
}

std::uint32_t elems(const Tensor& t) {
  std::uint32_t n = 1;
  for (std::uint32_t i = 0; i < t.n_dims; ++i) n *= t.dims[i];
  return n;
}

/// True when the version text @p v ("1.6.0 (...)") is older than @p need.
bool version_below(const char* v, const int need[3]) {
  int have[3] = {0, 0, 0};
  (void)std::sscanf(v, "%d.%d.%d", &have[0], &have[1], &have[2]);
  for (int i = 0; i < 3; ++i) {
    if (have[i] != need[i]) return have[i] < need[i];
  }
  return false;
}

const char* default_version() {
#if defined(FAKE_RKNN_OLD_SPELLING)
  return "1.2.0 (fake old runtime)";
#else
  return "1.6.0 (fake runtime)";
#endif
}

/// The API version this runtime reports: fake_rknn_set_api_version's, else the default.
const char* api_version() { return g_version[0] ? g_version : default_version(); }

bool parse_model(const char* text, std::size_t size, FakeContext& c) {
  char buf[2048];
  if (size >= sizeof(buf) || size < 9 || std::strncmp(text, "fake-rknn", 9) != 0) return false;
  std::memcpy(buf, text, size);
  buf[size] = '\0';
  c.n_out = 0;
  c.input = Tensor{};
  c.wstride = 0;
  c.n_extra = 0;
  char* save = nullptr;
  for (char* line = strtok_r(buf, "\n", &save); line != nullptr; line = strtok_r(nullptr, "\n", &save)) {
    unsigned d[4] = {0, 0, 0, 0};
    if (std::strncmp(line, "input ", 6) == 0) {
      if (std::sscanf(line + 6, "%u %u %u %u", &d[0], &d[1], &d[2], &d[3]) != 4) return false;
      // The first "input" line is input 0; later ones are inputs 1..3.
      if (c.input.n_dims != 0 && c.n_extra >= kMaxExtraInputs) return false;
      Tensor& t = c.input.n_dims == 0 ? c.input : c.extra_in[c.n_extra++];
      t.n_dims = 4;
      std::memcpy(t.dims, d, sizeof(d));
    } else if (std::strncmp(line, "min_runtime ", 12) == 0) {
      if (std::sscanf(line + 12, "%d.%d.%d", &c.min_runtime[0], &c.min_runtime[1], &c.min_runtime[2]) < 2) return false;
    } else if (std::strncmp(line, "weights ", 8) == 0) {
      c.weight_bytes = static_cast<std::size_t>(std::atoll(line + 8));
    } else if (std::strncmp(line, "input_pad ", 10) == 0) {
      c.input_pad = static_cast<std::uint32_t>(std::atoi(line + 10));
    } else if (std::strncmp(line, "wstride ", 8) == 0) {
      c.wstride = static_cast<std::uint32_t>(std::atoi(line + 8));
    } else if (std::strncmp(line, "output ", 7) == 0) {
      if (c.n_out >= kMaxOutputs) return false;
      const int n = std::sscanf(line + 7, "%u %u %u %u", &d[0], &d[1], &d[2], &d[3]);
      if (n < 1) return false;
      Tensor& t = c.out[c.n_out++];
      t.n_dims = static_cast<std::uint32_t>(n);
      std::memcpy(t.dims, d, sizeof(d));
    }
  }
  return c.input.n_dims == 4 && c.n_out > 0;
}

void fill_input_attr(const FakeContext& c, TensorAttr& a, bool native, std::uint32_t index = 0) {
  std::memset(&a, 0, sizeof(a));
  const Tensor& in = index == 0 ? c.input : c.extra_in[index - 1];
  a.index = index;
  a.n_dims = 4;
  for (int i = 0; i < 4; ++i) a.dims[i] = in.dims[i];
  std::snprintf(a.name, sizeof(a.name), "in%u", index);
  a.n_elems = elems(in);
  a.size = a.n_elems;
  a.fmt = kFormatNhwc;
  a.type = kTensorInt8;
  a.qnt_type = kQntAffineAsymmetric;
  a.zp = -128;
  a.scale = 1.0f / 255.0f;
  const std::uint32_t ws = (native && c.wstride != 0 && index == 0) ? c.wstride : in.dims[2];
  a.w_stride = ws;
  a.size_with_stride = in.dims[0] * in.dims[1] * ws * in.dims[3] + (native && index == 0 ? c.input_pad : 0);
}

void fill_output_attr(const FakeContext& c, std::uint32_t i, TensorAttr& a, bool native) {
  std::memset(&a, 0, sizeof(a));
  const Tensor& t = c.out[i];
  a.index = i;
  std::snprintf(a.name, sizeof(a.name), "out%u", i);
  a.type = kTensorInt8;
  a.qnt_type = kQntAffineAsymmetric;
  a.zp = -3;
  a.scale = 0.5f;
  a.n_elems = elems(t);
  if (t.n_dims == 4 && native) {
    const std::uint32_t c1 = (t.dims[1] + kC2 - 1) / kC2;
    a.n_dims = 5;
    a.dims[0] = t.dims[0];
    a.dims[1] = c1;
    a.dims[2] = t.dims[2];
    a.dims[3] = t.dims[3];
    a.dims[4] = kC2;
    a.fmt = kFormatNc1hwc2;
    a.size = t.dims[0] * c1 * t.dims[2] * t.dims[3] * kC2;
  } else {
    a.n_dims = t.n_dims;
    for (std::uint32_t k = 0; k < t.n_dims; ++k) a.dims[k] = t.dims[k];
    a.fmt = t.n_dims == 4 ? kFormatNchw : kFormatUndefined;
    a.size = a.n_elems;
  }
  a.size_with_stride = a.size;
  a.w_stride = t.n_dims == 4 ? t.dims[3] : 0;
}

unsigned long long fnv1a64_step(unsigned long long h, std::uint8_t byte) {
  return (h ^ byte) * 1099511628211ull;
}

const std::uint8_t* mem_bytes(const FakeMem* m) {
  if (m->fd_map != nullptr) return static_cast<const std::uint8_t*>(m->fd_map) + m->pub.offset;
  return static_cast<const std::uint8_t*>(m->pub.virt_addr);
}

TensorMem* new_mem(Context ctx, std::uint32_t size) {
  auto* m = static_cast<FakeMem*>(std::calloc(1, sizeof(FakeMem)));
  m->own = std::calloc(1, size == 0 ? 1 : size);
  m->pub.virt_addr = m->own;
  m->pub.fd = -1;
  m->pub.size = size;
  m->pub.flags = kMemFlagAllocInside;
  m->pub.priv_data = m;
  m->ctx = ctx;
  ++g_live_mems;
  return &m->pub;
}

int destroy_mem_impl(const char* fn, Context ctx, TensorMem* mem) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (mem == nullptr || lookup(ctx) == nullptr) {
    log_call("%s ctx=%llu rc=-5", fn, static_cast<unsigned long long>(ctx));
    return kErrParamInvalid;
  }
  auto* m = static_cast<FakeMem*>(mem->priv_data);
  log_call("%s ctx=%llu fd=%d", fn, static_cast<unsigned long long>(ctx), mem->fd);
  ++g_counters.destroy_mem;
  FakeContext* c = lookup(ctx);
  if (c->in_mem == m) c->in_mem = nullptr;
  for (auto& x : c->extra_mem) {
    if (x == m) x = nullptr;
  }
  for (auto& o : c->out_mem) {
    if (o == m) o = nullptr;
  }
  for (auto& r : c->in_flight) {
    if (r.in_mem == m) r.in_mem = nullptr;
    for (auto& x : r.extra_mem) {
      if (x == m) x = nullptr;
    }
  }
  if (m->fd_map != nullptr) ::munmap(m->fd_map, m->fd_map_len);
  std::free(m->own);
  std::free(m);
  --g_live_mems;
  return kSucc;
}


/// FNV-1a 64 of the dense input bytes of @p in_mem as the device reads them (through the runtime's own
/// mapping of an fd-imported memory, never the caller's virt_addr), so a test can prove which bytes
/// reached the runtime.
unsigned long long input_checksum(const FakeContext& c, const FakeMem* in_mem) {
  const std::uint8_t* in = mem_bytes(in_mem);
  const std::uint32_t w = c.input.dims[2], ch = c.input.dims[3];
  const std::uint32_t ws = c.wstride != 0 ? c.wstride : w;  // bound attr is the native one
  const std::uint32_t in_bytes = elems(c.input);
  unsigned long long checksum = 14695981039346656037ull;
  for (std::uint32_t kk = 0; kk < in_bytes; ++kk) {
    const std::uint32_t row = kk / (w * ch), col = kk % (w * ch);
    checksum = fnv1a64_step(checksum, in[row * ws * ch + col]);
  }
  return checksum;
}

/// The model's semantics (see fake_rknnrt.hpp): every bound output from @p in_mem (and @p extra0).
void write_outputs(const FakeContext& c, const FakeMem* in_mem, const FakeMem* extra0) {
  const std::uint8_t* in = mem_bytes(in_mem);
  const std::uint32_t w = c.input.dims[2], ch = c.input.dims[3];
  const std::uint32_t ws = c.wstride != 0 ? c.wstride : w;
  const std::uint32_t in_bytes = elems(c.input);
  for (int i = 0; i < c.n_out; ++i) {
    FakeMem* om = c.out_mem[i];
    if (om == nullptr) continue;
    auto* out = static_cast<std::int8_t*>(om->pub.virt_addr);
    const Tensor& t = c.out[i];
    const std::uint32_t total = elems(t);
    for (std::uint32_t k = 0; k < total; ++k) {
      // Logical byte k of the dense input, read through the (possibly row-strided) bound memory.
      const std::uint32_t kk = k % in_bytes;
      const std::uint32_t row = kk / (w * ch), col = kk % (w * ch);
      // A second input adds its byte k % size (dense: extra inputs are never row-padded here).
      const std::uint8_t add =
          c.n_extra > 0 && extra0 != nullptr ? mem_bytes(extra0)[k % elems(c.extra_in[0])] : static_cast<std::uint8_t>(0);
      const auto v = static_cast<std::int8_t>(static_cast<std::uint8_t>(in[row * ws * ch + col] + 1 + i + add));
      std::size_t dst = k;
      if (c.out_native[i]) {
        const std::uint32_t C = t.dims[1], H = t.dims[2], W = t.dims[3];
        const std::uint32_t n = k / (C * H * W), cc = (k / (H * W)) % C, hw = k % (H * W);
        const std::uint32_t c1 = (C + kC2 - 1) / kC2;
        dst = ((static_cast<std::size_t>(n) * c1 + cc / kC2) * H * W + hw) * kC2 + cc % kC2;
      }
      out[dst] = v;
    }
  }
}

// ---- Non-blocking runs ---------------------------------------------------------------------------
// rknn_run(non_block=1) queues the run on its context and returns at once; a device thread (started at
// the first such run) executes queued runs in submission order, one at a time per context, each on a
// free core its context's core mask allows, for the run latency (the same three-core model as blocking
// runs, sharing the cores with them). A run reads its inputs and writes its outputs when it finishes,
// then signals its fence. rknn_wait retires a context's oldest run.

InFlightRun& in_flight_at(FakeContext& c, int k) { return c.in_flight[(c.in_flight_head + k) % kMaxInFlight]; }

void signal_fence(InFlightRun& r) {
  if (r.fence < 0) return;
  const std::uint64_t one = 1;
  (void)!::write(r.fence, &one, sizeof(one));
  ::close(r.fence);
  r.fence = -1;
  ++g_counters.fences_signalled;
}

void retire_head(FakeContext& c) {
  InFlightRun& r = in_flight_at(c, 0);
  if (r.fence >= 0) ::close(r.fence);  // never signalled (a dropped or hung run)
  r = InFlightRun{};
  c.in_flight_head = (c.in_flight_head + 1) % kMaxInFlight;
  --c.in_flight_count;
  --g_in_flight;
}

void free_core(InFlightRun& r) {
  if (r.core < 0) return;
  g_core_busy[r.core] = false;
  --g_runs_in_latency;
  r.core = -1;
  g_core_cv.notify_all();
}

/// Under g_mutex: the run's work (outputs, record), its core freed, its fence signalled.
void finish_run(FakeContext& c, Context ctx, InFlightRun& r) {
  const int core = r.core;
  free_core(r);
  if (r.kind == InFlightRun::fail) {
    r.status = kErrFail;
  } else if (r.kind == InFlightRun::timeout) {
    r.status = kErrTimeout;
  } else if (r.in_mem == nullptr) {
    r.status = kErrInputInvalid;  // its input memory was destroyed while the run was in flight
  } else {
    const unsigned long long checksum = input_checksum(c, r.in_mem);
    write_outputs(c, r.in_mem, r.extra_mem[0]);
    ++g_counters.run;
    ++c.runs;
    r.status = kSucc;
    if (r.record >= 0) {
      g_counters.runs[r.record].checksum = checksum;
      g_counters.runs[r.record].core = core;
    }
  }
  r.state = InFlightRun::done;
  if (r.record >= 0) {
    g_counters.runs[r.record].done_us = steady_us();
    g_counters.runs[r.record].status = r.status;
  }
  log_call("run done ctx=%llu frame=%llu rc=%d", static_cast<unsigned long long>(ctx), r.frame_id, r.status);
  signal_fence(r);
  g_async_cv.notify_all();  // rknn_wait callers
  // Without RKNN_FLAG_FENCE_OUT_OUTSIDE nothing can wait for it (see rknn_wait): it retires itself.
  if ((c.init_flag & flag::kFenceOutOutside) == 0) {
    while (c.in_flight_count > 0 && in_flight_at(c, 0).state == InFlightRun::done) retire_head(c);
  }
}

[[noreturn]] void device_loop() {
  std::unique_lock<std::mutex> lock(g_mutex);
  for (;;) {
    const auto now = std::chrono::steady_clock::now();
    auto next = std::chrono::steady_clock::time_point::max();
    for (int i = 0; i < kMaxContexts; ++i) {
      FakeContext& c = g_ctx[i];
      if (!c.used) continue;
      for (int k = 0; k < c.in_flight_count; ++k) {
        InFlightRun& r = in_flight_at(c, k);
        if (r.state == InFlightRun::done) continue;
        if (r.state == InFlightRun::running) {
          if (r.kind == InFlightRun::hang) break;  // never finishes; later runs of this context wait behind it
          if (r.end <= now) {
            finish_run(c, static_cast<Context>(i + 1), r);
            // finish_run may have retired runs (contexts without a fence): restart this context's scan.
            k = -1;
            continue;
          }
          next = std::min(next, r.end);
          break;  // one run at a time per context
        }
        // Queued behind nothing: start it (on a free allowed core when it has a latency).
        if (r.kind == InFlightRun::hang) {
          r.state = InFlightRun::running;
          break;
        }
        if (r.kind == InFlightRun::normal && r.latency_us > 0) {
          const unsigned allowed = allowed_cores(c.core_mask);
          for (int core = 0; core < kNumCores && r.core < 0; ++core) {
            if ((allowed & (1u << core)) != 0 && !g_core_busy[core]) r.core = core;
          }
          if (r.core < 0) break;  // every allowed core busy: retried when one is freed
          g_core_busy[r.core] = true;
          ++g_runs_in_latency;
          if (g_runs_in_latency > g_counters.max_concurrent_runs) g_counters.max_concurrent_runs = g_runs_in_latency;
        }
        r.state = InFlightRun::running;
        r.end = now + std::chrono::microseconds(r.latency_us);
        k = -1;  // look at it again (a zero latency finishes now)
      }
    }
    if (next == std::chrono::steady_clock::time_point::max()) {
      g_async_cv.wait(lock);
    } else if (next > std::chrono::steady_clock::now()) {
      g_async_cv.wait_until(lock, next);
    }
  }
}

/// Starts the device thread once. It keeps this library loaded (RTLD_NODELETE): a dlclose must not
/// unmap the code the thread runs.
void ensure_device_thread() {
  if (g_device_started) return;
  g_device_started = true;
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&ensure_device_thread), &info) != 0 && info.dli_fname != nullptr) {
    (void)::dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
  }
  std::thread(device_loop).detach();
}

/// rknn_run with non_block=1 (g_mutex held): queue the run, hand out a fence when the context was
/// initialised with RKNN_FLAG_FENCE_OUT_OUTSIDE, return at once.
int submit_nonblocking(Context context, FakeContext& c, RunExtend& ext) {
  if (c.in_flight_count >= kMaxInFlight) {
    log_call("rknn_run non_block=1 rc=-1 %d runs already in flight", kMaxInFlight);
    return kErrFail;
  }
  InFlightRun r;
  if (g_hang_runs > 0) {
    --g_hang_runs;
    r.kind = InFlightRun::hang;
  } else if (g_timeout_runs > 0) {
    --g_timeout_runs;
    r.kind = InFlightRun::timeout;
  } else if (g_fail_waits > 0) {
    --g_fail_waits;
    r.kind = InFlightRun::fail;
  }
  if (r.kind == InFlightRun::timeout) {
    r.latency_us = 1000L * (ext.timeout_ms > 0 && ext.timeout_ms < 20 ? ext.timeout_ms : 20);
  } else {
    r.latency_us = c.run_latency_us >= 0 ? c.run_latency_us : g_run_latency_us;
    if (g_run_jitter_us > 0) {
      r.latency_us += static_cast<long>(next_jitter() % static_cast<unsigned long long>(g_run_jitter_us + 1));
    }
  }
  r.in_mem = c.in_mem;
  for (int k = 0; k < kMaxExtraInputs; ++k) r.extra_mem[k] = c.extra_mem[k];
  r.frame_id = ++c.frame_counter;
  ext.frame_id = r.frame_id;
  ext.fence_fd = -1;
  if ((c.init_flag & flag::kFenceOutOutside) != 0) {
    r.fence = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (r.fence >= 0) ext.fence_fd = ::fcntl(r.fence, F_DUPFD_CLOEXEC, 0);
    if (r.fence < 0 || ext.fence_fd < 0) {
      if (r.fence >= 0) ::close(r.fence);
      ext.fence_fd = -1;
      log_call("rknn_run non_block=1 rc=-1 no fence fd");
      return kErrFail;
    }
    ++g_counters.fences;
    r.caller_fence = ext.fence_fd;
  }
  if (g_counters.run_records < kMaxRunRecords) {
    r.record = g_counters.run_records++;
    RunRecord& rec = g_counters.runs[r.record];
    rec = RunRecord{c.in_mem->pub.fd, 0, context, current_tid(), -1};
    rec.non_block = 1;
    rec.frame_id = r.frame_id;
  }
  in_flight_at(c, c.in_flight_count) = r;
  ++c.in_flight_count;
  ++g_in_flight;
  if (g_in_flight > g_counters.max_in_flight) g_counters.max_in_flight = g_in_flight;
  ++g_counters.nonblock_runs;
  log_call("rknn_run non_block=1 timeout_ms=%d frame=%llu fence=%s rc=0", ext.timeout_ms, r.frame_id,
           ext.fence_fd >= 0 ? "yes" : "no");
  ensure_device_thread();
  g_async_cv.notify_all();
  return kSucc;
}

/// rknn_destroy (g_mutex held): runs still in flight are dropped; their fences are closed unsignalled.
void drop_in_flight(FakeContext& c) {
  while (c.in_flight_count > 0) {
    InFlightRun& r = in_flight_at(c, 0);
    if (r.state != InFlightRun::done) ++g_counters.runs_dropped;
    free_core(r);
    retire_head(c);
  }
  g_async_cv.notify_all();
}

void record_wait(Context ctx, unsigned long long frame_id, int rc, bool blocked = false) {
  if (g_counters.wait_records >= kMaxWaitRecords) return;
  g_counters.waits_rec[g_counters.wait_records++] =
      WaitRecord{ctx, frame_id, rc, current_tid(), steady_us(), blocked ? 1 : 0};
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int rknn_init(Context* context, void* model, std::uint32_t size,
                                                     std::uint32_t flag, InitExtend* /*extend*/) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (const char* env = std::getenv("FAKE_RKNN_FAIL_INIT"); env != nullptr && *env == '1') g_fail_init = 1;
  if (g_fail_init > 0) {
    --g_fail_init;
    log_call("rknn_init rc=%ld", g_init_error);
    return static_cast<int>(g_init_error);
  }
  for (int i = 0; i < kMaxContexts; ++i) {
    if (g_ctx[i].used) continue;
    FakeContext& c = g_ctx[i];
    c = FakeContext{};
    if (model == nullptr || size == 0 || !parse_model(static_cast<const char*>(model), size, c)) {
      log_call("rknn_init size=%u rc=-6", size);
      return kErrModelInvalid;
    }
    if (version_below(api_version(), c.min_runtime)) {
      // What librknnrt does with a model from a newer toolkit: "Invalid RKNN model version", -6.
      log_call("rknn_init size=%u rc=-6 model needs runtime %d.%d.%d", size, c.min_runtime[0], c.min_runtime[1],
               c.min_runtime[2]);
      return kErrModelInvalid;
    }
    if (c.weight_bytes > 0 && (c.weights = load_weights(c.weight_bytes)) < 0) {
      log_call("rknn_init size=%u rc=-4 no memory for %zu weight bytes", size, c.weight_bytes);
      return kErrMallocFail;
    }
    c.used = true;
    c.init_tid = current_tid();
    c.init_flag = flag;
    *context = static_cast<Context>(i + 1);
    if (g_counters.init_records < kMaxInitRecords) {
      g_counters.inits[g_counters.init_records++] = InitRecord{*context, c.init_tid};
    }
    log_call("rknn_init size=%u flag=%u rc=0", size, flag);
    return kSucc;
  }
  return kErrMallocFail;
}

__attribute__((visibility("default"))) int rknn_destroy(Context context) {
  std::lock_guard<std::mutex> lock(g_mutex);
  FakeContext* c = lookup(context);
  log_call("rknn_destroy ctx=%llu", static_cast<unsigned long long>(context));
  if (c == nullptr) return kErrCtxInvalid;
  drop_in_flight(*c);
  drop_weights(c->weights);
  c->weights = -1;
  c->used = false;
  return kSucc;
}

// rknn_dup_context(in, out): a second context of the same model sharing its weights; it has its own
// memories, bindings, core mask (auto) and runs. The source context stays usable and is not needed
// afterwards (its weights live on while any copy does). Unknown source: RKNN_ERR_CTX_INVALID.
__attribute__((visibility("default"))) int rknn_dup_context(Context* context_in, Context* context_out) {
  std::lock_guard<std::mutex> lock(g_mutex);
  FakeContext* src = context_in != nullptr ? lookup(*context_in) : nullptr;
  if (src == nullptr || context_out == nullptr) {
    log_call("rknn_dup_context rc=-7");
    return kErrCtxInvalid;
  }
  for (int i = 0; i < kMaxContexts; ++i) {
    if (g_ctx[i].used) continue;
    FakeContext& c = g_ctx[i];
    c = FakeContext{};
    // The model as parsed (shapes, strides, weights), nothing per context.
    c.input = src->input;
    c.wstride = src->wstride;
    c.input_pad = src->input_pad;
    c.n_extra = src->n_extra;
    std::copy(std::begin(src->extra_in), std::end(src->extra_in), std::begin(c.extra_in));
    std::copy(std::begin(src->min_runtime), std::end(src->min_runtime), std::begin(c.min_runtime));
    c.n_out = src->n_out;
    std::copy(std::begin(src->out), std::end(src->out), std::begin(c.out));
    c.weight_bytes = src->weight_bytes;
    c.weights = src->weights;
    if (c.weights >= 0) ++g_weights[c.weights].contexts;
    c.init_flag = src->init_flag;
    c.used = true;
    c.init_tid = current_tid();
    *context_out = static_cast<Context>(i + 1);
    ++g_counters.dups;
    if (g_counters.init_records < kMaxInitRecords) {
      g_counters.inits[g_counters.init_records++] = InitRecord{*context_out, c.init_tid};
    }
    log_call("rknn_dup_context from=%llu to=%llu rc=0", static_cast<unsigned long long>(*context_in),
             static_cast<unsigned long long>(*context_out));
    return kSucc;
  }
  log_call("rknn_dup_context rc=-4");
  return kErrMallocFail;
}

__attribute__((visibility("default"))) int rknn_query(Context context, QueryCmd cmd, void* info,
                                                      std::uint32_t size) {
  std::lock_guard<std::mutex> lock(g_mutex);
  FakeContext* c = lookup(context);
  int rc = kSucc;
  if (c == nullptr) {
    rc = kErrCtxInvalid;
  } else if (cmd == kQuerySdkVersion && size == sizeof(SdkVersion)) {
    auto* v = static_cast<SdkVersion*>(info);
    std::memset(v, 0, sizeof(*v));
    std::snprintf(v->api_version, sizeof(v->api_version), "%s", api_version());
    std::snprintf(v->drv_version, sizeof(v->drv_version), "%s", g_driver[0] ? g_driver : "0.9.8");
  } else if (cmd == kQueryInOutNum && size == sizeof(InputOutputNum)) {
    auto* io = static_cast<InputOutputNum*>(info);
    io->n_input = 1 + static_cast<std::uint32_t>(c->n_extra);
    io->n_output = static_cast<std::uint32_t>(c->n_out);
  } else if ((cmd == kQueryInputAttr || cmd == kQueryNativeInputAttr) && size == sizeof(TensorAttr)) {
    auto* a = static_cast<TensorAttr*>(info);
    if (a->index > static_cast<std::uint32_t>(c->n_extra)) {
      rc = kErrParamInvalid;
    } else {
      fill_input_attr(*c, *a, cmd == kQueryNativeInputAttr, a->index);
    }
  } else if ((cmd == kQueryOutputAttr || cmd == kQueryNativeOutputAttr) && size == sizeof(TensorAttr)) {
    auto* a = static_cast<TensorAttr*>(info);
    if (a->index >= static_cast<std::uint32_t>(c->n_out)) {
      rc = kErrParamInvalid;
    } else {
      fill_output_attr(*c, a->index, *a, cmd == kQueryNativeOutputAttr);
    }
  } else if (cmd == kQueryPerfRun && size == sizeof(PerfRun)) {
    static_cast<PerfRun*>(info)->run_duration = 777;
  } else {
    rc = kErrParamInvalid;  // unknown command or a struct size this runtime does not use
  }
  log_call("rknn_query cmd=%d size=%u rc=%d", static_cast<int>(cmd), size, rc);
  return rc;
}

__attribute__((visibility("default"))) int rknn_set_core_mask(Context context, CoreMask core_mask) {
  std::lock_guard<std::mutex> lock(g_mutex);
  FakeContext* c = lookup(context);
  int rc = c == nullptr ? kErrCtxInvalid : kSucc;
  if (c != nullptr && core_mask != kCoreAuto && core_mask != kCore0 && core_mask != kCore1 && core_mask != kCore2 &&
      core_mask != kCore01 && core_mask != kCore012 && core_mask != kCoreAll) {
    rc = kErrParamInvalid;
  }
  const unsigned cores_mask = (1u << g_npu_cores) - 1u;
  if (c != nullptr && rc == kSucc &&
      (g_npu_cores == 1 || (core_mask != kCoreAuto && core_mask != kCoreAll &&
                            (static_cast<unsigned>(core_mask) & ~cores_mask) != 0))) {
    rc = kErrParamInvalid;
  }
  if (rc == kSucc) c->core_mask = core_mask;
  log_call("rknn_set_core_mask mask=%d rc=%d", static_cast<int>(core_mask), rc);
  return rc;
}

__attribute__((visibility("default"))) TensorMem* rknn_create_mem_from_fd(Context ctx, std::int32_t fd,
                                                                         void* virt_addr, std::uint32_t size,
                                                                         std::int32_t offset) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (lookup(ctx) == nullptr || fd < 0) {
    log_call("rknn_create_mem_from_fd fd=%d rc=null", fd);
    return nullptr;
  }
  // Map the fd ourselves, as the device would address it: proves the fd (not just virt_addr) holds the data.
  const std::size_t len = static_cast<std::size_t>(offset) + size;
  void* map = ::mmap(nullptr, len, PROT_READ, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) {
    log_call("rknn_create_mem_from_fd fd=%d mmap failed", fd);
    return nullptr;
  }
  auto* m = static_cast<FakeMem*>(std::calloc(1, sizeof(FakeMem)));
  m->pub.virt_addr = virt_addr;
  m->pub.fd = fd;
  m->pub.offset = offset;
  m->pub.size = size;
  m->pub.flags = kMemFlagFromFd;
  m->pub.priv_data = m;
  m->fd_map = map;
  m->fd_map_len = len;
  m->ctx = ctx;
  ++g_live_mems;
  log_call("rknn_create_mem_from_fd fd=%d size=%u offset=%d virt=%s", fd, size, offset, virt_addr ? "yes" : "null");
  ++g_counters.create_mem_from_fd;
  ++lookup(ctx)->input_fd_binds;
  if (fd < kMaxTrackedFd) ++g_counters.binds_per_fd[fd];
  return &m->pub;
}

__attribute__((visibility("default"))) TensorMem* rknn_create_mem(Context ctx, std::uint32_t size) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (lookup(ctx) == nullptr) return nullptr;
  log_call("rknn_create_mem size=%u", size);
  ++g_counters.create_mem;
  return new_mem(ctx, size);
}

#if !defined(FAKE_RKNN_OLD_SPELLING)
__attribute__((visibility("default"))) TensorMem* rknn_create_mem2(Context ctx, std::uint64_t size,
                                                                  std::uint64_t /*flags*/) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (lookup(ctx) == nullptr) return nullptr;
  log_call("rknn_create_mem2 size=%llu", static_cast<unsigned long long>(size));
  ++g_counters.create_mem;
  return new_mem(ctx, static_cast<std::uint32_t>(size));
}

__attribute__((visibility("default"))) int rknn_destroy_mem(Context ctx, TensorMem* mem) {
  return destroy_mem_impl("rknn_destroy_mem", ctx, mem);
}

__attribute__((visibility("default"))) int rknn_mem_sync(Context context, TensorMem* mem, MemSyncMode mode) {
  std::lock_guard<std::mutex> lock(g_mutex);
  const int rc = (lookup(context) == nullptr || mem == nullptr) ? kErrParamInvalid : kSucc;
  log_call("rknn_mem_sync mode=%d fd=%d rc=%d", static_cast<int>(mode), mem ? mem->fd : -1, rc);
  return rc;
}
#else
__attribute__((visibility("default"))) int rknn_destory_mem(Context ctx, TensorMem* mem) {
  return destroy_mem_impl("rknn_destory_mem", ctx, mem);
}
#endif

__attribute__((visibility("default"))) int rknn_set_io_mem(Context ctx, TensorMem* mem, TensorAttr* attr) {
  std::lock_guard<std::mutex> lock(g_mutex);
  FakeContext* c = lookup(ctx);
  int rc = kSucc;
  if (c == nullptr || mem == nullptr || attr == nullptr) {
    rc = kErrParamInvalid;
  } else if (std::strncmp(attr->name, "in", 2) == 0) {
    // The input: uint8 NHWC (fused normalisation) or float32 are accepted in this stand-in.
    if (attr->type != kTensorUint8 && attr->type != kTensorFloat32 && attr->type != kTensorInt8) rc = kErrParamInvalid;
    if (mem->size < attr->size_with_stride) rc = kErrParamInvalid;
    const int k = std::atoi(attr->name + 2);
    if (k < 0 || k > c->n_extra) rc = kErrParamInvalid;
    if (rc == kSucc && k == 0) c->in_mem = static_cast<FakeMem*>(mem->priv_data);
    if (rc == kSucc && k > 0) c->extra_mem[k - 1] = static_cast<FakeMem*>(mem->priv_data);
  } else if (std::strncmp(attr->name, "out", 3) == 0 && attr->index < static_cast<std::uint32_t>(c->n_out)) {
    if (mem->size < attr->size) rc = kErrParamInvalid;
    if (rc == kSucc) {
      c->out_mem[attr->index] = static_cast<FakeMem*>(mem->priv_data);
      c->out_native[attr->index] = attr->fmt == kFormatNc1hwc2;
    }
  } else {
    rc = kErrParamInvalid;
  }
  log_call("rknn_set_io_mem name=%s fd=%d rc=%d", attr ? attr->name : "?", mem ? mem->fd : -1, rc);
  ++g_counters.set_io_mem;
  if (attr != nullptr && std::strncmp(attr->name, "in", 2) == 0) ++g_counters.set_io_mem_input;
  return rc;
}

__attribute__((visibility("default"))) int rknn_run(Context context, RunExtend* extend) {
  std::unique_lock<std::mutex> lock(g_mutex);
  FakeContext* c = lookup(context);
  if (const char* env = std::getenv("FAKE_RKNN_FAIL_RUN"); env != nullptr && g_fail_runs == 0 && *env != '\0') {
    g_fail_runs = std::atol(env);
  }
  if (c == nullptr || c->in_mem == nullptr) {
    log_call("rknn_run rc=-7");
    return c == nullptr ? kErrCtxInvalid : kErrInputInvalid;
  }
  for (int k = 0; k < c->n_extra; ++k) {
    if (c->extra_mem[k] == nullptr) {
      log_call("rknn_run rc=-8 input %d not set", k + 1);
      return kErrInputInvalid;
    }
  }
  // FAKE_RKNN_FAIL_RUN_AT=N: the process's N-th rknn_run fails (a command-line run's frame, after warm-up).
  static long run_calls = 0;
  ++run_calls;
  if (const char* at = std::getenv("FAKE_RKNN_FAIL_RUN_AT"); at != nullptr && std::atol(at) == run_calls) {
    log_call("rknn_run rc=-1 (FAKE_RKNN_FAIL_RUN_AT)");
    return kErrFail;
  }
  if (g_fail_runs > 0) {
    --g_fail_runs;
    log_call("rknn_run rc=-1");
    return kErrFail;
  }
  // airockchip/rknn-toolkit2#577: on librknnrt 2.3.2 (and 2.4.2a15) rknn_run fails on a context made with
  // RKNN_FLAG_FENCE_OUT_OUTSIDE.
  static constexpr int kFenceOutBroken[3] = {2, 3, 2};
  if ((c->init_flag & flag::kFenceOutOutside) != 0 &&
      !version_below(api_version(), kFenceOutBroken)) {
    log_call("rknn_run rc=-1 RKNN_FLAG_FENCE_OUT_OUTSIDE context on %s", api_version());
    return kErrFail;
  }
  // Non-blocking: "timeout_runs" then applies to the run (it finishes with -2), not to this call.
  if (extend != nullptr && extend->non_block != 0) return submit_nonblocking(context, *c, *extend);
  if (g_timeout_runs > 0) {
    --g_timeout_runs;
    const int ms = extend != nullptr && extend->timeout_ms > 0 && extend->timeout_ms < 20 ? extend->timeout_ms : 20;
    lock.unlock();
    ::usleep(static_cast<useconds_t>(ms) * 1000);
    lock.lock();
    log_call("rknn_run timeout_ms=%d rc=-2", extend ? extend->timeout_ms : 0);
    return kErrTimeout;
  }
  const unsigned long long checksum = input_checksum(*c, c->in_mem);
  ++g_counters.run;
  ++c->runs;
  int record = -1;
  if (g_counters.run_records < kMaxRunRecords) {
    record = g_counters.run_records++;
    g_counters.runs[record] = RunRecord{c->in_mem->pub.fd, checksum, context, current_tid(), -1};
  }
  write_outputs(*c, c->in_mem, c->extra_mem[0]);
  if (extend != nullptr) extend->frame_id = 1;
  log_call("rknn_run timeout_ms=%d rc=0", extend ? extend->timeout_ms : 0);
  long latency_us = c->run_latency_us >= 0 ? c->run_latency_us : g_run_latency_us;
  if (g_run_jitter_us > 0) latency_us += static_cast<long>(next_jitter() % static_cast<unsigned long long>(g_run_jitter_us + 1));
  if (latency_us > 0) {
    const int core = occupy_core(lock, c->core_mask, latency_us);
    if (record >= 0) g_counters.runs[record].core = core;
  }
  return kSucc;
}

__attribute__((visibility("default"))) int rknn_wait(Context context, RunExtend* extend) {
  std::unique_lock<std::mutex> lock(g_mutex);
  FakeContext* c = lookup(context);
  ++g_counters.waits;
  if (c == nullptr) {
    log_call("rknn_wait rc=-7");
    record_wait(context, 0, kErrCtxInvalid);
    return kErrCtxInvalid;
  }
  if (extend == nullptr || extend->fence_fd < 0 || (c->init_flag & flag::kFenceOutOutside) == 0) {
    // rknn_wait waits on the fence fd it is given (extend->fence_fd); what airockchip/rknn-toolkit2#577
    // logs for librknnrt 2.3.2 without one: "fence fd = -1 is invalid", and -1 at once. Without
    // RKNN_FLAG_FENCE_OUT_OUTSIDE there is no fence to give. The run itself still finishes (and retires).
    ++g_counters.wait_invalid_fence;
    log_call("rknn_wait rc=-1 fence fd = %d is invalid", extend != nullptr ? extend->fence_fd : -1);
    record_wait(context, 0, kErrFail);
    return kErrFail;
  }
  if (c->in_flight_count == 0) {
    log_call("rknn_wait rc=-1 no run in flight");
    record_wait(context, 0, kErrFail);
    return kErrFail;
  }
  if (extend->fence_fd != in_flight_at(*c, 0).caller_fence) {
    // Runs retire oldest first: a fence of a later run (or any other fd) does not name the run waited for.
    ++g_counters.wait_invalid_fence;
    log_call("rknn_wait rc=-1 fence fd = %d is not the oldest run's (%d)", extend->fence_fd,
             in_flight_at(*c, 0).caller_fence);
    record_wait(context, 0, kErrFail);
    return kErrFail;
  }
  const int timeout_ms = extend != nullptr && extend->timeout_ms > 0 ? extend->timeout_ms : 0;
  const unsigned long long frame = in_flight_at(*c, 0).frame_id;
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms > 0 ? timeout_ms : kWaitCapMs);
  // The oldest run of this context (the context may be destroyed meanwhile: looked up again each time).
  auto oldest_done = [&] {
    c = lookup(context);
    return c == nullptr || c->in_flight_count == 0 || in_flight_at(*c, 0).frame_id != frame ||
           in_flight_at(*c, 0).state == InFlightRun::done;
  };
  const bool blocked = !oldest_done();
  if (!g_async_cv.wait_until(lock, until, oldest_done)) {
    ++g_counters.wait_timeouts;
    log_call("rknn_wait frame=%llu timeout_ms=%d rc=-2", frame, timeout_ms);
    record_wait(context, frame, kErrTimeout, true);
    return kErrTimeout;
  }
  if (c == nullptr || c->in_flight_count == 0 || in_flight_at(*c, 0).frame_id != frame) {
    log_call("rknn_wait frame=%llu rc=-7 context destroyed", frame);
    record_wait(context, frame, kErrCtxInvalid, blocked);
    return kErrCtxInvalid;
  }
  const int rc = in_flight_at(*c, 0).status;
  retire_head(*c);
  if (extend != nullptr) extend->frame_id = frame;
  log_call("rknn_wait frame=%llu rc=%d", frame, rc);
  record_wait(context, frame, rc, blocked);
  return rc;
}

__attribute__((visibility("default"))) int fake_rknn_log_count() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_log_count;
}

__attribute__((visibility("default"))) const char* fake_rknn_log_entry(int i) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return i >= 0 && i < g_log_count ? g_log[i] : nullptr;
}

__attribute__((visibility("default"))) void fake_rknn_log_reset() {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_log_count = 0;
}

__attribute__((visibility("default"))) int fake_rknn_set(const char* key, long value) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (std::strcmp(key, "fail_runs") == 0) {
    g_fail_runs = value;
  } else if (std::strcmp(key, "timeout_runs") == 0) {
    g_timeout_runs = value;
  } else if (std::strcmp(key, "fail_init") == 0) {
    g_fail_init = value;
  } else if (std::strcmp(key, "fail_waits") == 0) {
    g_fail_waits = value;
  } else if (std::strcmp(key, "hang_runs") == 0) {
    g_hang_runs = value;
  } else if (std::strcmp(key, "init_error") == 0) {
    g_init_error = value;
  } else if (std::strcmp(key, "run_latency_us") == 0 && value >= 0) {
    g_run_latency_us = value;
  } else if (std::strcmp(key, "run_jitter_us") == 0 && value >= 0) {
    g_run_jitter_us = value;
  } else if (std::strcmp(key, "npu_cores") == 0 && value >= 1 && value <= 3) {
    g_npu_cores = value;
  } else if (std::strcmp(key, "run_jitter_seed") == 0) {
    g_jitter_state = static_cast<unsigned long long>(value) * 0x9e3779b97f4a7c15ull + 1;
  } else {
    return -1;
  }
  return 0;
}

__attribute__((visibility("default"))) void fake_rknn_set_driver_version(const char* version) {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::snprintf(g_driver, sizeof(g_driver), "%s", version ? version : "");
}

__attribute__((visibility("default"))) void fake_rknn_set_api_version(const char* version) {
  std::lock_guard<std::mutex> lock(g_mutex);
  std::snprintf(g_version, sizeof(g_version), "%s", version ? version : "");
}

__attribute__((visibility("default"))) int fake_rknn_live_mems() { return g_live_mems.load(); }

__attribute__((visibility("default"))) long fake_rknn_counter(const char* name) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (std::strcmp(name, "create_mem_from_fd") == 0) return g_counters.create_mem_from_fd;
  if (std::strcmp(name, "create_mem") == 0) return g_counters.create_mem;
  if (std::strcmp(name, "destroy_mem") == 0) return g_counters.destroy_mem;
  if (std::strcmp(name, "set_io_mem") == 0) return g_counters.set_io_mem;
  if (std::strcmp(name, "set_io_mem_input") == 0) return g_counters.set_io_mem_input;
  if (std::strcmp(name, "run") == 0) return g_counters.run;
  if (std::strcmp(name, "max_concurrent_runs") == 0) return g_counters.max_concurrent_runs;
  if (std::strcmp(name, "nonblock_runs") == 0) return g_counters.nonblock_runs;
  if (std::strcmp(name, "fences") == 0) return g_counters.fences;
  if (std::strcmp(name, "fences_signalled") == 0) return g_counters.fences_signalled;
  if (std::strcmp(name, "waits") == 0) return g_counters.waits;
  if (std::strcmp(name, "wait_timeouts") == 0) return g_counters.wait_timeouts;
  if (std::strcmp(name, "wait_invalid_fence") == 0) return g_counters.wait_invalid_fence;
  if (std::strcmp(name, "runs_dropped") == 0) return g_counters.runs_dropped;
  if (std::strcmp(name, "max_in_flight") == 0) return g_counters.max_in_flight;
  if (std::strcmp(name, "in_flight") == 0) return g_in_flight;
  if (std::strcmp(name, "weight_loads") == 0) return g_counters.weight_loads;
  if (std::strcmp(name, "dups") == 0) return g_counters.dups;
  if (std::strcmp(name, "weight_bytes_live") == 0) return static_cast<long>(g_weight_bytes_live);
  return -1;
}

__attribute__((visibility("default"))) int fake_rknn_fd_binds(int fd) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return fd >= 0 && fd < kMaxTrackedFd ? g_counters.binds_per_fd[fd] : -1;
}

__attribute__((visibility("default"))) int fake_rknn_run_records() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_counters.run_records;
}

__attribute__((visibility("default"))) int fake_rknn_run_record(int i, int* fd, unsigned long long* checksum) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (i < 0 || i >= g_counters.run_records) return -1;
  if (fd != nullptr) *fd = g_counters.runs[i].fd;
  if (checksum != nullptr) *checksum = g_counters.runs[i].checksum;
  return 0;
}

__attribute__((visibility("default"))) void fake_rknn_counters_reset() {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_counters.create_mem_from_fd = g_counters.create_mem = g_counters.destroy_mem = 0;
  g_counters.set_io_mem = g_counters.set_io_mem_input = g_counters.run = 0;
  std::memset(g_counters.binds_per_fd, 0, sizeof(g_counters.binds_per_fd));
  g_counters.run_records = 0;
  g_counters.init_records = 0;
  g_counters.max_concurrent_runs = 0;
  g_counters.nonblock_runs = g_counters.fences = g_counters.fences_signalled = 0;
  g_counters.waits = g_counters.wait_timeouts = g_counters.wait_invalid_fence = 0;
  g_counters.runs_dropped = 0;
  g_counters.max_in_flight = g_in_flight;
  g_counters.wait_records = 0;
}

__attribute__((visibility("default"))) int fake_rknn_set_context(unsigned long long ctx, const char* key, long value) {
  std::lock_guard<std::mutex> lock(g_mutex);
  FakeContext* c = lookup(static_cast<Context>(ctx));
  if (c == nullptr || key == nullptr) return -1;
  if (std::strcmp(key, "run_latency_us") == 0) {
    c->run_latency_us = value < 0 ? -1 : value;
    return 0;
  }
  return -1;
}

__attribute__((visibility("default"))) long fake_rknn_context_value(unsigned long long ctx, const char* key) {
  std::lock_guard<std::mutex> lock(g_mutex);
  const FakeContext* c = lookup(static_cast<Context>(ctx));
  if (c == nullptr || key == nullptr) return -1;
  if (std::strcmp(key, "core_mask") == 0) return c->core_mask;
  if (std::strcmp(key, "init_tid") == 0) return c->init_tid;
  if (std::strcmp(key, "runs") == 0) return c->runs;
  if (std::strcmp(key, "input_fd_binds") == 0) return c->input_fd_binds;
  if (std::strcmp(key, "run_latency_us") == 0) return c->run_latency_us;
  if (std::strcmp(key, "init_flag") == 0) return static_cast<long>(c->init_flag);
  if (std::strcmp(key, "in_flight") == 0) return c->in_flight_count;
  return -1;
}

__attribute__((visibility("default"))) int fake_rknn_init_records() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_counters.init_records;
}

__attribute__((visibility("default"))) int fake_rknn_init_record(int i, unsigned long long* ctx, long* tid) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (i < 0 || i >= g_counters.init_records) return -1;
  if (ctx != nullptr) *ctx = g_counters.inits[i].ctx;
  if (tid != nullptr) *tid = g_counters.inits[i].tid;
  return 0;
}

__attribute__((visibility("default"))) int fake_rknn_run_record_ex(int i, unsigned long long* ctx, long* tid,
                                                                   int* core) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (i < 0 || i >= g_counters.run_records) return -1;
  if (ctx != nullptr) *ctx = g_counters.runs[i].ctx;
  if (tid != nullptr) *tid = g_counters.runs[i].tid;
  if (core != nullptr) *core = g_counters.runs[i].core;
  return 0;
}

__attribute__((visibility("default"))) int fake_rknn_run_record_async(int i, int* non_block, unsigned long long* frame_id,
                                                                      long long* done_us, int* status) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (i < 0 || i >= g_counters.run_records) return -1;
  const RunRecord& r = g_counters.runs[i];
  if (non_block != nullptr) *non_block = r.non_block;
  if (frame_id != nullptr) *frame_id = r.frame_id;
  if (done_us != nullptr) *done_us = r.done_us;
  if (status != nullptr) *status = r.status;
  return 0;
}

__attribute__((visibility("default"))) int fake_rknn_wait_records() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_counters.wait_records;
}

__attribute__((visibility("default"))) int fake_rknn_wait_record(int i, unsigned long long* ctx,
                                                                 unsigned long long* frame_id, int* rc, long* tid,
                                                                 long long* return_us, int* blocked) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (i < 0 || i >= g_counters.wait_records) return -1;
  const WaitRecord& w = g_counters.waits_rec[i];
  if (ctx != nullptr) *ctx = w.ctx;
  if (frame_id != nullptr) *frame_id = w.frame_id;
  if (rc != nullptr) *rc = w.rc;
  if (tid != nullptr) *tid = w.tid;
  if (return_us != nullptr) *return_us = w.return_us;
  if (blocked != nullptr) *blocked = w.blocked;
  return 0;
}

__attribute__((visibility("default"))) long long fake_rknn_now_us() { return steady_us(); }

__attribute__((visibility("default"))) int fake_rknn_live_contexts() {
  std::lock_guard<std::mutex> lock(g_mutex);
  int n = 0;
  for (const auto& c : g_ctx) n += c.used ? 1 : 0;
  return n;
}

}  // extern "C"
