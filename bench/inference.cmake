# bench_inference: vg.inference through a graph vs a direct cv::dnn forward loop (BlazeFace).
# Included by bench/CMakeLists.txt. Models: VG_ASSETS_DIR at run time, else <repo>/.cache/assets.
if(TARGET vg_kernels_inference)
  add_executable(bench_inference ${CMAKE_CURRENT_LIST_DIR}/bench_inference.cpp)
  target_link_libraries(bench_inference PRIVATE vg_kernels_inference vg_framework opencv_core opencv_dnn
                        benchmark::benchmark vg_warnings)
  target_compile_definitions(bench_inference PRIVATE
    VG_BENCH_DEFAULT_ASSETS_DIR="${CMAKE_CURRENT_LIST_DIR}/../.cache/assets")
  if(TARGET fake_rknnrt)
    # The test stand-in for librknnrt (tests/npu/fake_rknnrt): measures the graph's own cost around an
    # NPU call that does almost nothing. Without it those benchmarks report that they were skipped.
    target_compile_definitions(bench_inference PRIVATE VG_BENCH_FAKE_RKNNRT="$<TARGET_FILE:fake_rknnrt>")
    add_dependencies(bench_inference fake_rknnrt)
  endif()
endif()
