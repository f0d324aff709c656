-- idscheme--0.2.0--0.3.0.sql: ALTER EXTENSION idscheme UPDATE from 0.2.0
-- (the first packaged version).  It makes what idscheme--0.3.0.sql makes
-- beyond 0.2.0's objects (spec/pg/admin.sh compares an updated database
-- with a new one).
\echo Use "ALTER EXTENSION idscheme UPDATE" to load this file. \quit

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
