-- settings: the slot store, namespace, policy and node by hand.
LOAD 'idscheme';
SHOW idscheme.slots;
SHOW idscheme.slot_namespace;
SHOW idscheme.policy;
SHOW idscheme.node;
-- a slot from the local store by default (its directory: the test's)
SELECT (idscheme_generator('snowflake')).backend AS store,
       (idscheme_generator('snowflake')).slot BETWEEN 0 AND 1023 AS slot;
-- a change of setting remakes the generator: by hand, then no slot
SET idscheme.node = 1023;
SELECT (idscheme_generator('snowflake')).slot IS NULL AS no_slot;
SELECT idscheme_fields('snowflake', idscheme_next_bigint('snowflake'))
       - 'timestamp' - 'sequence' AS node;
SET idscheme.node = 1024;
SELECT idscheme_next('snowflake');
SET idscheme.node = 7;
SELECT idscheme_fields('tsid', idscheme_next('tsid')) ->> 'node' AS tsid_node;
-- another namespace: the generator is remade, its slot from that space
RESET idscheme.node;
SET idscheme.slot_namespace = 'regress_other';
SELECT (idscheme_generator('snowflake')).slot BETWEEN 0 AND 1023 AS slot;
RESET idscheme.slot_namespace;
SET idscheme.node = -2;
RESET idscheme.node;
SET idscheme.slots = 'none';
SELECT idscheme_next('snowflake');
SET idscheme.slots = 'gopher://x';
SELECT idscheme_next('snowflake');
SET idscheme.slots = 'redis://127.0.0.1:1';
SELECT idscheme_next('snowflake');
SET idscheme.policy = 'sometimes';
SET idscheme.policy = 'error';
SET idscheme.node = 2;
SELECT idscheme_next('snowflake') ~ '^[0-9]+$' AS with_policy_error;
SET idscheme.nosuch = 1;
-- schemes without node fields take no slot
RESET idscheme.node;
RESET idscheme.slots;
SELECT (idscheme_generator('uuidv7')).slot IS NULL AS uuidv7_has_no_node;
-- a node given by hand is held by one backend at a time: an advisory lock
-- of the cluster (database 0) on the node value, taken before a generator
-- is made and kept while one of this backend's generators has the node
SELECT objid AS node, database, classid, objsubid, mode, granted
FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()
ORDER BY objid;
SET idscheme.node = 1000;
SELECT idscheme_next('snowflake') ~ '^[0-9]+$' AS made;
-- tsid's generator still has node 7 until its next call remakes it
SELECT objid AS node FROM pg_locks
WHERE locktype = 'advisory' AND pid = pg_backend_pid() ORDER BY objid;
SELECT idscheme_next('tsid') IS NOT NULL AS made;
SELECT objid AS node FROM pg_locks
WHERE locktype = 'advisory' AND pid = pg_backend_pid() ORDER BY objid;
-- DISCARD ALL lets every advisory lock go: the next call takes it again
DISCARD ALL;
SET idscheme.node = 1000;
SELECT count(*) AS locks FROM pg_locks
WHERE locktype = 'advisory' AND pid = pg_backend_pid();
SELECT idscheme_next('snowflake') ~ '^[0-9]+$' AS made;
SELECT objid AS node FROM pg_locks
WHERE locktype = 'advisory' AND pid = pg_backend_pid() ORDER BY objid;
-- so does pg_advisory_unlock_all()
SELECT pg_advisory_unlock_all();
SELECT count(*) AS locks FROM pg_locks
WHERE locktype = 'advisory' AND pid = pg_backend_pid();
SELECT idscheme_next('snowflake') ~ '^[0-9]+$' AS made;
SELECT objid AS node FROM pg_locks
WHERE locktype = 'advisory' AND pid = pg_backend_pid() ORDER BY objid;
RESET idscheme.node;
SELECT idscheme_next('snowflake') ~ '^[0-9]+$' AS made,
       idscheme_next('tsid') IS NOT NULL AS made;
SELECT count(*) AS locks FROM pg_locks
WHERE locktype = 'advisory' AND pid = pg_backend_pid();
-- waits: idscheme.max_wait_ms bounds each (0: never wait), a wait that
-- would pass it fails at once with 55P03; statement_timeout and
-- lock_timeout bound it too
SHOW idscheme.max_wait_ms;
SHOW idscheme.slot_ttl_ms;
SET idscheme.max_wait_ms = -1;
SET idscheme.max_wait_ms = '2min';
SHOW idscheme.max_wait_ms;
-- two IDs a second: the third of a second waits, which max_wait_ms = 0
-- refuses
INSERT INTO idscheme_defined VALUES ('two_a_second', '{"fields": [
  {"name": "timestamp", "kind": "time", "bits": 40, "unit": "s"},
  {"name": "node", "kind": "node", "bits": 4},
  {"name": "sequence", "kind": "sequence", "bits": 1}]}');
SET idscheme.node = 3;
SET idscheme.max_wait_ms = 0;
DO $$
BEGIN
  FOR i IN 1..10 LOOP
    PERFORM idscheme_next('two_a_second');
  END LOOP;
EXCEPTION WHEN OTHERS THEN
  RAISE NOTICE '% %', SQLSTATE, regexp_replace(SQLERRM, '[0-9.]+ s ', 'N s ');
END $$;
RESET idscheme.max_wait_ms;
RESET idscheme.node;
DELETE FROM idscheme_defined WHERE name = 'two_a_second';
-- idscheme.slots may hold a store's password: a role that is neither a
-- superuser nor a member of pg_read_all_settings reads it nowhere
CREATE ROLE regress_idscheme_plain;
CREATE ROLE regress_idscheme_reader IN ROLE pg_read_all_settings;
SET idscheme.slots = 'redis://admin:s3cret@127.0.0.1:1/x';
SET ROLE regress_idscheme_plain;
SHOW idscheme.slots;
SELECT current_setting('idscheme.slots');
SELECT current_setting('idscheme.slots', true);
SELECT name FROM pg_settings WHERE name LIKE 'idscheme.%' ORDER BY name;
SHOW idscheme.policy;
RESET ROLE;
SET ROLE regress_idscheme_reader;
SHOW idscheme.slots;
SELECT setting FROM pg_settings WHERE name = 'idscheme.slots';
RESET ROLE;
SHOW idscheme.slots;
RESET idscheme.slots;
DROP ROLE regress_idscheme_plain;
DROP ROLE regress_idscheme_reader;
