# spec/tests.cmake: the C test suite, included by the top CMakeLists.txt.
# Each test is one executable that prints "N passed, N failed" and exits
# non-zero on any failure.  Vectors are spec/vectors, a verbatim copy of
# ../shared/vectors, so that a fresh clone tests itself.

pkg_check_modules(CJSON REQUIRED IMPORTED_TARGET libcjson)

set(IDS_SPEC_VECTORS ${CMAKE_SOURCE_DIR}/spec/vectors)

function(ids_c_test name timeout)
  add_executable(${name} ${CMAKE_SOURCE_DIR}/spec/c/${name}.c)
  target_link_libraries(${name} PRIVATE idscheme_static PkgConfig::CJSON
                        Threads::Threads)
  # the default path; the test command passes it explicitly as well
  target_compile_definitions(${name} PRIVATE
                             IDS_VECTORS="${IDS_SPEC_VECTORS}")
  add_test(NAME ${name} COMMAND ${name} ${IDS_SPEC_VECTORS})
  # a timeout is a hang's bound, never a speed check: sanitizer builds run
  # several times slower, and more so beside other work (test_b64's
  # exhaustive pass took over 60 s under ASan with two CPU hogs)
  if(IDS_SANITIZE OR IDS_TSAN)
    math(EXPR timeout "${timeout} * 5")
  endif()
  set_tests_properties(${name} PROPERTIES TIMEOUT ${timeout})
endfunction()

ids_c_test(test_fluid_vectors 60)
# paced by FLUID's 1024 IDs per ms: 20 million IDs take about 20 s
ids_c_test(test_generator 300)
ids_c_test(test_slot_faults 120)
# hostile slot directories and namespaces: planted files, corrupt and
# future records, two slot spaces in one namespace, waits bounded
ids_c_test(test_slot_records 120)
# IDs for a given time (ids_generator_next_at)
ids_c_test(test_next_at 120)
# Flax, Snowflake and SIQ against every applicable reference vector
ids_c_test(test_flax_snowflake_siq 60)
# kuid64 and kuid96 (fogfish/uid 1.3.5): vectors, node hashes, API calls
ids_c_test(test_kuid 60)
# generators of flax, snowflake, siq, kuid64, kuid96: 10 M ordered IDs
# each, threads, SIQ's serial per type, fork, the entropy pool
ids_c_test(test_generators2 300)
# generator and define defects (items 1-12, issue 16): injected clocks,
# fork with a busy thread, define refusals
ids_c_test(test_gen_defects 300)
# the bulk call: 2 threads, batches of 1..5000 mixed with single calls,
# every ID collected (13 M IDs; FLUID's 1024 per ms paces its 2 M)
ids_c_test(test_bulk 300)
ids_c_test(test_registry 60)
# the inspect engine (inspect/inspect.h) called directly
ids_c_test(test_inspect 60)
# ids_codec_make's table (a row is built from its fields, bad rows are
# refused) and the core's decimal parser
ids_c_test(test_codecs 60)
# what ids_scheme_register checks and prepares for a scheme written in C
ids_c_test(test_registry_contract 60)
# the core's base64 (id-compressor, etcd) against libsodium's, at every
# code level: 12 s of CPU, which two CPU hogs and a parallel build beside
# it (load 20) stretched past 60 s
ids_c_test(test_b64 300)
# the core's CRC-32 (core/crc32.c, SIQ's DID form; zlib's before)
ids_c_test(test_crc32 60)
# id-compressor (@fluidframework/id-compressor 3.1.0): every recorded step
ids_c_test(test_idcompressor 120)
# id-compressor against the real npm package: node and Lua 5.4 clients of
# one document (spec/idcompressor/node/run.sh runs npm ci when needed;
# needs network the first time, and fails without node or npm)
if(TARGET idscheme_lua54)
  add_test(NAME idc_node_cross
           COMMAND ${CMAKE_SOURCE_DIR}/spec/idcompressor/node/run.sh ${CMAKE_BINARY_DIR})
  set_tests_properties(idc_node_cross PROPERTIES TIMEOUT 600)
endif()
# torture (reliability issue): every generator, built-in and shipped (the
# specs of schemes/shipped.c, defined at ids_init): 2 threads, injected
# clocks under hold and error, 16 forked children, exhaustion at every tick,
# epoch edges.  IDS_TORTURE_SECONDS (default 1) and IDS_TORTURE_ROUNDS
# (default 1) scale the threads part, IDS_TEST_SCALE the rest (valgrind).
ids_c_test(test_torture 600)
if(IDS_SANITIZE OR IDS_TSAN)       # instrumented: the threads part halved
  set_tests_properties(test_torture PROPERTIES
                       ENVIRONMENT "IDS_TORTURE_SECONDS=0.5")
endif()

# The public headers compile as C++ (issue 23): a C++11 program includes
# every installed header and calls through each, linked as a consumer
# links.  g++ comes with build-essential (scripts/packages): without a
# C++ compiler the test is there and fails, never skipped in silence.
include(CheckLanguage)
check_language(CXX)
if(CMAKE_CXX_COMPILER)
  enable_language(CXX)
  add_executable(test_cxx ${CMAKE_SOURCE_DIR}/spec/c/test_cxx.cpp)
  set_target_properties(test_cxx PROPERTIES CXX_STANDARD 11
                        CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF)
  target_compile_options(test_cxx PRIVATE -Wall -Werror -pedantic)
  target_link_libraries(test_cxx PRIVATE idscheme_shared)
  add_test(NAME cxx_headers COMMAND test_cxx)
else()
  add_test(NAME cxx_headers COMMAND sh -c
           "echo 'no C++ compiler: install g++ (scripts/packages)' >&2; exit 1")
endif()

# The core with both networked slot stores off (IDS_WITH_REDIS=OFF,
# IDS_WITH_ETCD=OFF) builds, links libsodium and no store's library, and
# serves a C program (spec/packaging/core_minimal.sh; its own build tree)
add_test(NAME core_minimal
         COMMAND ${CMAKE_SOURCE_DIR}/spec/packaging/core_minimal.sh ${CMAKE_SOURCE_DIR}
                 ${CMAKE_BINARY_DIR} ${CMAKE_C_COMPILER})
set_tests_properties(core_minimal PROPERTIES TIMEOUT 300)
