-- next_at: IDs for a given time, idscheme_next(scheme, at [, encoding]),
-- idscheme_next_bigint(scheme, at) and idscheme_next_uuid(scheme, at): the
-- time read back from each ID is `at` to the scheme's precision, calls
-- with one `at` give distinct IDs, and a time the scheme cannot hold is
-- refused quoting it.
SET timezone = 'UTC';
SET datestyle = 'ISO, YMD';
SET idscheme.slots = 'none';
SET idscheme.node = 9;

-- VOLATILE: every call a new ID
SELECT p.proname, pg_get_function_identity_arguments(p.oid) AS args,
       p.provolatile, p.proparallel, p.proisstrict
FROM pg_proc p WHERE p.proname LIKE 'idscheme\_next%' ORDER BY 1, 2;

CREATE TEMP TABLE times (at timestamptz);
INSERT INTO times VALUES ('2017-01-01 00:00:00.123456+00'),
  ('2020-02-29 23:59:59.999999+00'), ('2024-06-01 12:34:56.7891+00');

-- text, the layouts with a random part: each time back to the millisecond
-- (a KSUID's to the second; UUIDv1's and v6's 100 ns ticks hold the ms)
SELECT name, count(*) AS ids,
       bool_and(idscheme_time(name, id) =
                date_trunc(CASE name WHEN 'ksuid' THEN 'second'
                                     ELSE 'milliseconds' END, at)) AS time_is_at
FROM unnest(ARRAY['ulid', 'uuidv7', 'typeid', 'timeflake', 'pushid', 'flax',
                  'ksuid', 'uuidv1', 'uuidv6']) AS name,
     times, LATERAL idscheme_next(name, at) AS id
GROUP BY name ORDER BY name;
-- in another encoding, read back in it
SELECT bool_and(idscheme_time('ulid', idscheme_next('ulid', at, 'uuid'), 'uuid') =
                date_trunc('milliseconds', at)) AS ulid_as_uuid
FROM times;
-- floored, before 1970 too (a UUIDv1's epoch is 1582)
SELECT idscheme_time('uuidv1', idscheme_next_uuid('uuidv1',
                     '1969-12-31 23:59:59.9995+00')) AS before_1970;

-- uuid
SELECT bool_and(idscheme_time('uuidv7', idscheme_next_uuid('uuidv7', at)) =
                date_trunc('milliseconds', at)) AS uuidv7_time_is_at,
       bool_and(idscheme_time('ulid', idscheme_next_uuid('ulid', at)) =
                date_trunc('milliseconds', at)) AS ulid_time_is_at
FROM times;

-- one `at`, many calls: distinct IDs of that time
SELECT count(*) AS ids, count(DISTINCT id) AS distinct_ids,
       bool_and(idscheme_time('uuidv7', id) = '2017-01-01 00:00:00.123+00')
         AS all_at
FROM (SELECT idscheme_next_uuid('uuidv7', '2017-01-01 00:00:00.123456+00') AS id
      FROM generate_series(1, 2000)) s;
SELECT idscheme_next('ulid', timestamptz '2017-01-01 00:00:00Z') <>
       idscheme_next('ulid', timestamptz '2017-01-01 00:00:00Z') AS two_ulids;

-- bigint: a layout with a sequence alone, its node given (idscheme.node),
-- counts a sequence of its own for each time, which must not go back in
-- the backend's generator: one statement per scheme, times in order
SELECT idscheme_time('snowflake', idscheme_next_bigint('snowflake',
                     '2024-06-01 12:34:56.7891+00')) AS snowflake_ms;
SELECT idscheme_time('sonyflake', idscheme_next_bigint('sonyflake',
                     '2024-06-01 12:34:56.7891+00')) AS sonyflake_10ms;
SELECT idscheme_time('twitter', idscheme_next_bigint('twitter',
                     '2024-06-01 12:34:56.7891+00')) AS twitter_ms;
SELECT idscheme_time('tsid', idscheme_next_bigint('tsid',
                     '2024-06-01 12:34:56.7891+00')) AS tsid_ms;
-- two calls with one `at`: two IDs, both of that time, the node given
CREATE TEMP TABLE two AS
SELECT idscheme_next_bigint('snowflake', '2024-06-01 12:34:57.5+00') AS a,
       idscheme_next_bigint('snowflake', '2024-06-01 12:34:57.5+00') AS b;
SELECT a <> b AS distinct_ids,
       idscheme_time('snowflake', a) = '2024-06-01 12:34:57.5+00' AND
       idscheme_time('snowflake', b) = '2024-06-01 12:34:57.5+00' AS both_at,
       (idscheme_fields('snowflake', a) - 'timestamp' - 'sequence') =
       (idscheme_fields('snowflake', b) - 'timestamp' - 'sequence') AS one_node
FROM two;
-- a millisecond's 4096 IDs (a 12-bit sequence), all distinct, then it is
-- spent
SELECT count(DISTINCT idscheme_next_bigint('snowflake', '2024-06-01 12:35:00+00'))
       AS distinct_ids FROM generate_series(1, 4096);
SELECT idscheme_next_bigint('snowflake', '2024-06-01 12:35:00+00');
-- a time before the last one given, with no random part to tell them apart
SELECT idscheme_next_bigint('snowflake', '2024-06-01 12:34:56+00');
-- the present is idscheme_next_bigint(scheme)'s: a time not in the past
-- (before the generator was made) is refused
SELECT idscheme_next_bigint('snowflake', '2100-01-01 00:00:00+00');

-- refusals: a time the scheme cannot hold (quoted as the session writes
-- it), no time at all, no time field, the wrong width, a leased node
SELECT idscheme_next_bigint('snowflake', '2014-12-31 23:59:59.999+00');
SELECT idscheme_next('ulid', timestamptz '1969-12-31 23:59:59.999+00');
SELECT idscheme_next_uuid('uuidv7', 'infinity');
SELECT idscheme_next('ulid', timestamptz '-infinity');
SELECT idscheme_next_uuid('uuidv4', '2017-01-01 00:00:00+00');
SELECT idscheme_next('objectid', timestamptz '2017-01-01 00:00:00+00');
SELECT idscheme_next_bigint('ulid', '2017-01-01 00:00:00+00');
SELECT idscheme_next_uuid('snowflake', '2017-01-01 00:00:00+00');
SELECT idscheme_next('nosuch', timestamptz '2017-01-01 00:00:00+00');
SELECT idscheme_next('ulid', timestamptz '2017-01-01 00:00:00+00', 'base99');
-- a time written as untyped text is taken for an encoding: the hint says
-- to type it
SELECT idscheme_next('ulid', '2017-01-01 00:00:00+00');
SELECT idscheme_next('ulid', NULL::timestamptz) IS NULL AS null_at,
       idscheme_next_bigint('snowflake', NULL) IS NULL AS null_bigint,
       idscheme_next_uuid(NULL, now()) IS NULL AS null_scheme;
SET idscheme.node = -1;
SET idscheme.slots = 'local';
SELECT idscheme_next_bigint('snowflake', '2024-06-01 12:36:00+00');
-- with slots on, a random layout (no node field) makes them as before
SELECT idscheme_time('ulid', idscheme_next('ulid', timestamptz '2024-06-01 12:36:00+00'))
       AS leased_ulid;
