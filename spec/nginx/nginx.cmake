# The OpenResty integration tests: a real nginx with 4 workers, reloaded
# under load (run.sh); the README's nginx.conf (readme.sh); Redis away
# (outage.sh).  Not in sanitizer builds: nginx is not instrumented.
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
    # issue 36: Redis away at start and under traffic (outage.sh): a
    # minute at most each, sleeping through lease TTLs, so "timing", and
    # beside other tests (their bounds hold beside two CPU hogs)
    find_program(IDS_REDIS_SERVER redis-server)
    if(IDS_REDIS_SERVER AND IDS_WITH_REDIS)
      foreach(mode start fallback nofallback blip blip_nofallback)
        add_test(NAME nginx_outage_${mode}
                 COMMAND ${CMAKE_CURRENT_LIST_DIR}/outage.sh ${CMAKE_BINARY_DIR} ${mode})
        set_tests_properties(nginx_outage_${mode} PROPERTIES TIMEOUT 120
                             LABELS "nginx;timing")
      endforeach()
    else()
      message(STATUS "redis-server or the redis store missing: nginx outage tests not added")
    endif()
  else()
    message(STATUS "nginx or wrk not found: nginx tests not added")
  endif()
endif()
