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
