# The OpenResty integration test: a real nginx with 4 workers, reloaded
# under load (run.sh).  Not in sanitizer builds: nginx is not instrumented.
if(TARGET idscheme_luajit AND TARGET idscheme_lua54 AND NOT IDS_SANITIZE)
  find_program(IDS_NGINX nginx PATHS /usr/sbin)
  find_program(IDS_WRK wrk)
  if(IDS_NGINX AND IDS_WRK)
    foreach(mode resty redis master)
      add_test(NAME nginx_${mode}
               COMMAND ${CMAKE_CURRENT_LIST_DIR}/run.sh ${CMAKE_BINARY_DIR} ${mode})
      set_tests_properties(nginx_${mode} PROPERTIES TIMEOUT 120
                           LABELS "nginx" RUN_SERIAL TRUE)
    endforeach()
    # issue 25: the README's OpenResty nginx.conf, served as written
    add_test(NAME nginx_readme
             COMMAND ${CMAKE_CURRENT_LIST_DIR}/readme.sh ${CMAKE_BINARY_DIR})
    set_tests_properties(nginx_readme PROPERTIES TIMEOUT 120 LABELS "nginx")
  else()
    message(STATUS "nginx or wrk not found: nginx tests not added")
  endif()
endif()
