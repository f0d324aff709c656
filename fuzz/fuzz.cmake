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
# (read from it, so that this follows the main build), other flags; and
# the stores' backends linked in (fuzz_slot.c parses etcd's replies), with
# their libraries: a harness claims no slot, so never opens the module.
add_library(ids_fuzz_objects OBJECT ${IDS_CORE_SOURCES} ${IDS_STORE_SOURCES})
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
target_link_libraries(ids_fuzz_objects PUBLIC ${val} ${IDS_SLOT_LIBS})

# Harnesses: fuzz_decode.c once per scheme (fuzz_decode_<scheme>, its
# scheme in -DFUZZ_SCHEME) and once as fuzz_detect (FLUID's detection),
# fuzz_idc.c also as fuzz_idc_deserialize, then every fuzz/fuzz_*.c.  fuzz/harnesses.txt lists them all for
# fuzz/run.sh.  odd37, wide160 and tiny are defined inside the harness.
set(IDS_FUZZ_SCHEMES fluid flax snowflake siq kuid64 kuid96
    ulid uuidv7 twitter sonyflake instagram ksuid mastodon tsid timeflake
    pushid uuidv1 uuidv3 uuidv4 uuidv5 uuidv6 uuidv8 uuidnil uuidmax nanoid objectid xid typeid
    odd37 wide160
    tiny)
set(IDS_FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR})
add_custom_target(fuzzers)

# ids_fuzz_harness(NAME SOURCE [DEFINITIONS...])
function(ids_fuzz_harness name src)
  add_executable(${name} ${src})
  target_compile_definitions(${name} PRIVATE ${ARGN})
  target_compile_options(${name} PRIVATE
    -fsanitize=fuzzer,${IDS_FUZZ_SAN} ${IDS_FUZZ_COMMON})
  target_link_options(${name} PRIVATE -fsanitize=fuzzer,${IDS_FUZZ_SAN})
  target_link_libraries(${name} PRIVATE ids_fuzz_objects)
  set_target_properties(${name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz)
  add_dependencies(fuzzers ${name})
  # Regression test: replay the seeds and fuzz/regressions/ (no fuzzing;
  # libFuzzer reads a directory recursively, so every harness replays
  # every regression, those under regressions/<harness>/ in their format).
  set(dirs "")
  foreach(d corpus/${name} regressions)
    if(IS_DIRECTORY ${IDS_FUZZ_DIR}/${d})
      list(APPEND dirs ${IDS_FUZZ_DIR}/${d})
    endif()
  endforeach()
  add_test(NAME ${name}_replay COMMAND ${name} -runs=0 ${dirs})
  set_property(GLOBAL APPEND PROPERTY IDS_FUZZ_NAMES ${name})
endfunction()

list(JOIN IDS_FUZZ_SCHEMES " " all)
foreach(scheme ${IDS_FUZZ_SCHEMES})
  ids_fuzz_harness(fuzz_decode_${scheme} ${IDS_FUZZ_DIR}/fuzz_decode.c
                   FUZZ_SCHEME="${scheme}" FUZZ_ALL="${all}")
endforeach()
ids_fuzz_harness(fuzz_detect ${IDS_FUZZ_DIR}/fuzz_decode.c
                 FUZZ_SCHEME="fluid" FUZZ_ALL="${all}" FUZZ_DETECT)
ids_fuzz_harness(fuzz_idc_deserialize ${IDS_FUZZ_DIR}/fuzz_idc.c
                 FUZZ_IDC_DESERIALIZE)
file(GLOB IDS_FUZZ_SOURCES CONFIGURE_DEPENDS ${IDS_FUZZ_DIR}/fuzz_*.c)
list(REMOVE_ITEM IDS_FUZZ_SOURCES ${IDS_FUZZ_DIR}/fuzz_decode.c)
if(NOT IDS_WITH_ETCD)             # fuzz_slot.c parses etcd's replies
  list(REMOVE_ITEM IDS_FUZZ_SOURCES ${IDS_FUZZ_DIR}/fuzz_slot.c)
endif()
foreach(src ${IDS_FUZZ_SOURCES})
  get_filename_component(name ${src} NAME_WE)
  ids_fuzz_harness(${name} ${src})
endforeach()
get_property(names GLOBAL PROPERTY IDS_FUZZ_NAMES)
list(JOIN names "\n" names)
file(WRITE ${CMAKE_BINARY_DIR}/fuzz/harnesses.txt "${names}\n")
