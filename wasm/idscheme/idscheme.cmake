# The library itself as the npm package idscheme (wasm/idscheme/, issue
# 41), with -DIDS_WASM=ON (wasm/wasm.cmake includes this file, which has
# found emcc and node): built with emscripten into BUILD/wasm-idscheme
# (wasm/idscheme/build.sh) and, with BUILD_TESTING, tested there
# (wasm/idscheme/test/run.sh, label "wasm").
set(ids_pkg ${CMAKE_BINARY_DIR}/wasm-idscheme)
file(GLOB ids_wasm_sources CONFIGURE_DEPENDS
     ${CMAKE_SOURCE_DIR}/core/*.[ch] ${CMAKE_SOURCE_DIR}/core/codec/*.[ch]
     ${CMAKE_SOURCE_DIR}/schemes/*.[ch] ${CMAKE_SOURCE_DIR}/inspect/*.[ch])
set(ids_wasm_files glue.c sha256.c shim/sodium.h idscheme.js index.d.ts
    package.json README.md build.sh)
list(TRANSFORM ids_wasm_files PREPEND ${CMAKE_SOURCE_DIR}/wasm/idscheme/)
add_custom_command(
  OUTPUT ${ids_pkg}/idscheme.wasm ${ids_pkg}/index.js ${ids_pkg}/browser.js
         ${ids_pkg}/index.cjs
  COMMAND ${CMAKE_SOURCE_DIR}/wasm/idscheme/build.sh ${ids_pkg}
  DEPENDS ${ids_wasm_sources} ${ids_wasm_files}
  COMMENT "emcc: the npm package idscheme in ${ids_pkg}"
  VERBATIM)
add_custom_target(idscheme_wasm ALL
                  DEPENDS ${ids_pkg}/idscheme.wasm ${ids_pkg}/index.js)
if(BUILD_TESTING)
  # vectors: spec/vectors through the package; diff: inspect against the
  # command's inspect --json (the build's idscheme); api: the API; pack:
  # npm pack installed offline, used from ESM, CommonJS and TypeScript;
  # browser: the same cases in headless Chromium
  foreach(t vectors diff api pack browser)
    add_test(NAME idscheme_wasm_${t}
             COMMAND ${CMAKE_SOURCE_DIR}/wasm/idscheme/test/run.sh ${CMAKE_BINARY_DIR} ${t})
    set_tests_properties(idscheme_wasm_${t} PROPERTIES TIMEOUT 300 LABELS "wasm")
  endforeach()
endif()
