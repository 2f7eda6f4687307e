#pragma once
// Control and inspection functions exported by the test stand-in for librknnrt (libfake_rknnrt.so).
// Tests dlopen the same path the runtime binding opens, so both see one instance.
//
// Fake model file format (text, any extension; tests name it *.rknn):
//   fake-rknn
//   input N H W C          (NHWC image input, uint8 in the zero-copy binding)
//   wstride S              (optional: native input row stride in pixels, S >= W)
//   output d0 d1 d2 d3     (4-D: logical NCHW int8, native NC1HWC2 with C2 = 8)
//   output d0 d1 d2        (other ranks: same layout natively)
// Semantics: logical output i, flat NCHW element k = int8(input_byte[k % input_bytes] + 1 + i);
// every output is affine int8 with scale 0.5 and zero point -3. rknn_query(PERF_RUN) reports 777 us.

#include <cstddef>

extern "C" {
/// Number of calls logged since the last reset (one entry per API call, e.g. "rknn_run rc=0").
int fake_rknn_log_count();
/// Entry @p i of the log (valid until the next reset), or null.
const char* fake_rknn_log_entry(int i);
/// Clears the log.
void fake_rknn_log_reset();
/// Switches: "fail_runs" (next N rknn_run return -1), "timeout_runs" (next N return -2 after sleeping
/// min(timeout_ms, 20) ms), "fail_init" (next rknn_init fails with -6). Returns 0, or -1 for an unknown key.
int fake_rknn_set(const char* key, long value);
/// Overrides the API version reported by RKNN_QUERY_SDK_VERSION (null restores the default).
void fake_rknn_set_api_version(const char* version);
/// Memories created and not yet destroyed, over all contexts.
int fake_rknn_live_mems();
/// Contexts initialised and not yet destroyed.
int fake_rknn_live_contexts();
/// Calls since the last fake_rknn_counters_reset(): "create_mem_from_fd", "create_mem" (with create_mem2),
/// "destroy_mem", "set_io_mem", "set_io_mem_input" (input bindings only), "run" (successful runs); -1 for
/// an unknown name.
long fake_rknn_counter(const char* name);
/// rknn_create_mem_from_fd calls with fd @p fd since the last counters reset (-1 for fd outside 0..4095).
int fake_rknn_fd_binds(int fd);
/// Successful rknn_run calls recorded since the last counters reset (up to 16384).
int fake_rknn_run_records();
/// Run @p i: the fd of the input memory it read (-1 for runtime-allocated memory) and the FNV-1a 64
/// checksum of the dense input bytes it read (through its own mapping of an imported fd). 0, or -1.
int fake_rknn_run_record(int i, int* fd, unsigned long long* checksum);
/// Zeroes the counters and the run records (the call log has its own reset).
void fake_rknn_counters_reset();
}
