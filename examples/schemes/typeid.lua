-- TypeID (jetify): a UUIDv7 (48-bit Unix ms, version 7, a 12-bit sub-ms
-- sequence, the variant, 62 random bits) written as a type prefix, '_' and
-- 26 lowercase Crockford digits.  The "typeid" encoding writes no prefix
-- and reads any; a scheme of one type gives its own: "typeid:user".
-- The spec lets a TypeID hold any UUID (its valid.yml has the nil UUID),
-- so version and variant are of kind "version": written, not required; a
-- value of another version decodes and has no time.
-- The library ships it (schemes/shipped.c); written as a define, as here,
-- it gives back the shipped scheme (checked by spec/schemes/examples_spec.lua).
return require("idscheme").define{
  name = "typeid",
  fields = {
    { name = "timestamp", bits = 48, kind = "time", unit = "ms" },
    { name = "version", bits = 4, kind = "version", value = 7 },
    { name = "sequence", bits = 12, kind = "sequence" },
    { name = "variant", bits = 2, kind = "version", value = 2 },
    { name = "random", bits = 62, kind = "random" },
  },
  encodings = { "typeid" },
  about = { title = "TypeID (jetify)", since = 1672531200000 },  -- 2023
}
