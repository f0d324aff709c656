# bench/bench.cmake: benchmarks (never timed tests).  Included by the top
# CMakeLists.txt.  `cmake --build BUILD --target bench` builds and runs the
# C and Lua benchmarks; `--target bench_nginx` runs the nginx one (not part
# of `bench`, never a ctest).  Use a Release (or RelWithDebInfo) build for
# figures worth quoting.

foreach(b bench_fluid bench_schemes bench_slots bench_idc bench_inspect)
  add_executable(${b} ${CMAKE_CURRENT_LIST_DIR}/${b}.c)
  target_link_libraries(${b} PRIVATE idscheme_static)
  target_compile_definitions(${b} PRIVATE
                             IDS_BENCH_BUILD_TYPE="${CMAKE_BUILD_TYPE}")
  set_target_properties(${b} PROPERTIES
                        RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
endforeach()

set(IDS_BENCH_COMMANDS COMMAND $<TARGET_FILE:bench_fluid>
                       COMMAND $<TARGET_FILE:bench_schemes>
                       COMMAND $<TARGET_FILE:bench_slots>
                       COMMAND $<TARGET_FILE:bench_inspect>)
set(IDS_BENCH_DEPENDS bench_fluid bench_schemes bench_slots bench_inspect)

# bench_lua.lua loads <builddir>/lua54 or <builddir>/luajit, whichever
# fits the interpreter that runs it.
foreach(lua lua54 luajit)
  if(lua STREQUAL "lua54")
    set(names lua5.4 lua54)
    set(what "lua5.4 or no Lua 5.4 module")
    set(which "Lua 5.4")
  else()
    set(names luajit)
    set(what "luajit or no LuaJIT module")
    set(which "LuaJIT")
  endif()
  string(TOUPPER "IDS_${lua}" exe)
  find_program(${exe} NAMES ${names})
  if(${exe} AND TARGET idscheme_${lua})
    list(APPEND IDS_BENCH_COMMANDS
         COMMAND ${${exe}} ${CMAKE_CURRENT_LIST_DIR}/bench_lua.lua
                 ${CMAKE_BINARY_DIR})
    list(APPEND IDS_BENCH_DEPENDS idscheme_${lua})
  else()
    message(STATUS "bench: no ${what}; "
                   "the bench target skips the ${which} benchmark")
  endif()
endforeach()

add_custom_target(bench ${IDS_BENCH_COMMANDS}
                  DEPENDS ${IDS_BENCH_DEPENDS}
                  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}
                  USES_TERMINAL
                  COMMENT "Running benchmarks (ns/op, ids/s)")

# Request ids in a real nginx (OpenResty's Lua module) against nginx's own
# $request_id, measured with wrk.  Needs nginx with the Lua module and wrk.
if(TARGET idscheme_luajit)
  add_custom_target(bench_nginx
                    COMMAND ${CMAKE_CURRENT_LIST_DIR}/nginx_bench.sh
                            ${CMAKE_BINARY_DIR}
                    DEPENDS idscheme_luajit
                    WORKING_DIRECTORY ${CMAKE_BINARY_DIR}
                    USES_TERMINAL
                    COMMENT "Running the nginx benchmark (requests/s)")
endif()

# The id-compressor side by side with the reference npm package (node):
# C, Lua 5.4 and node on one document (bench/idc.sh; needs node and npm).
if(TARGET idscheme_lua54)
  add_custom_target(bench_idc_compare
                    COMMAND ${CMAKE_CURRENT_LIST_DIR}/idc.sh ${CMAKE_BINARY_DIR}
                    DEPENDS bench_idc idscheme_lua54
                    WORKING_DIRECTORY ${CMAKE_BINARY_DIR}
                    USES_TERMINAL
                    COMMENT "id-compressor: C, Lua 5.4 and the npm package")
endif()
