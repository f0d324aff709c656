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
    add_custom_command(
      OUTPUT ${pkg}/idcompressor-wasm.cjs ${pkg}/index.mjs
      COMMAND ${CMAKE_SOURCE_DIR}/wasm/build.sh ${pkg}
      DEPENDS ${idc_sources} ${CMAKE_SOURCE_DIR}/wasm/build.sh
              ${CMAKE_SOURCE_DIR}/wasm/glue.c ${CMAKE_SOURCE_DIR}/wasm/index.mjs
              ${CMAKE_SOURCE_DIR}/wasm/index.d.ts
              ${CMAKE_SOURCE_DIR}/wasm/package.json
              ${CMAKE_SOURCE_DIR}/wasm/README.md
              ${CMAKE_SOURCE_DIR}/core/error.c ${CMAKE_SOURCE_DIR}/core/b64.c
      COMMENT "emcc: the id-compressor's npm package in ${pkg}"
      VERBATIM)
    add_custom_target(idcompressor_wasm ALL
                      DEPENDS ${pkg}/idcompressor-wasm.cjs ${pkg}/index.mjs)
    if(BUILD_TESTING)
      foreach(t vectors cross api lifecycle pack types)
        add_test(NAME idc_wasm_${t}
                 COMMAND ${CMAKE_SOURCE_DIR}/wasm/test/run.sh ${CMAKE_BINARY_DIR} ${t})
        set_tests_properties(idc_wasm_${t} PROPERTIES TIMEOUT 300 LABELS "wasm")
      endforeach()
    endif()
  else()
    message(FATAL_ERROR "IDS_WASM: emscripten (emcc) or node not found "
            "(Debian: emscripten, nodejs)")
  endif()
endif()
