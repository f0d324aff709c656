-- idscheme--0.3.0.sql: the SQL face of libidscheme (docs/POSTGRESQL.md).
-- Installed from 0.2.0 by idscheme--0.2.0--0.3.0.sql, which must make the
-- same objects (spec/pg/admin.sh compares the two).
\echo Use "CREATE EXTENSION idscheme" to load this file. \quit

-- ------------------------------------------------------------- generate
-- A generator per scheme is made in each backend at its first call; its
-- node fields come from a slot (idscheme.slots) unless idscheme.node
-- gives them.  VOLATILE: every call is a new ID.  PARALLEL RESTRICTED: the
-- leader makes them, so a parallel query claims no slot per worker.
CREATE FUNCTION idscheme_next(scheme text, encoding text DEFAULT NULL)
RETURNS text AS 'MODULE_PATHNAME', 'idscheme_next'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

CREATE FUNCTION idscheme_next_bigint(scheme text)
RETURNS bigint AS 'MODULE_PATHNAME', 'idscheme_next_bigint'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

CREATE FUNCTION idscheme_next_uuid(scheme text)
RETURNS uuid AS 'MODULE_PATHNAME', 'idscheme_next_uuid'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

-- An ID whose time is `at` (backfills, tests, range keys): a random
-- layout's fresh bits beside it; a layout with a sequence alone (the
-- bigint schemes) counts a sequence of its own in this backend's
-- generator, for past times given in order, its node given by hand
-- (docs/POSTGRESQL.md, IDs for a given time).  VOLATILE: two calls with
-- one `at` give two IDs.
CREATE FUNCTION idscheme_next(scheme text, at timestamptz, encoding text DEFAULT NULL)
RETURNS text AS 'MODULE_PATHNAME', 'idscheme_next_at'
LANGUAGE C VOLATILE PARALLEL RESTRICTED;

CREATE FUNCTION idscheme_next_bigint(scheme text, at timestamptz)
RETURNS bigint AS 'MODULE_PATHNAME', 'idscheme_next_bigint_at'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

CREATE FUNCTION idscheme_next_uuid(scheme text, at timestamptz)
RETURNS uuid AS 'MODULE_PATHNAME', 'idscheme_next_uuid_at'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

-- What this backend's generator of a scheme holds: its slot and store.
CREATE FUNCTION idscheme_generator(scheme text,
  OUT slot integer, OUT store text, OUT backend text)
RETURNS record AS 'MODULE_PATHNAME', 'idscheme_generator'
LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

-- ----------------------------------------------------------------- read
-- STABLE, not IMMUTABLE: a defined scheme's layout is a row of
-- idscheme_defined (the IMMUTABLE ones of shipped schemes: below).
CREATE FUNCTION idscheme_time(scheme text, id text, encoding text DEFAULT NULL)
RETURNS timestamptz AS 'MODULE_PATHNAME', 'idscheme_time'
LANGUAGE C STABLE PARALLEL SAFE;

CREATE FUNCTION idscheme_time(scheme text, id bigint)
RETURNS timestamptz AS 'MODULE_PATHNAME', 'idscheme_time'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

CREATE FUNCTION idscheme_time(scheme text, id uuid)
RETURNS timestamptz AS 'MODULE_PATHNAME', 'idscheme_time'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

CREATE FUNCTION idscheme_fields(scheme text, id text, encoding text DEFAULT NULL)
RETURNS jsonb AS 'MODULE_PATHNAME', 'idscheme_fields'
LANGUAGE C STABLE PARALLEL SAFE;

CREATE FUNCTION idscheme_fields(scheme text, id bigint)
RETURNS jsonb AS 'MODULE_PATHNAME', 'idscheme_fields'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

CREATE FUNCTION idscheme_fields(scheme text, id uuid)
RETURNS jsonb AS 'MODULE_PATHNAME', 'idscheme_fields'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

-- Text in one encoding (NULL: as the scheme detects it) to another.
CREATE FUNCTION idscheme_convert(scheme text, id text, "to" text,
                                 "from" text DEFAULT NULL)
RETURNS text AS 'MODULE_PATHNAME', 'idscheme_convert'
LANGUAGE C STABLE PARALLEL SAFE;

CREATE FUNCTION idscheme_bigint(scheme text, id text, encoding text DEFAULT NULL)
RETURNS bigint AS 'MODULE_PATHNAME', 'idscheme_bigint'
LANGUAGE C STABLE PARALLEL SAFE;

CREATE FUNCTION idscheme_uuid(scheme text, id text, encoding text DEFAULT NULL)
RETURNS uuid AS 'MODULE_PATHNAME', 'idscheme_uuid'
LANGUAGE C STABLE PARALLEL SAFE;

CREATE FUNCTION idscheme_text(scheme text, id bigint, encoding text DEFAULT NULL)
RETURNS text AS 'MODULE_PATHNAME', 'idscheme_text'
LANGUAGE C STABLE PARALLEL SAFE;

CREATE FUNCTION idscheme_text(scheme text, id uuid, encoding text DEFAULT NULL)
RETURNS text AS 'MODULE_PATHNAME', 'idscheme_text'
LANGUAGE C STABLE PARALLEL SAFE;

-- The same readings as IMMUTABLE functions, for generated columns and
-- expression indexes: a shipped scheme's layout never changes, so they
-- read the shipped schemes only (by name, or by an alias of shipped
-- schemes), never a row of idscheme_defined, which may be deleted and
-- written again with another layout.
CREATE FUNCTION idscheme_time_shipped(scheme text, id text, encoding text DEFAULT NULL)
RETURNS timestamptz AS 'MODULE_PATHNAME', 'idscheme_time_shipped'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION idscheme_time_shipped(scheme text, id bigint)
RETURNS timestamptz AS 'MODULE_PATHNAME', 'idscheme_time_shipped'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION idscheme_time_shipped(scheme text, id uuid)
RETURNS timestamptz AS 'MODULE_PATHNAME', 'idscheme_time_shipped'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION idscheme_fields_shipped(scheme text, id text, encoding text DEFAULT NULL)
RETURNS jsonb AS 'MODULE_PATHNAME', 'idscheme_fields_shipped'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION idscheme_fields_shipped(scheme text, id bigint)
RETURNS jsonb AS 'MODULE_PATHNAME', 'idscheme_fields_shipped'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION idscheme_fields_shipped(scheme text, id uuid)
RETURNS jsonb AS 'MODULE_PATHNAME', 'idscheme_fields_shipped'
LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION idscheme_convert_shipped(scheme text, id text, "to" text,
                                         "from" text DEFAULT NULL)
RETURNS text AS 'MODULE_PATHNAME', 'idscheme_convert_shipped'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION idscheme_bigint_shipped(scheme text, id text, encoding text DEFAULT NULL)
RETURNS bigint AS 'MODULE_PATHNAME', 'idscheme_bigint_shipped'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION idscheme_uuid_shipped(scheme text, id text, encoding text DEFAULT NULL)
RETURNS uuid AS 'MODULE_PATHNAME', 'idscheme_uuid_shipped'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION idscheme_text_shipped(scheme text, id bigint, encoding text DEFAULT NULL)
RETURNS text AS 'MODULE_PATHNAME', 'idscheme_text_shipped'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION idscheme_text_shipped(scheme text, id uuid, encoding text DEFAULT NULL)
RETURNS text AS 'MODULE_PATHNAME', 'idscheme_text_shipped'
LANGUAGE C IMMUTABLE PARALLEL SAFE;

-- The key range of "made between two instants":
--   WHERE id BETWEEN idscheme_lo_bigint('snowflake', t0)
--                AND idscheme_hi_bigint('snowflake', t1)
CREATE FUNCTION idscheme_lo_bigint(scheme text, at timestamptz)
RETURNS bigint AS 'MODULE_PATHNAME', 'idscheme_lo_bigint'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

CREATE FUNCTION idscheme_hi_bigint(scheme text, at timestamptz)
RETURNS bigint AS 'MODULE_PATHNAME', 'idscheme_hi_bigint'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

CREATE FUNCTION idscheme_lo_uuid(scheme text, at timestamptz)
RETURNS uuid AS 'MODULE_PATHNAME', 'idscheme_lo_uuid'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

CREATE FUNCTION idscheme_hi_uuid(scheme text, at timestamptz)
RETURNS uuid AS 'MODULE_PATHNAME', 'idscheme_hi_uuid'
LANGUAGE C STABLE STRICT PARALLEL SAFE;

-- Which scheme wrote this text?  Every reading, best first; none if no
-- scheme decodes it.  schemes: a comma list of names and aliases to
-- narrow the field ('discord,twitter').
CREATE FUNCTION idscheme_inspect(id text, schemes text DEFAULT NULL,
  OUT rank integer, OUT scheme text, OUT encoding text,
  OUT "time" timestamptz, OUT plausible boolean, OUT ambiguous boolean,
  OUT fields jsonb)
RETURNS SETOF record AS 'MODULE_PATHNAME', 'idscheme_inspect'
LANGUAGE C STABLE PARALLEL SAFE ROWS 4;

-- Every scheme this backend knows: the shipped ones and the defined rows.
CREATE FUNCTION idscheme_schemes(
  OUT name text, OUT bits integer, OUT encodings text[], OUT title text,
  OUT aliases text[], OUT epoch timestamptz, OUT unit text,
  OUT defined boolean)
RETURNS SETOF record AS 'MODULE_PATHNAME', 'idscheme_schemes'
LANGUAGE C STABLE PARALLEL SAFE;

-- --------------------------------------------------------------- define
-- A scheme defined here is a row: spec is the table idscheme.define takes
-- in Lua, as JSON ({"fields": [{"name": ..., "kind": ..., "bits": ...}],
-- "encodings": [...], ...}); its "name", if given, must be the row's.
-- Rows are checked as they are written, and kept by pg_dump.  A layout
-- does not change once written: its IDs would read differently.
CREATE TABLE idscheme_defined (
  name text PRIMARY KEY,
  spec jsonb NOT NULL
);
SELECT pg_catalog.pg_extension_config_dump('idscheme_defined', '');

CREATE FUNCTION idscheme_defined_check() RETURNS trigger
AS 'MODULE_PATHNAME', 'idscheme_defined_check' LANGUAGE C;

CREATE TRIGGER idscheme_defined_check
BEFORE INSERT OR UPDATE ON idscheme_defined
FOR EACH ROW EXECUTE FUNCTION idscheme_defined_check();

-- a row deleted, or the table truncated: every backend is told
CREATE TRIGGER idscheme_defined_changed
AFTER DELETE OR TRUNCATE ON idscheme_defined
FOR EACH STATEMENT EXECUTE FUNCTION idscheme_defined_check();
