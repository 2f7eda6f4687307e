#pragma once
// What the stand-in librga (fake_librga.cpp) counts, read by tests through its fake_rga_stats symbol.
namespace vg::test {

struct FakeRgaStats {
  long imports = 0;         ///< successful importbuffer_* calls
  long failed_imports = 0;  ///< imports refused (buffer smaller than described, bad parameters)
  long releases = 0;        ///< successful releasebuffer_handle calls
  long live = 0;            ///< imported handles not yet released
  long processes = 0;       ///< improcess calls that ran
  long fills = 0;           ///< imfill_t calls that ran
  long checks = 0;          ///< imcheck_t calls
  long refused = 0;         ///< calls refused by a rule (last_error says which)
  long stale_handles = 0;   ///< uses or releases of a handle that is not live
  char last_error[160] = {};
};

using FakeRgaStatsFn = void (*)(FakeRgaStats*);
/// fail_process_at: the N-th improcess from now fails (-1: none); rga3: the RGA3 core's limits.
using FakeRgaResetFn = void (*)(long fail_process_at, int rga3);

}  // namespace vg::test
