-- define: layouts as rows of idscheme_defined, checked as written.
SET timezone = 'UTC';
SET idscheme.slots = 'none';
SET idscheme.node = 3;
INSERT INTO idscheme_defined VALUES ('tick48', '{
  "fields": [
    {"name": "timestamp", "kind": "time", "bits": 32, "unit": "s",
     "epoch": 1600000000000},
    {"name": "node", "kind": "node", "bits": 4},
    {"name": "sequence", "kind": "sequence", "bits": 12}],
  "encodings": ["dec", "hex"],
  "about": {"title": "a 48-bit test layout", "aliases": ["t48"]}}');
SELECT name, bits, encodings, title, aliases, epoch, unit, defined
FROM idscheme_schemes() WHERE defined;
SELECT idscheme_next('tick48', 'hex') ~ '^[0-9a-f]{12}$' AS hex;
SELECT count(DISTINCT idscheme_next_bigint('tick48')) FROM generate_series(1, 100);
SELECT idscheme_fields('tick48', 123456789012345::bigint);
SELECT idscheme_time('t48', '123456789012345');
SELECT idscheme_fields('tick48', idscheme_next_bigint('tick48')) ->> 'node' AS node;
SELECT scheme FROM idscheme_inspect('123456789012345', 'tick48');

-- the same checks and messages as idscheme.define
INSERT INTO idscheme_defined VALUES ('bad1', '{"fields": [], "color": 1}');
INSERT INTO idscheme_defined VALUES ('bad2', '{"fields": [{"name": "t", "kind": "time", "bits": 32, "colour": 1}]}');
INSERT INTO idscheme_defined VALUES ('bad3', '{"fields": [{"name": "t", "kind": "time", "bits": 1.5}]}');
INSERT INTO idscheme_defined VALUES ('bad4', '{"fields": [{"name": "t", "kind": "clock", "bits": 32}]}');
INSERT INTO idscheme_defined VALUES ('bad5', '{"fields": [{"name": "t", "kind": "time", "bits": 32}, {"name": "s", "kind": "sequence", "bits": 200}]}');
INSERT INTO idscheme_defined VALUES ('bad6', '{"fields": {"name": "t"}}');
INSERT INTO idscheme_defined VALUES ('bad7', '{"fields": [{"name": "t", "kind": "time", "bits": 48}], "encodings": ["base99"]}');
INSERT INTO idscheme_defined VALUES ('bad8', '{"fields": [{"name": "t", "kind": "time", "bits": 32}], "about": {"lengths": [1]}}');
INSERT INTO idscheme_defined VALUES ('bad9', '[1, 2]');
INSERT INTO idscheme_defined VALUES ('bad10', '{"name": "other", "fields": [{"name": "t", "kind": "time", "bits": 32}]}');
INSERT INTO idscheme_defined VALUES ('snowflake', '{"fields": [{"name": "t", "kind": "time", "bits": 48}]}');
INSERT INTO idscheme_defined VALUES ('t1', '{"fields": [{"name": "t", "kind": "time", "bits": 48}, {"name": "s", "kind": "sequence", "bits": 16}], "bytes": 1}');
INSERT INTO idscheme_defined VALUES ('', '{"fields": []}');
SELECT count(*) AS rows FROM idscheme_defined;
-- a rolled-back row is not a scheme
BEGIN;
INSERT INTO idscheme_defined VALUES ('gone', '{"fields": [{"name": "t", "kind": "time", "bits": 48}, {"name": "seq", "kind": "sequence", "bits": 8}]}');
SELECT idscheme_next('gone') ~ '^[0-9]+$' AS usable_in_its_transaction;
ROLLBACK;
SELECT idscheme_next('gone');
-- a layout does not change in place
UPDATE idscheme_defined SET spec = jsonb_set(spec, '{encodings}', '["hex"]')
WHERE name = 'tick48';
UPDATE idscheme_defined SET name = 'tick49' WHERE name = 'tick48';
-- a deleted row's scheme is gone
DELETE FROM idscheme_defined WHERE name = 'tick48';
SELECT idscheme_next('tick48');
SELECT count(*) FROM idscheme_schemes() WHERE defined;
-- a session that used a layout and deleted its row: a bad spec written
-- under the name says what is wrong with it, the same layout (however
-- spelled) is taken again, and only another good one is refused as a
-- layout this session keeps
INSERT INTO idscheme_defined VALUES ('again', '{"fields": [{"name": "t", "kind": "time", "bits": 48}, {"name": "s", "kind": "sequence", "bits": 16}]}');
SELECT idscheme_next('again') ~ '^[0-9]+$' AS used;
DELETE FROM idscheme_defined WHERE name = 'again';
INSERT INTO idscheme_defined VALUES ('again', '{"fields": [{"name": "t", "kind": "clock", "bits": 48}]}');
INSERT INTO idscheme_defined VALUES ('again', '{"fields": [{"name": "t", "kind": "time", "bits": 48}, {"name": "s", "kind": "sequence", "bits": 200}]}');
INSERT INTO idscheme_defined VALUES ('again', '{"fields": [{"name": "t", "kind": "time", "bits": 48}], "colour": 1}');
INSERT INTO idscheme_defined VALUES ('again', '{"fields": [{"name": "t", "kind": "time", "bits": 44}, {"name": "s", "kind": "sequence", "bits": 20}]}');
INSERT INTO idscheme_defined VALUES ('again', '{"fields": [{"name": "t", "kind": "time", "bits": 48.0}, {"name": "s", "kind": "sequence", "bits": 16}]}');
SELECT idscheme_next('again') ~ '^[0-9]+$' AS used_again;
DELETE FROM idscheme_defined WHERE name = 'again';
