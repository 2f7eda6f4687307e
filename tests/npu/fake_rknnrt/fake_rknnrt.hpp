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
}
