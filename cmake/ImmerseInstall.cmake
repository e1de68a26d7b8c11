# Installs the libraries as a CMake package: find_package(immerse) gives immerse::<family> for each
# solver family built, immerse::cases and immerse::reports (each installed by immerse_add_family into EXPORT immerseTargets).
include(CMakePackageConfigHelpers)

set(IMMERSE_INSTALL_CMAKEDIR lib/cmake/immerse)

install(EXPORT immerseTargets
        NAMESPACE immerse::
        FILE immerseTargets.cmake
        DESTINATION ${IMMERSE_INSTALL_CMAKEDIR})

# Recorded in the config so a consumer's Kokkos is checked against the one the libraries were built with.
set(IMMERSE_KOKKOS_DEVICES "${Kokkos_DEVICES}")
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/immerseConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/immerseConfig.cmake
                              INSTALL_DESTINATION ${IMMERSE_INSTALL_CMAKEDIR})
# 0.x: a minor release may break the interface.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/immerseConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION}
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/immerseConfig.cmake ${PROJECT_BINARY_DIR}/immerseConfigVersion.cmake
        DESTINATION ${IMMERSE_INSTALL_CMAKEDIR})
