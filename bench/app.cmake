# bench_app: end-to-end face-detection app (YAML graph, sequential and pipelined) vs a hand-written loop.
# Included by bench/CMakeLists.txt. Figures and command: docs/bench-app.md.
if(TARGET vg_yaml AND TARGET vg_kernels_detection AND TARGET vg_kernels_inference)
  add_executable(bench_app ${CMAKE_CURRENT_LIST_DIR}/bench_app.cpp)
  target_link_libraries(bench_app PRIVATE vg_yaml vg_framework vg_kernels_detection vg_kernels_inference
                                          opencv_core opencv_dnn opencv_videoio benchmark::benchmark vg_warnings)
  target_compile_definitions(bench_app PRIVATE VG_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
endif()
