# The "What is this ID?" page (web/, issue 41), with -DIDS_WASM=ON: one
# self-contained HTML file, BUILD/web/index.html, assembled by
# web/build.mjs from web/index.html, style.css and app.js and the npm
# package idscheme (BUILD/wasm-idscheme, wasm/idscheme/idscheme.cmake)
# with Debian's esbuild; with BUILD_TESTING, tested in headless Chromium
# (web/test/run.sh, label "wasm").
if(TARGET idscheme_wasm)
  find_program(IDS_ESBUILD esbuild)
  if(NOT IDS_ESBUILD)
    message(FATAL_ERROR "IDS_WASM: esbuild not found, for the page in web/ (Debian: esbuild)")
  endif()
  set(ids_page ${CMAKE_BINARY_DIR}/web/index.html)
  set(ids_page_files index.html style.css app.js count.js worker.js build.mjs)
  list(TRANSFORM ids_page_files PREPEND ${CMAKE_SOURCE_DIR}/web/)
  add_custom_command(
    OUTPUT ${ids_page}
    COMMAND ${CMAKE_COMMAND} -E env IDS_ESBUILD=${IDS_ESBUILD}
            ${IDS_NODE_BIN} ${CMAKE_SOURCE_DIR}/web/build.mjs ${CMAKE_BINARY_DIR}
    DEPENDS ${ids_page_files} ${CMAKE_BINARY_DIR}/wasm-idscheme/idscheme.wasm
            ${CMAKE_BINARY_DIR}/wasm-idscheme/browser.js
    COMMENT "the page in ${CMAKE_BINARY_DIR}/web"
    VERBATIM)
  add_custom_target(web_page ALL DEPENDS ${ids_page})
  add_dependencies(web_page idscheme_wasm)
  if(BUILD_TESTING)
    add_test(NAME web_page COMMAND ${CMAKE_SOURCE_DIR}/web/test/run.sh ${CMAKE_BINARY_DIR})
    set_tests_properties(web_page PROPERTIES TIMEOUT 300 LABELS "wasm")
  endif()
endif()
