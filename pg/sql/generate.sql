-- generate: IDs of every scheme as text, bigint and uuid; distinct and in
-- order; refusals name the scheme and say what to use instead.
SET idscheme.slots = 'none';
SET idscheme.node = 5;

-- every scheme generates as text in its default encoding and decodes back
-- (uuidv3, uuidv5 and the nil and max UUIDs are made, not generated)
SELECT name, idscheme_convert(name, id, (encodings)[1]) = id AS round_trip,
       length(id) > 0 AS nonempty
FROM idscheme_schemes(), LATERAL idscheme_next(name) AS id
WHERE name NOT IN ('uuidv3', 'uuidv5', 'uuidnil', 'uuidmax')
ORDER BY name;

-- bigint: distinct and increasing, within one statement and across
CREATE TEMP TABLE b AS
SELECT i, idscheme_next_bigint('snowflake') AS id
FROM generate_series(1, 10000) AS i;
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       bool_and(id > 0) AS positive FROM b;
SELECT count(*) AS out_of_order
FROM (SELECT id, lag(id) OVER (ORDER BY i) AS prev FROM b) s
WHERE id <= prev;
-- the node given by hand is in every ID (snowflake's worker and shard:
-- 5 is shard 5 of worker 0, the least significant last)
SELECT DISTINCT idscheme_fields('snowflake', id) - 'timestamp' - 'sequence'
       AS node FROM b;

-- uuid: the 128-bit schemes
SELECT idscheme_text('uuidv7', idscheme_next_uuid('uuidv7')) ~
       '^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'
       AS uuidv7_form;
SELECT count(DISTINCT u) AS distinct_ulids
FROM (SELECT idscheme_next_uuid('ulid') AS u FROM generate_series(1, 1000)) s;
-- a column default
CREATE TEMP TABLE t (id bigint PRIMARY KEY DEFAULT idscheme_next_bigint('tsid'),
                     u uuid DEFAULT idscheme_next_uuid('ulid'), x int);
INSERT INTO t (x) SELECT generate_series(1, 1000);
SELECT count(*), count(DISTINCT id), count(DISTINCT u) FROM t;

-- other encodings; an alias names its scheme
SELECT idscheme_next('snowflake', 'hex') ~ '^[0-9a-f]{16}$' AS hex;
SELECT idscheme_next('discord') ~ '^[0-9]+$' AS discord_is_snowflake;
SELECT idscheme_next('mongo') ~ '^[0-9a-f]{24}$' AS objectid;
SELECT idscheme_next(NULL) IS NULL AS null_in_null_out;
SELECT (idscheme_generator('snowflake')).slot IS NULL AS no_slot_by_hand;

-- refusals
SELECT idscheme_next('nosuch');
SELECT idscheme_next('');
SELECT idscheme_next(repeat('x', 100));
SELECT idscheme_next('uuid');
SELECT idscheme_next('snowflake', 'base99');
SELECT idscheme_next_bigint('ulid');
SELECT idscheme_next_bigint('siq');
SELECT idscheme_next_uuid('snowflake');
SELECT idscheme_next('uuidv5');
