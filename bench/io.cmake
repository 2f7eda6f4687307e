# Live input (vg_io): intake cost per frame, and RTSP -> detections latency beside the file path.
if(TARGET vg_io AND TARGET vg_test_gst_support)
  add_executable(bench_io bench_io.cpp)
  target_link_libraries(bench_io PRIVATE vg_io vg_framework vg_test_gst_support benchmark::benchmark vg_warnings)
endif()
# Capture -> detections latency of `visiongraph run` on RTSP (real server on 127.0.0.1) beside the file.
if(TARGET vg_io AND TARGET vg_test_gst_support AND VG_BUILD_APPS)  # the CLI is defined later: use the option
  find_package(nlohmann_json 3 REQUIRED)
  add_executable(bench_io_latency bench_io_latency.cpp)
  target_link_libraries(bench_io_latency PRIVATE vg_test_gst_support nlohmann_json::nlohmann_json benchmark::benchmark
                                                 vg_warnings)
  target_include_directories(bench_io_latency PRIVATE ${PROJECT_SOURCE_DIR}/tests/cli)
  target_compile_definitions(bench_io_latency PRIVATE VG_CLI_PATH="$<TARGET_FILE:visiongraph>"
                                                      VG_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  add_dependencies(bench_io_latency visiongraph)
endif()
