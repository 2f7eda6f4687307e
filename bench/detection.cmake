# Detection postprocess benchmark (included by bench/CMakeLists.txt).
# Run: build/bench/bench_detection --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
if(TARGET vg_detection_algo)
  add_executable(bench_detection ${CMAKE_CURRENT_LIST_DIR}/bench_detection.cpp)
  # synthetic_outputs.hpp is shared with the zero-allocation test so both measure the same data.
  target_include_directories(bench_detection PRIVATE ${CMAKE_CURRENT_LIST_DIR}/../tests/detection)
  target_link_libraries(bench_detection PRIVATE vg_detection_algo opencv_dnn benchmark::benchmark vg_warnings)
endif()
