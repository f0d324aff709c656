# The PostgreSQL extension's tests (pg/, spec/pg/*.sh): a real PostgreSQL
# 15 from a temporary copy of Debian's, the extension built by PGXS
# against this build's libidscheme.so.  Not in sanitizer builds: the
# server is not instrumented.
if(NOT IDS_SANITIZE AND NOT IDS_TSAN AND TARGET idscheme_lua54)
  find_program(IDS_PG_CONFIG pg_config
               PATHS /usr/lib/postgresql/15/bin NO_DEFAULT_PATH)
  if(IDS_PG_CONFIG)
    # node: idscheme.node given to 16 backends by every documented way;
    # wait: a backend waiting in the library answers cancel, terminate
    # and the timeouts; admin: the builds, ALTER EXTENSION UPDATE from
    # 0.2.0, ALTER SYSTEM, the store's password (with redis-server if
    # there is one)
    foreach(t regress load node wait admin)
      add_test(NAME pg_${t}
               COMMAND ${CMAKE_CURRENT_LIST_DIR}/${t}.sh ${CMAKE_BINARY_DIR})
      set_tests_properties(pg_${t} PROPERTIES TIMEOUT 300 LABELS "pg")
    endforeach()
    # bench/pg.sh runs (small: 1 s a throughput run, 3200 rows, loops of
    # 20000 calls); its figures are not checked
    add_test(NAME pg_bench
             COMMAND ${CMAKE_CURRENT_LIST_DIR}/../../bench/pg.sh ${CMAKE_BINARY_DIR} 1 3200)
    set_tests_properties(pg_bench PROPERTIES TIMEOUT 300 LABELS "pg"
                         ENVIRONMENT "PG_BENCH_CALLS=20000")
    if(IDS_REDIS_SERVER)                   # slots.cmake: redis built and found
      add_test(NAME pg_two_servers
               COMMAND ${CMAKE_CURRENT_LIST_DIR}/two.sh ${CMAKE_BINARY_DIR})
      set_tests_properties(pg_two_servers PROPERTIES TIMEOUT 300 LABELS "pg")
      # a backend's first call on a fresh store, bounded by the settings
      # users expect; each new connection's first call measured
      add_test(NAME pg_first_call
               COMMAND ${CMAKE_CURRENT_LIST_DIR}/first.sh ${CMAKE_BINARY_DIR})
      set_tests_properties(pg_first_call PROPERTIES TIMEOUT 300 LABELS "pg")
    endif()
  else()
    message(STATUS "PostgreSQL 15's pg_config not found "
            "(postgresql-server-dev-15): no PostgreSQL tests")
  endif()
endif()
