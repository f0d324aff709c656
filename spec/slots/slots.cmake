# spec/slots/slots.cmake: the slot room's tests (included after
# spec/tests.cmake).  Label "timing": the long fault scenarios on real
# servers (a minute each, run alone); scripts/test runs them in the plain
# build, not again under the sanitizers or in its quick mode.  test_slots is the C unit test (URLs, registry, the
# lease core against an in-memory backend, local flock, fork); the shell
# tests run slot_driver processes against the local backend and against a
# real redis-server and etcd they start on 127.0.0.1 (skipped from the list,
# with a message, when the server binary is missing).

add_executable(slot_driver ${CMAKE_SOURCE_DIR}/spec/c/slot_driver.c)
target_link_libraries(slot_driver PRIVATE idscheme_static)
find_program(IDS_OPENSSL_BIN openssl)    # the TLS tests' certificates
# the partition's TCP relay (faults.sh)
add_executable(relay ${CMAKE_SOURCE_DIR}/spec/c/relay.c)

ids_c_test(test_slots 120)
# its redis and etcd parts where those stores are built (IDS_HAVE_*); its
# claims go through the stores' module (IDSCHEME_STORES_MODULE), but it
# reads etcd's replies itself (ids__etcd_parse)
target_compile_definitions(test_slots PRIVATE ${IDS_STORE_DEFS})
if(TARGET ids_stores_objects)
  target_link_libraries(test_slots PRIVATE ids_stores_objects)
endif()

add_test(NAME slots_local
         COMMAND ${CMAKE_CURRENT_LIST_DIR}/local.sh ${CMAKE_BINARY_DIR})
set_tests_properties(slots_local PROPERTIES TIMEOUT 240)

find_program(IDS_REDIS_SERVER redis-server)
find_program(IDS_ETCD etcd)
# a store's server tests need its unit (IDS_WITH_REDIS, IDS_WITH_ETCD)
if(NOT IDS_WITH_REDIS)
  set(IDS_REDIS_SERVER "")
  message(STATUS "slots: built without IDS_WITH_REDIS: no redis tests")
endif()
if(NOT IDS_WITH_ETCD)
  set(IDS_ETCD "")
  message(STATUS "slots: built without IDS_WITH_ETCD: no etcd tests")
endif()
set(IDS_STORE_BIN_redis ${IDS_REDIS_SERVER})
set(IDS_STORE_BIN_etcd ${IDS_ETCD})
foreach(store redis etcd)
  set(bin ${IDS_STORE_BIN_${store}})
  if(bin)
    add_test(NAME slots_${store}
             COMMAND ${CMAKE_CURRENT_LIST_DIR}/store.sh ${CMAKE_BINARY_DIR}
                     ${store} ${bin})
    # timing: outages and TTLs in seconds.  Beside other tests: a test
    # that sleeps through a TTL needs no core of its own, and one that
    # passes only on an idle machine would be wrong (they pass beside two
    # CPU hogs; at a load of 25, 32 etcd claims racing for 32 numbers
    # took over a minute, and the whole test over 300 s)
    set_tests_properties(slots_${store} PROPERTIES TIMEOUT 600
                         LABELS timing)
  else()
    string(TOUPPER ${store} unit)
    if(IDS_WITH_${unit})          # else said above
      message(STATUS "slots: no ${store} server found: slots_${store} not added")
    endif()
  endif()
endforeach()

# Generators that take their node values from slots, every ID collected:
# locally (16 Lua processes and 8 commands with no node given) and through
# a lease on each store (an outage shorter than the safe window).
# sanitizer builds: the runtime is preloaded into the Lua processes only
# (curl, etcd and redis-server stay as they are)
set(IDS_GEN_ENV "LUA=${IDS_LUA54}")
if(IDS_SANITIZE)
  set(IDS_GEN_ENV "${IDS_GEN_ENV};IDS_PRELOAD=${IDS_LIBASAN}")
endif()
if(TARGET idscheme_lua54 AND TARGET idscheme_cli AND IDS_LUA54)
  add_test(NAME slots_generators
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/generators.sh ${CMAKE_BINARY_DIR})
  set_tests_properties(slots_generators PROPERTIES TIMEOUT 300
                       ENVIRONMENT "${IDS_GEN_ENV}")
  # on each store: generators.sh; restore.sh, the store restarted from an
  # older snapshot while generators run; faults.sh, the fault matrix (a
  # frozen holder, a frozen store, a partition, an empty restart)
  foreach(store redis etcd)
    set(bin ${IDS_STORE_BIN_${store}})
    if(bin)
      foreach(script generators restore faults)
        add_test(NAME slots_${script}_${store}
                 COMMAND ${CMAKE_CURRENT_LIST_DIR}/${script}.sh
                         ${CMAKE_BINARY_DIR} ${store} ${bin})
        set_tests_properties(slots_${script}_${store} PROPERTIES TIMEOUT 300
                             ENVIRONMENT "${IDS_GEN_ENV}")
      endforeach()
      set_tests_properties(slots_restore_${store} slots_faults_${store}
                           PROPERTIES LABELS timing)
    endif()
  endforeach()
  # a slot handed over between commands whose clocks disagree by 3 s
  # (libfaketime), locally and through a Redis lease
  add_test(NAME slots_skew
           COMMAND ${CMAKE_CURRENT_LIST_DIR}/skew.sh ${CMAKE_BINARY_DIR}
                   ${IDS_REDIS_SERVER})
  set_tests_properties(slots_skew PROPERTIES TIMEOUT 300 RUN_SERIAL TRUE
                       LABELS timing)
  # issue 40: the stores' module.  The command, the library and the Lua
  # modules link none of its libraries; a Redis lease works through it;
  # with it away a claim fails saying so, and the rest works
  if(IDS_REDIS_SERVER AND TARGET idscheme_stores)
    add_test(NAME slots_module
             COMMAND ${CMAKE_CURRENT_LIST_DIR}/module.sh ${CMAKE_BINARY_DIR}
                     ${IDS_REDIS_SERVER})
    set_tests_properties(slots_module PROPERTIES TIMEOUT 120
                         ENVIRONMENT "${IDS_GEN_ENV}")
  endif()
  # a Redis that asks for a password and has an ACL user
  if(IDS_REDIS_SERVER)
    add_test(NAME slots_auth_redis
             COMMAND ${CMAKE_CURRENT_LIST_DIR}/auth.sh ${CMAKE_BINARY_DIR}
                     ${IDS_REDIS_SERVER})
    set_tests_properties(slots_auth_redis PROPERTIES TIMEOUT 120
                         ENVIRONMENT "${IDS_GEN_ENV}")
    # rediss://: its own CA and certificates (the openssl command)
    if(IDS_OPENSSL_BIN)
      add_test(NAME slots_tls_redis
               COMMAND ${CMAKE_CURRENT_LIST_DIR}/tls_redis.sh
                       ${CMAKE_BINARY_DIR} ${IDS_REDIS_SERVER})
      set_tests_properties(slots_tls_redis PROPERTIES TIMEOUT 120
                           ENVIRONMENT "${IDS_GEN_ENV}")
    else()
      message(STATUS "slots: no openssl command: slots_tls_redis not added")
    endif()
  endif()
  # etcds://: an etcd with TLS, client certificates and auth on (its own
  # CA and certificates, the openssl command; etcdctl turns auth on)
  find_program(IDS_ETCDCTL etcdctl)
  if(IDS_ETCD AND IDS_ETCDCTL AND IDS_OPENSSL_BIN)
    add_test(NAME slots_tls_etcd
             COMMAND ${CMAKE_CURRENT_LIST_DIR}/tls_etcd.sh ${CMAKE_BINARY_DIR}
                     ${IDS_ETCD} ${IDS_ETCDCTL})
    set_tests_properties(slots_tls_etcd PROPERTIES TIMEOUT 300
                         ENVIRONMENT "${IDS_GEN_ENV}")
  elseif(IDS_ETCD)
    message(STATUS "slots: no etcdctl or openssl: slots_tls_etcd not added")
  endif()
endif()

# etcd's operations while generators hold leases (etcd_ops.sh: compaction
# and defragmentation, the member restarted after SIGTERM and SIGKILL),
# leader loss in a three-member cluster on 127.0.0.1 (etcd_cluster.sh),
# and short Redis and etcd leases beside two CPU hogs (hogs.sh, alone: it
# takes both cores on purpose); real generators and slot_driver, every ID
# collected (issue 36)
if(TARGET idscheme_lua54 AND TARGET idscheme_cli AND IDS_LUA54)
  find_program(IDS_ETCDCTL etcdctl)
  if(IDS_ETCD AND IDS_ETCDCTL)
    foreach(script etcd_ops etcd_cluster)
      add_test(NAME slots_${script}
               COMMAND ${CMAKE_CURRENT_LIST_DIR}/${script}.sh
                       ${CMAKE_BINARY_DIR} ${IDS_ETCD} ${IDS_ETCDCTL})
      set_tests_properties(slots_${script} PROPERTIES TIMEOUT 300
                           LABELS timing ENVIRONMENT "${IDS_GEN_ENV}")
    endforeach()
  elseif(IDS_ETCD)
    message(STATUS
            "slots: no etcdctl: slots_etcd_ops, slots_etcd_cluster not added")
  elseif(IDS_WITH_ETCD)
    message(STATUS "slots: no etcd server found: slots_etcd_ops, "
                   "slots_etcd_cluster not added")
  endif()
  if(IDS_REDIS_SERVER AND IDS_ETCD)
    add_test(NAME slots_hogs
             COMMAND ${CMAKE_CURRENT_LIST_DIR}/hogs.sh ${CMAKE_BINARY_DIR}
                     ${IDS_REDIS_SERVER} ${IDS_ETCD})
    set_tests_properties(slots_hogs PROPERTIES TIMEOUT 300 RUN_SERIAL TRUE
                         LABELS timing ENVIRONMENT "${IDS_GEN_ENV}")
  elseif(IDS_WITH_REDIS AND IDS_WITH_ETCD)
    message(STATUS
            "slots: no redis-server or etcd found: slots_hogs not added")
  endif()
endif()

# A namespace's Redis keys deleted under running holders, subset by subset
# (loss.sh); a Redis under maxmemory filled by another client, per policy
# (evict.sh); a replica promoted after a partition cut replication, the
# holders moved to it through a relay (promote.sh).  Real generators and
# slot_driver, every ID collected (issue 36)
find_program(IDS_REDIS_CLI redis-cli)   # SCAN, UNLINK, the filler, INFO
if(TARGET idscheme_lua54 AND TARGET idscheme_cli AND IDS_LUA54)
  if(IDS_REDIS_SERVER AND IDS_REDIS_CLI)
    foreach(script loss evict promote)
      add_test(NAME slots_${script}_redis
               COMMAND ${CMAKE_CURRENT_LIST_DIR}/${script}.sh
                       ${CMAKE_BINARY_DIR} ${IDS_REDIS_SERVER})
      set_tests_properties(slots_${script}_redis PROPERTIES TIMEOUT 300
                           LABELS timing ENVIRONMENT "${IDS_GEN_ENV}")
    endforeach()
  elseif(IDS_WITH_REDIS)
    message(STATUS "slots: no redis-server or redis-cli found: "
                   "slots_loss_redis, slots_evict_redis, slots_promote_redis "
                   "not added")
  endif()
endif()
