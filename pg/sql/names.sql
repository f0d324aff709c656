-- names: every function that takes a scheme takes its name, an alias that
-- one scheme answers to (the names the command takes: discord, mongo,
-- bson, firebase) or a defined row's name or alias; an alias of several
-- (uuid) is refused, the error naming them.
SET timezone = 'UTC';
SET idscheme.slots = 'none';
SET idscheme.node = 9;
SELECT name, aliases FROM idscheme_schemes()
WHERE cardinality(aliases) > 0 AND aliases <> '{uuid}' ORDER BY name;
-- generate
SELECT idscheme_next('discord') ~ '^[0-9]+$' AS discord,
       idscheme_next('mongo') ~ '^[0-9a-f]{24}$' AS mongo,
       idscheme_next('bson') ~ '^[0-9a-f]{24}$' AS bson,
       idscheme_next('firebase') ~ '^[-0-9A-Za-z_]{20}$' AS firebase,
       idscheme_next_bigint('discord') > 0 AS next_bigint;
SELECT (idscheme_generator('discord')).slot IS NULL AS generator_by_hand;
-- read: the alias reads as its scheme does
SELECT idscheme_time('discord', 175928847299117063::bigint) =
       idscheme_time('snowflake', 175928847299117063::bigint) AS time_bigint,
       idscheme_time('discord', '175928847299117063') =
       idscheme_time('snowflake', '175928847299117063') AS time_text,
       idscheme_fields('discord', 175928847299117063::bigint) =
       idscheme_fields('snowflake', 175928847299117063::bigint) AS fields,
       idscheme_time('mongo', '507f1f77bcf86cd799439011') AS mongo_time,
       idscheme_fields('bson', '507f1f77bcf86cd799439011') ->> 'timestamp'
         AS bson_timestamp;
SELECT idscheme_convert('discord', '175928847299117063', 'hex') AS convert,
       idscheme_bigint('discord', '271065ac1020007', 'hex') AS bigint,
       idscheme_text('discord', 175928847299117063, 'hex') AS text;
SELECT idscheme_lo_bigint('discord', '2016-04-30 11:18:25.796+00') =
       idscheme_lo_bigint('snowflake', '2016-04-30 11:18:25.796+00') AS lo,
       idscheme_hi_bigint('discord', '2016-04-30 11:18:25.796+00') =
       idscheme_hi_bigint('snowflake', '2016-04-30 11:18:25.796+00') AS hi;
SELECT idscheme_time('firebase', idscheme_next('firebase')) > now() - '1 minute'::interval
       AS firebase_time;
-- the IMMUTABLE ones take them too
SELECT idscheme_time_shipped('discord', 175928847299117063::bigint) AS shipped_time,
       idscheme_fields_shipped('mongo', '507f1f77bcf86cd799439011') ->> 'counter'
         AS shipped_counter,
       idscheme_text_shipped('discord', 175928847299117063, 'hex') AS shipped_text;
-- inspect's list
SELECT rank, scheme FROM idscheme_inspect('507f1f77bcf86cd799439011', 'mongo,discord');
-- twitter has no alias: its name
SELECT idscheme_time('twitter', 1050118621198921728) AS twitter;
-- an alias of several: refused everywhere, naming them
SELECT idscheme_next('uuid');
SELECT idscheme_next_uuid('uuid');
SELECT idscheme_time('uuid', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid);
SELECT idscheme_time_shipped('uuid', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid);
SELECT idscheme_lo_uuid('uuid', now());
-- a defined row's alias, in a session that has not used the row yet
INSERT INTO idscheme_defined VALUES ('names48', '{"fields": [
  {"name": "timestamp", "kind": "time", "bits": 32, "unit": "s", "epoch": 1600000000000},
  {"name": "node", "kind": "node", "bits": 4},
  {"name": "sequence", "kind": "sequence", "bits": 12}],
  "about": {"aliases": ["n48"]}}');
\c
SET timezone = 'UTC';
SELECT idscheme_time('n48', 123456789012345::bigint) AS alias_fresh_session;
\c
SELECT scheme FROM idscheme_inspect('123456789012345', 'n48');
\c
SET idscheme.slots = 'none';
SET idscheme.node = 9;
SELECT idscheme_fields('n48', idscheme_next_bigint('n48')) ->> 'node' AS node;
-- the IMMUTABLE ones never read a row, by name or alias
SELECT idscheme_time_shipped('n48', 123456789012345::bigint);
SELECT idscheme_time_shipped('names48', 123456789012345::bigint);
-- a defined alias that a shipped scheme answers to: the STABLE functions
-- say it names both, the IMMUTABLE ones read the shipped scheme alone
INSERT INTO idscheme_defined VALUES ('names_discord', '{"fields": [
  {"name": "timestamp", "kind": "time", "bits": 48},
  {"name": "sequence", "kind": "sequence", "bits": 16}],
  "about": {"aliases": ["discord"]}}');
\c
SET timezone = 'UTC';
SELECT idscheme_time('discord', 175928847299117063::bigint);
SELECT idscheme_time_shipped('discord', 175928847299117063::bigint) AS shipped_alias;
DELETE FROM idscheme_defined WHERE name = 'names_discord';
SELECT idscheme_time('discord', 175928847299117063::bigint) AS alias_again;
DELETE FROM idscheme_defined WHERE name = 'names48';
SELECT idscheme_time('n48', 123456789012345::bigint);
-- one call site given a name that raises between good ones (a lookup that
-- raised keeps no name: the next call looks up again)
DO $$
DECLARE n text; t timestamptz;
BEGIN
  FOREACH n IN ARRAY ARRAY['snowflake', 'nosuch', 'snowflake', 'uuid',
                           'discord', 'discord', 'n48', 'twitter'] LOOP
    BEGIN
      t := idscheme_time(n, 175928847299117063::bigint);
      RAISE NOTICE '% %', n, t;
    EXCEPTION WHEN OTHERS THEN
      RAISE NOTICE '% %', n, SQLSTATE;
    END;
  END LOOP;
END $$;
