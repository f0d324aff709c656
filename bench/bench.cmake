# bench/bench.cmake: benchmarks (never timed tests).  Included by the top
# CMakeLists.txt.  `cmake --build BUILD --target bench` builds and runs them;
# use a Release (or RelWithDebInfo) build for figures worth quoting.

add_executable(bench_fluid ${CMAKE_CURRENT_LIST_DIR}/bench_fluid.c)
target_link_libraries(bench_fluid PRIVATE idscheme_static)
target_compile_definitions(bench_fluid PRIVATE
                           IDS_BENCH_BUILD_TYPE="${CMAKE_BUILD_TYPE}")
set_target_properties(bench_fluid PROPERTIES
                      RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)

set(IDS_BENCH_COMMANDS COMMAND $<TARGET_FILE:bench_fluid>)
set(IDS_BENCH_DEPENDS bench_fluid)

find_program(IDS_LUA54 NAMES lua5.4 lua54)
if(IDS_LUA54 AND TARGET idscheme_lua54)
  list(APPEND IDS_BENCH_COMMANDS
       COMMAND ${IDS_LUA54} ${CMAKE_CURRENT_LIST_DIR}/bench_lua.lua
               ${CMAKE_BINARY_DIR})
  list(APPEND IDS_BENCH_DEPENDS idscheme_lua54)
else()
  message(STATUS "bench: no lua5.4 or no Lua 5.4 module; "
                 "the bench target runs the C benchmark only")
endif()

add_custom_target(bench ${IDS_BENCH_COMMANDS}
                  DEPENDS ${IDS_BENCH_DEPENDS}
                  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}
                  USES_TERMINAL
                  COMMENT "Running benchmarks (ns/op, ids/s)")
