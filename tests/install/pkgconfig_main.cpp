// Built by check_install.sh with nothing but `pkg-config --cflags --libs visiongraph-detection`.
#include <cstdio>

#include "visiongraph/kernels/detection/module.hpp"
#include "visiongraph/visiongraph.hpp"

int main() {
  vg::Context ctx;
  ctx.load_module(vg::detection::make_detection_module());
  const bool loaded = ctx.has_module("vg.detection");
  std::printf("pkg-config program: vg.detection %s\n", loaded ? "loaded" : "missing");
  return loaded ? 0 : 1;
}
