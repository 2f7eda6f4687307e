#pragma once
// Control and inspection functions exported by the test stand-in for librknnrt (libfake_rknnrt.so).
// Tests dlopen the same path the runtime binding opens, so both see one instance.
//
// Fake model file format (text, any extension; tests name it *.rknn):
//   fake-rknn
//   input N H W C          (NHWC image input, uint8 in the zero-copy binding)
//   wstride S              (optional: native input row stride in pixels, S >= W)
//   input N H W C          (again, up to 3 times: inputs 1..3, named in1..in3; dense)
//   input_pad B            (optional: input 0's native size_with_stride is B bytes larger)
//   min_runtime X.Y.Z      (optional: rknn_init fails with -6 when the reported API version is older)
//   weights B              (optional: rknn_init loads B bytes of weight memory, touched so that it is
//                           resident; rknn_dup_context shares it; counters "weight_loads", "dups",
//                           "weight_bytes_live")
//   output d0 d1 d2 d3     (4-D: logical NCHW int8, native NC1HWC2 with C2 = 8)
//   output d0 d1 d2        (other ranks: same layout natively)
// Semantics: logical output i, flat NCHW element k = int8(input_byte[k % input_bytes] + 1 + i
// (+ input1_byte[k % input1_bytes] with a second input)); rknn_run fails with -8 while an input is unbound;
// every output is affine int8 with scale 0.5 and zero point -3. rknn_query(PERF_RUN) reports 777 us.
//
// Non-blocking runs (rknn_run with extend->non_block = 1) return at once; a device thread, started at the
// first one, carries them out in submission order, one at a time per context, each on a free core its
// context's core mask allows for the run latency (the same three-core model as blocking runs, sharing
// the cores). A non-blocking run reads its inputs and writes its outputs when it finishes (as a device
// would), so outputs read before rknn_wait are stale. Up to 8 per context may be in flight.
// - rknn_init with RKNN_FLAG_FENCE_OUT_OUTSIDE (0x80): each non-blocking run returns extend->fence_fd, an
//   eventfd (a dup: the caller owns and closes it) that becomes readable when the run has finished and its
//   outputs are written. rknn_wait(ctx, extend) takes that fence in extend->fence_fd, blocks until the
//   context's oldest run not yet waited for finishes and returns its status (extend->frame_id = its frame
//   id); extend->timeout_ms > 0 bounds the wait (RKNN_ERR_TIMEOUT, the run stays in flight), <= 0 waits
//   up to 10 s. No run in flight: -1. Another run's fence: -1.
// - Without that flag, or given fence_fd -1 (after airockchip/rknn-toolkit2#577 on librknnrt 2.3.2): the
//   non-blocking run proceeds and extend->fence_fd is -1, but rknn_wait fails at once with -1, logging
//   "fence fd = -1 is invalid"; the run finishes unobserved and retires itself.
// - From API version 2.3.2 on (fake_rknn_set_api_version), rknn_run fails with -1 on a context made with
//   RKNN_FLAG_FENCE_OUT_OUTSIDE (#577: "then rknn_run itself fails").
// - rknn_destroy drops the context's runs in flight (counter "runs_dropped"); their fences are closed
//   without being signalled. RKNN_FLAG_FENCE_IN_OUTSIDE is accepted and ignored. Mixing blocking and
//   non-blocking runs on one context is not modelled (they do not wait for each other).

#include <cstddef>

extern "C" {
/// Number of calls logged since the last reset (one entry per API call, e.g. "rknn_run rc=0").
int fake_rknn_log_count();
/// Entry @p i of the log (valid until the next reset), or null.
const char* fake_rknn_log_entry(int i);
/// Clears the log.
void fake_rknn_log_reset();
/// Switches: "init_error" (the code "fail_init" returns; default -6), "fail_runs" (next N rknn_run return -1), "timeout_runs" (next N return -2 after sleeping
/// min(timeout_ms, 20) ms; a non-blocking one is accepted and finishes with -2 after that long, its fence
/// signalled), "fail_waits" (next N non-blocking runs finish with -1: rknn_wait returns it, no outputs),
/// "hang_runs" (next N non-blocking runs never finish: their fence never signals, rknn_wait times out,
/// later runs of that context queue behind them until rknn_destroy), "fail_init" (next rknn_init fails with -6), "run_latency_us" (every successful
/// rknn_run of a context without its own latency takes this long; default 0), "run_jitter_us" (adds a
/// pseudo-random 0..N us per run), "run_jitter_seed". Returns 0, or -1 for an unknown key or bad value.
/// Environment (for a process the test only starts): FAKE_RKNN_FAIL_INIT=1 fails the next rknn_init,
/// FAKE_RKNN_FAIL_RUN=N fails runs N at a time, FAKE_RKNN_FAIL_RUN_AT=N fails the process's N-th rknn_run.
///
/// Run latency models an accelerator with three cores (RK3588): a run occupies one free core its
/// context's core mask allows (auto and 7: any) for the latency, and waits on a condition variable while
/// every allowed core is busy. The calling thread sleeps (it does not spin) and no lock is held meanwhile,
/// so contexts on different threads and cores overlap. Outputs are written before the wait. With no
/// latency (the default) runs return at once and no core is modelled.
int fake_rknn_set(const char* key, long value);
/// Per-context switch (@p ctx as returned by rknn_init): "run_latency_us" (-1 = the global latency).
/// Returns 0, or -1 for an unknown context or key. rknn_init starts every context at -1.
int fake_rknn_set_context(unsigned long long ctx, const char* key, long value);
/// Per-context state of a live context: "core_mask" (last rknn_set_core_mask, 0 = auto), "init_tid"
/// (Linux thread id that ran rknn_init), "runs" (successful runs), "input_fd_binds"
/// (rknn_create_mem_from_fd calls), "run_latency_us", "init_flag" (rknn_init's flag), "in_flight"
/// (non-blocking runs not yet retired). -1 for an unknown context or key.
long fake_rknn_context_value(unsigned long long ctx, const char* key);
/// Successful rknn_init calls since the last counters reset (up to 256), and record @p i of them: the
/// context and the Linux thread id of the caller. 0, or -1.
int fake_rknn_init_records();
int fake_rknn_init_record(int i, unsigned long long* ctx, long* tid);
/// More of run record @p i: the context, the caller's thread id and the core it occupied (-1 when it
/// had no latency). 0, or -1.
int fake_rknn_run_record_ex(int i, unsigned long long* ctx, long* tid, int* core);
/// Overrides the driver version reported by RKNN_QUERY_SDK_VERSION (null restores "0.9.8").
void fake_rknn_set_driver_version(const char* version);
/// Overrides the API version reported by RKNN_QUERY_SDK_VERSION (null restores the default).
void fake_rknn_set_api_version(const char* version);
/// Memories created and not yet destroyed, over all contexts.
int fake_rknn_live_mems();
/// Contexts initialised and not yet destroyed.
int fake_rknn_live_contexts();
/// Calls since the last fake_rknn_counters_reset(): "create_mem_from_fd", "create_mem" (with create_mem2),
/// "destroy_mem", "set_io_mem", "set_io_mem_input" (input bindings only), "run" (successful runs),
/// "max_concurrent_runs" (most runs inside their latency at once), "nonblock_runs" (non-blocking runs
/// accepted), "fences" (fence fds handed out), "fences_signalled", "waits" (rknn_wait calls),
/// "wait_timeouts", "wait_invalid_fence" (waits refused without FENCE_OUT_OUTSIDE), "runs_dropped"
/// (in flight at rknn_destroy), "max_in_flight" (most non-blocking runs submitted and not retired at once),
/// "in_flight" (now; not reset); -1 for an unknown name. Successful non-blocking runs count in "run" when
/// they finish.
long fake_rknn_counter(const char* name);
/// rknn_create_mem_from_fd calls with fd @p fd since the last counters reset (-1 for fd outside 0..4095).
int fake_rknn_fd_binds(int fd);
/// Successful rknn_run calls recorded since the last counters reset (up to 16384).
int fake_rknn_run_records();
/// Run @p i: the fd of the input memory it read (-1 for runtime-allocated memory) and the FNV-1a 64
/// checksum of the dense input bytes it read (through its own mapping of an imported fd). 0, or -1.
int fake_rknn_run_record(int i, int* fd, unsigned long long* checksum);
/// Zeroes the counters, the run and init records (the call log has its own reset).
void fake_rknn_counters_reset();
/// More of run record @p i for non-blocking runs: 1 if it was one, its frame id, the steady clock (us,
/// fake_rknn_now_us) when it finished (-1 while in flight) and its status. 0, or -1.
int fake_rknn_run_record_async(int i, int* non_block, unsigned long long* frame_id, long long* done_us, int* status);
/// rknn_wait calls since the last counters reset (up to 16384), and record @p i: context, the frame id it
/// retired or timed out on (0: none), its return code, the caller's thread id, when it returned, and
/// whether the caller blocked (1: the run had not finished when rknn_wait was called). 0, or -1.
int fake_rknn_wait_records();
int fake_rknn_wait_record(int i, unsigned long long* ctx, unsigned long long* frame_id, int* rc, long* tid,
                          long long* return_us, int* blocked);
/// The stand-in's clock (steady, microseconds) used by the records above.
long long fake_rknn_now_us();
}
