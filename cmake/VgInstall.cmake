# find_package(visiongraph) support for the core library.
include(CMakePackageConfigHelpers)
install(TARGETS vg_framework EXPORT visiongraphTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/framework/include/visiongraph DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT visiongraphTargets NAMESPACE visiongraph:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/visiongraph)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/visiongraphConfig.cmake.in
  ${PROJECT_BINARY_DIR}/visiongraphConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/visiongraph)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/visiongraphConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/visiongraphConfig.cmake ${PROJECT_BINARY_DIR}/visiongraphConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/visiongraph)
