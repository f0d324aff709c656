# spec/lua.cmake: the busted specs as ctest tests, one per spec file and
# interpreter, each run by spec/busted.sh against this build's module:
#   lua54_<spec>   Lua 5.4 on ${CMAKE_BINARY_DIR}/lua54/idscheme.so
#   luajit_<spec>  LuaJIT on ${CMAKE_BINARY_DIR}/luajit/idscheme.so
# (labels "lua;lua54" and "lua;luajit": ctest -L luajit runs one set).
# Included from the top CMakeLists.txt after the Lua module targets are
# defined.

find_program(IDS_BUSTED NAMES busted)
# every *_spec.lua under spec/, in its room's folder (spec/schemes,
# spec/lua, ...), but spec/resty and spec/nginx: those need LuaJIT's ffi or
# nginx and have tests of their own (luajit_resty_spec below, nginx.cmake)
file(GLOB_RECURSE IDS_LUA_SPECS CONFIGURE_DEPENDS
     ${CMAKE_CURRENT_LIST_DIR}/*_spec.lua)
list(FILTER IDS_LUA_SPECS EXCLUDE REGEX "/spec/(resty|nginx)/")
list(SORT IDS_LUA_SPECS)
# a test is named by its file alone: two specs of one name would clash
set(IDS_LUA_SPEC_NAMES "")
foreach(spec ${IDS_LUA_SPECS})
  get_filename_component(name ${spec} NAME_WE)
  if(name IN_LIST IDS_LUA_SPEC_NAMES)
    message(FATAL_ERROR "two busted specs named ${name}.lua under spec/")
  endif()
  list(APPEND IDS_LUA_SPEC_NAMES ${name})
endforeach()

# An instrumented module in an uninstrumented interpreter: the ASan
# runtime must be loaded first.  Leaks are the interpreter's business.
# The same holds for Lua 5.4 and LuaJIT (checked: LuaJIT 2.1 runs the whole
# suite with libasan preloaded).
set(IDS_LUA_ENV "")
if(IDS_SANITIZE)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
                  OUTPUT_VARIABLE IDS_LIBASAN OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(IDS_LUA_ENV "LD_PRELOAD=${IDS_LIBASAN};ASAN_OPTIONS=detect_leaks=0")
endif()

# One test per spec file: <prefix>_<spec>, run by `interp`.
function(ids_busted_tests prefix interp labels)
  foreach(spec ${IDS_LUA_SPECS})
    get_filename_component(name ${spec} NAME_WE)
    add_test(NAME ${prefix}_${name}
             COMMAND ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/busted.sh
                     ${CMAKE_BINARY_DIR} ${spec}
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(${prefix}_${name} PROPERTIES
      ENVIRONMENT "LUA=${interp};BUSTED=${IDS_BUSTED};${IDS_LUA_ENV}"
      LABELS "${labels}"
      TIMEOUT 300)
  endforeach()
endfunction()

if(TARGET idscheme_lua54)
  find_program(IDS_LUA54 NAMES lua5.4 lua54)
  if(IDS_LUA54 AND IDS_BUSTED)
    ids_busted_tests(lua54 ${IDS_LUA54} "lua;lua54")
  else()
    message(STATUS "lua5.4 or busted not found: Lua 5.4 specs not added")
  endif()
endif()

if(TARGET idscheme_luajit)
  find_program(IDS_LUAJIT NAMES luajit)
  if(IDS_LUAJIT AND IDS_BUSTED)
    ids_busted_tests(luajit ${IDS_LUAJIT} "lua;luajit")
    # idscheme.resty needs the ffi: LuaJIT only, outside nginx
    add_test(NAME luajit_resty_spec
             COMMAND ${CMAKE_CURRENT_LIST_DIR}/busted.sh ${CMAKE_BINARY_DIR}
                     ${CMAKE_CURRENT_LIST_DIR}/resty/resty_spec.lua
             WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
    set_tests_properties(luajit_resty_spec PROPERTIES
      ENVIRONMENT "LUA=${IDS_LUAJIT};BUSTED=${IDS_BUSTED};${IDS_LUA_ENV}"
      LABELS "lua;luajit" TIMEOUT 60)
  else()
    message(STATUS "luajit or busted not found: LuaJIT specs not added")
  endif()
endif()

# Resident memory stays flat (reliability issue, spec/lua/memory_flat.lua):
# 10 million IDs, 100,000 generators created and dropped.  A plain script,
# outside busted (it reads its own process's memory) and so outside the valgrind stage.
function(ids_memory_flat prefix interp)
  add_test(NAME ${prefix}_memory_flat
           COMMAND ${interp} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/lua/memory_flat.lua
                   ${CMAKE_BINARY_DIR})
  set_tests_properties(${prefix}_memory_flat PROPERTIES
                       LABELS "lua;${prefix}" TIMEOUT 120)
endfunction()
if(NOT IDS_SANITIZE)          # an instrumented module reads more memory
  if(TARGET idscheme_lua54 AND IDS_LUA54)
    ids_memory_flat(lua54 ${IDS_LUA54})
  endif()
  if(TARGET idscheme_luajit AND IDS_LUAJIT)
    ids_memory_flat(luajit ${IDS_LUAJIT})
  endif()
endif()
