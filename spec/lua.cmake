# spec/lua.cmake: the busted specs as ctest tests, one per spec file, each
# run by spec/busted.sh against this build's Lua 5.4 module
# (${CMAKE_BINARY_DIR}/lua54/idscheme.so).  Included from the top
# CMakeLists.txt after the Lua module targets are defined.

if(TARGET idscheme_lua54)
  find_program(IDS_LUA54 NAMES lua5.4 lua54)
  find_program(IDS_BUSTED NAMES busted)
  # An instrumented module in an uninstrumented interpreter: the ASan
  # runtime must be loaded first.  Leaks are the interpreter's business.
  set(IDS_LUA_ENV "")
  if(IDS_SANITIZE)
    execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
                    OUTPUT_VARIABLE IDS_LIBASAN OUTPUT_STRIP_TRAILING_WHITESPACE)
    set(IDS_LUA_ENV "LD_PRELOAD=${IDS_LIBASAN};ASAN_OPTIONS=detect_leaks=0")
  endif()
  if(IDS_LUA54 AND IDS_BUSTED)
    file(GLOB IDS_LUA_SPECS CONFIGURE_DEPENDS
         ${CMAKE_CURRENT_LIST_DIR}/*_spec.lua)
    foreach(spec ${IDS_LUA_SPECS})
      get_filename_component(name ${spec} NAME_WE)
      add_test(NAME lua54_${name}
               COMMAND ${CMAKE_CURRENT_LIST_DIR}/busted.sh
                       ${CMAKE_BINARY_DIR} ${spec}
               WORKING_DIRECTORY ${CMAKE_SOURCE_DIR})
      set_tests_properties(lua54_${name} PROPERTIES
        ENVIRONMENT "LUA=${IDS_LUA54};BUSTED=${IDS_BUSTED};${IDS_LUA_ENV}"
        LABELS "lua;lua54"
        TIMEOUT 300)
    endforeach()
  else()
    message(STATUS "lua5.4 or busted not found: Lua 5.4 specs not added")
  endif()
endif()
