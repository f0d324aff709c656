# The id-compressor as an npm package in WebAssembly (wasm/, issue 27),
# with -DIDS_WASM=ON: built with emscripten into BUILD/wasm (wasm/build.sh)
# and, with BUILD_TESTING, tested there against the npm package it
# replaces (wasm/test/run.sh).  Not with the sanitizers: emcc's output is
# not instrumented.
if(IDS_WASM AND NOT IDS_SANITIZE AND NOT IDS_TSAN)
  find_program(IDS_EMCC emcc)
  find_program(IDS_NODE_BIN node)
  if(IDS_EMCC AND IDS_NODE_BIN)
    set(pkg ${CMAKE_BINARY_DIR}/wasm)
    file(GLOB idc_sources ${CMAKE_SOURCE_DIR}/idcompressor/*.[ch])
    set(wasm_files glue.c idc.js index.js browser.js test-utils.js
        index.d.ts legacy.d.ts public.d.ts test-utils.d.ts package.json
        README.md build.sh)
    list(TRANSFORM wasm_files PREPEND ${CMAKE_SOURCE_DIR}/wasm/)
    add_custom_command(
      OUTPUT ${pkg}/idcompressor.wasm ${pkg}/idc.js
      COMMAND ${CMAKE_SOURCE_DIR}/wasm/build.sh ${pkg}
      DEPENDS ${idc_sources} ${wasm_files}
      COMMENT "emcc: the id-compressor's npm package in ${pkg}"
      VERBATIM)
    add_custom_target(idcompressor_wasm ALL
                      DEPENDS ${pkg}/idcompressor.wasm ${pkg}/idc.js)
    if(BUILD_TESTING)
      foreach(t vectors cross api lifecycle helpers pack types browser)
        add_test(NAME idc_wasm_${t}
                 COMMAND ${CMAKE_SOURCE_DIR}/wasm/test/run.sh ${CMAKE_BINARY_DIR} ${t})
        set_tests_properties(idc_wasm_${t} PROPERTIES TIMEOUT 300 LABELS "wasm")
      endforeach()
      # the reference's own test suite, on the reference and on ours
      add_test(NAME idc_wasm_reftests
               COMMAND ${CMAKE_SOURCE_DIR}/spec/idcompressor/reftests/run.sh ${CMAKE_BINARY_DIR})
      set_tests_properties(idc_wasm_reftests PROPERTIES TIMEOUT 600 LABELS "wasm")
      # a Fluid application (SharedTree) on the reference and on ours
      add_test(NAME idc_wasm_fluidapp
               COMMAND ${CMAKE_SOURCE_DIR}/spec/idcompressor/fluidapp/run.sh ${CMAKE_BINARY_DIR})
      set_tests_properties(idc_wasm_fluidapp PROPERTIES TIMEOUT 900 LABELS "wasm")
    endif()
    # the library itself, the npm package idscheme
    include(${CMAKE_SOURCE_DIR}/wasm/idscheme/idscheme.cmake)
  else()
    message(FATAL_ERROR "IDS_WASM: emscripten (emcc) or node not found "
            "(Debian: emscripten, nodejs)")
  endif()
endif()
