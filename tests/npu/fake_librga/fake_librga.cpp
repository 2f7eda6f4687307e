// Test-only stand-in for librga, as far as `doctor --board` uses it: im2d's querystring(int), which answers
// RGA_VERSION (1 in IM_INFORMATION) with a version text over several lines, and "unknown" otherwise.
// The RGA letterbox kernel is not built yet, so nothing else of librga is modelled.
extern "C" __attribute__((visibility("default"))) const char* querystring(int name) {
  constexpr int kRgaVersion = 1;
  return name == kRgaVersion ? "RGA_api version       : 1.10.1_[0] (stand-in)\nRGA_driver version    : 1.3.1\n"
                             : "unknown";
}
