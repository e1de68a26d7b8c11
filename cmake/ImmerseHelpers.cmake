# immerse_add_family(<name> SOURCES ... [DEVICE_SOURCES ...] DEPENDS ...)
# One solver family = one library target immerse_<name>, exported as immerse::<name>, with public
# headers under solvers/<name>/include/immerse/<name>/.
# DEVICE_SOURCES are the files that include Kokkos (kernels, Views, execution spaces). In a CUDA
# build every file goes through nvcc_wrapper, which runs nvcc's front ends and device compiler even
# on plain host code (2-3x g++'s time); SOURCES are handed to the host compiler alone
# (nvcc_wrapper --host-only, an option of their own object library immerse_<name>_host: CMake
# leaves a file with options of its own out of a unity build's batches, the cuda-check preset's,
# and the host files are most of its files). A SOURCES file that includes Kokkos fails there with
# Kokkos' "__CUDACC__" error: move it to DEVICE_SOURCES. The host objects get the family's own
# include directories and definitions too (also those set on immerse_<name> after this call).
# OBJECTS are further object libraries (immerse_add_objects) whose objects the library contains.
function(immerse_add_family name)
  cmake_parse_arguments(F "" "" "SOURCES;DEVICE_SOURCES;DEPENDS;OBJECTS" ${ARGN})
  add_library(immerse_${name} ${F_DEVICE_SOURCES})
  if(F_SOURCES)
    immerse_add_objects(immerse_${name}_host SOURCES ${F_SOURCES} DEPENDS ${F_DEPENDS})
    target_include_directories(immerse_${name}_host PRIVATE $<TARGET_PROPERTY:immerse_${name},INCLUDE_DIRECTORIES>)
    target_compile_definitions(immerse_${name}_host PRIVATE $<TARGET_PROPERTY:immerse_${name},COMPILE_DEFINITIONS>)
    list(PREPEND F_OBJECTS immerse_${name}_host)
  endif()
  foreach(objects IN LISTS F_OBJECTS)
    # Their objects, not a link: an exported library cannot name an object library in its interface.
    target_sources(immerse_${name} PRIVATE $<TARGET_OBJECTS:${objects}>)
  endforeach()
  add_library(immerse::${name} ALIAS immerse_${name})
  set_target_properties(immerse_${name} PROPERTIES EXPORT_NAME ${name} POSITION_INDEPENDENT_CODE ON)
  target_include_directories(immerse_${name} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  target_link_libraries(immerse_${name} PUBLIC ${F_DEPENDS})
  target_compile_options(immerse_${name} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-Wall -Wextra>)
  install(TARGETS immerse_${name} EXPORT immerseTargets
          ARCHIVE DESTINATION lib LIBRARY DESTINATION lib RUNTIME DESTINATION bin)
  install(DIRECTORY include/ DESTINATION include)
endfunction()

# immerse_add_objects(<target> SOURCES ... DEPENDS ...): host files compiled once, for a family's
# library (immerse_add_family's OBJECTS) and for a program that needs them without the rest of the
# family: the fuzz targets link the mesh reader, or the case-file keys, and the core alone. Public
# headers: the current folder's include/.
function(immerse_add_objects target)
  cmake_parse_arguments(O "" "" "SOURCES;DEPENDS" ${ARGN})
  add_library(${target} OBJECT ${O_SOURCES})
  set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  immerse_unity_batches(${target})
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>)
  target_link_libraries(${target} PUBLIC ${O_DEPENDS})
  target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-Wall -Wextra>)
  immerse_host_only(${target})
endfunction()

# immerse_host_only(<target>): in a CUDA build, compile every file of the target (no Kokkos in
# them) with the host compiler alone; elsewhere a no-op. An option of the target, not of its files:
# see immerse_add_family.
function(immerse_host_only target)
  if(Kokkos_ENABLE_CUDA AND CMAKE_CXX_COMPILER MATCHES "nvcc_wrapper")
    target_compile_options(${target} PRIVATE --host-only)
  endif()
endfunction()

# immerse_unity_batches(<target>): with IMMERSE_UNITY (on by default), compile the target's files in
# batches of eight (a unity build). For the host files and the tests: each of their files spends
# most of its compile time on the same headers (nlohmann/json, fmt, GoogleTest, Kokkos), read once
# per batch instead. The kernel files are left one per object: they are few and each takes long
# alone. A file-local name must then be unique within its target (anonymous namespaces share a
# batch). IMMERSE_UNITY=OFF compiles one file per object, for quicker rebuilds of an edited file.
# Not in a CUDA build (its tests have not been batched under nvcc); the cuda-check preset batches
# every target itself.
function(immerse_unity_batches target)
  if(IMMERSE_UNITY AND NOT CMAKE_UNITY_BUILD AND NOT CMAKE_CXX_COMPILER MATCHES "nvcc_wrapper")
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
endfunction()

# immerse_moderate_optimisation([TARGETS ...]): in a Release build, compile the targets (or, without
# TARGETS, every target this folder and those below it define from here on) at -O2 instead of -O3.
# For code whose speed nobody times: the case library's host files, the reports, the program, the
# tests and the fuzz targets. There GCC's -O3 passes cost up to twice the compile time (a test file
# with kernels: 30 s against 17 s) and buy nothing measured. Not -O1, though it takes another quarter
# off: GCC contracts a * b + c into fused multiply-adds from -O2 on, so a kernel template that a test
# instantiates at -O1 rounds differently from the library's copy (LatticeHalo's bitwise block tests
# failed on Serial). The solver families, the scene files that launch kernels and the benchmarks
# keep the build type's flags. Not in a CUDA build, whose nvcc_wrapper takes one optimisation flag
# (the cuda-check preset sets -O0 for the host code).
function(immerse_moderate_optimisation)
  cmake_parse_arguments(M "" "" "TARGETS" ${ARGN})
  if(CMAKE_CXX_COMPILER MATCHES "nvcc_wrapper")
    return()
  endif()
  if(M_TARGETS)
    foreach(target IN LISTS M_TARGETS)
      target_compile_options(${target} PRIVATE $<$<CONFIG:Release>:-O2>)
    endforeach()
  else()
    set_property(DIRECTORY APPEND PROPERTY COMPILE_OPTIONS $<$<CONFIG:Release>:-O2>)
  endif()
endfunction()

# immerse_embed_files(<out.cpp> <symbol> FILES ...): compiles text files into the program as a table
# {relative name, contents}, so `immerse list/run/validate` work from any directory and after install.
function(immerse_embed_files out symbol)
  cmake_parse_arguments(E "" "BASE" "FILES" ${ARGN})
  string(REPLACE ";" "|" files_arg "${E_FILES}")  # a list would split the command line
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DSYMBOL=${symbol} -DBASE=${E_BASE} "-DFILES=${files_arg}"
            -P ${PROJECT_SOURCE_DIR}/cmake/EmbedFiles.cmake
    DEPENDS ${E_FILES} ${PROJECT_SOURCE_DIR}/cmake/EmbedFiles.cmake
    COMMENT "Embedding ${symbol}" VERBATIM)
endfunction()
