-- immutable: the readings of shipped schemes as IMMUTABLE functions
-- (idscheme_*_shipped), in generated columns and expression indexes; the
-- STABLE ones (which read defined layouts too) are refused there.
SET timezone = 'UTC';
SET idscheme.slots = 'none';
SET idscheme.node = 11;
SELECT p.proname, pg_get_function_identity_arguments(p.oid) AS args,
       p.provolatile, p.proparallel, p.proisstrict
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idscheme'
WHERE p.provolatile = 'i' ORDER BY 1, 2;
-- the same results as the STABLE ones
SELECT idscheme_time_shipped('snowflake', 175928847299117063::bigint) =
       idscheme_time('snowflake', 175928847299117063::bigint) AS time_bigint,
       idscheme_time_shipped('uuidv7', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid) =
       idscheme_time('uuidv7', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid) AS time_uuid,
       idscheme_time_shipped('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAV') =
       idscheme_time('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAV') AS time_text,
       idscheme_fields_shipped('objectid', '507f1f77bcf86cd799439011') =
       idscheme_fields('objectid', '507f1f77bcf86cd799439011') AS fields,
       idscheme_convert_shipped('snowflake', '271065ac1020007', 'dec', 'hex') AS convert,
       idscheme_bigint_shipped('snowflake', '271065ac1020007', 'hex') AS bigint,
       idscheme_uuid_shipped('ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAV') AS uuid,
       idscheme_text_shipped('ulid', '01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid) AS text_uuid,
       idscheme_text_shipped('snowflake', 175928847299117063, 'hex') AS text_bigint;
SELECT idscheme_time_shipped('uuidv4', '919108f7-52d1-4320-9bac-f847db4148a8'::uuid)
       IS NULL AS no_time,
       idscheme_time_shipped(NULL, 1::bigint) IS NULL AS null_in_null_out;
-- a generated column and an expression index
CREATE TABLE orders (
  id bigint PRIMARY KEY DEFAULT idscheme_next_bigint('snowflake'),
  made timestamptz GENERATED ALWAYS AS (idscheme_time_shipped('snowflake', id)) STORED,
  ref text, x int);
CREATE INDEX orders_ref_time ON orders (idscheme_time_shipped('ulid', ref));
INSERT INTO orders (ref, x) SELECT idscheme_next('ulid'), i FROM generate_series(1, 500) i;
INSERT INTO orders (id, ref) VALUES (175928847299117063, '01ARZ3NDEKTSV4RRFFQ69G5FAV');
SELECT made FROM orders WHERE id = 175928847299117063;
SELECT count(*) = 500 AS all_now FROM orders
WHERE made BETWEEN now() - '1 hour'::interval AND now() + '1 hour'::interval;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT x FROM orders
WHERE idscheme_time_shipped('ulid', ref) < '2017-01-01';
SELECT x IS NULL AS the_old_one FROM orders
WHERE idscheme_time_shipped('ulid', ref) < '2017-01-01';
RESET enable_seqscan;
-- an ID its scheme refuses is refused as the row is written
INSERT INTO orders (id) VALUES (-5);
INSERT INTO orders (id, ref) VALUES (1, 'not a ulid');
-- the STABLE ones cannot be used there
CREATE TABLE refused (id bigint,
  made timestamptz GENERATED ALWAYS AS (idscheme_time('snowflake', id)) STORED);
CREATE INDEX ON orders (idscheme_time('ulid', ref));
-- a defined layout is refused by the IMMUTABLE ones, with the way out
INSERT INTO idscheme_defined VALUES ('imm48', '{"fields": [
  {"name": "timestamp", "kind": "time", "bits": 32, "unit": "s", "epoch": 1600000000000},
  {"name": "node", "kind": "node", "bits": 4},
  {"name": "sequence", "kind": "sequence", "bits": 12}]}');
SELECT idscheme_time('imm48', 123456789012345::bigint) AS stable_reads_it;
SELECT idscheme_time_shipped('imm48', 123456789012345::bigint);
CREATE TABLE defined_refused (id bigint DEFAULT idscheme_next_bigint('imm48'),
  made timestamptz GENERATED ALWAYS AS (idscheme_time_shipped('imm48', id)) STORED);
INSERT INTO defined_refused DEFAULT VALUES;
DROP TABLE defined_refused;
DELETE FROM idscheme_defined WHERE name = 'imm48';
-- in a new session: the index and the column still read alike
\c
SET timezone = 'UTC';
SET enable_seqscan = off;
SELECT count(*) AS by_index FROM orders
WHERE idscheme_time_shipped('ulid', ref) >= now() - '1 hour'::interval;
INSERT INTO orders (id) VALUES (1050118621198921728) RETURNING made;
DROP TABLE orders;
