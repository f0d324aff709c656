# fuzz.cmake: libFuzzer harnesses (cmake -DIDS_FUZZ=ON, CC=clang).
#
# The library is compiled again here, from the same sources as ids_objects,
# with coverage instrumentation (-fsanitize=fuzzer-no-link) and ASan/UBSan,
# so that libFuzzer sees inside the decoders.  Targets: one per harness
# fuzz/fuzz_*.c, and `fuzzers` to build them all.  fuzz/run.sh runs them.

if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "IDS_FUZZ needs clang (libFuzzer): configure with "
                      "CC=clang, found ${CMAKE_C_COMPILER_ID}")
endif()

set(IDS_FUZZ_SAN address,undefined)
set(IDS_FUZZ_COMMON -fno-sanitize-recover=all -fno-omit-frame-pointer -g)

# Same sources, include paths, definitions and libraries as ids_objects
# (read from it, so that this follows the main build), other flags.
add_library(ids_fuzz_objects OBJECT ${IDS_CORE_SOURCES})
target_compile_options(ids_fuzz_objects PRIVATE
  -fsanitize=fuzzer-no-link,${IDS_FUZZ_SAN} ${IDS_FUZZ_COMMON})
foreach(prop INCLUDE_DIRECTORIES COMPILE_DEFINITIONS)
  get_target_property(val ids_objects ${prop})
  if(val)
    set_property(TARGET ids_fuzz_objects APPEND PROPERTY ${prop} ${val})
  endif()
endforeach()
get_target_property(val ids_objects INTERFACE_INCLUDE_DIRECTORIES)
target_include_directories(ids_fuzz_objects PUBLIC ${val})
get_target_property(val ids_objects LINK_LIBRARIES)
target_link_libraries(ids_fuzz_objects PUBLIC ${val})

file(GLOB IDS_FUZZ_HARNESSES CONFIGURE_DEPENDS
     ${CMAKE_CURRENT_LIST_DIR}/fuzz_*.c)
add_custom_target(fuzzers)
foreach(src ${IDS_FUZZ_HARNESSES})
  get_filename_component(name ${src} NAME_WE)
  add_executable(${name} ${src})
  target_compile_options(${name} PRIVATE
    -fsanitize=fuzzer,${IDS_FUZZ_SAN} ${IDS_FUZZ_COMMON})
  target_link_options(${name} PRIVATE -fsanitize=fuzzer,${IDS_FUZZ_SAN})
  target_link_libraries(${name} PRIVATE ids_fuzz_objects)
  set_target_properties(${name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
  add_dependencies(fuzzers ${name})
  # Regression test: replay the seeds and fuzz/regressions/ (no fuzzing).
  set(dirs ${CMAKE_CURRENT_LIST_DIR}/corpus/${name})
  if(IS_DIRECTORY ${CMAKE_CURRENT_LIST_DIR}/regressions)
    list(APPEND dirs ${CMAKE_CURRENT_LIST_DIR}/regressions)
  endif()
  add_test(NAME ${name}_replay COMMAND ${name} -runs=0 ${dirs})
endforeach()
