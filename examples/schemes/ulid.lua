-- ULID: 48-bit Unix ms + 80 random bits, 26 characters of Crockford base32.
-- Within one ms each ID adds a random step to the last one (monotonic).
-- The library ships it (schemes/shipped.c); written as a define, as here,
-- it gives back the shipped scheme (checked by spec/schemes/examples_spec.lua).
return require("idscheme").define{
  name = "ulid",
  fields = {
    { name = "timestamp", bits = 48, kind = "time", unit = "ms" },
    { name = "random", bits = 80, kind = "random" },
  },
  encodings = { "crockford", "uuid", "hex" },
  about = { title = "ULID", since = 1451606400000 },  -- its spec, 2016
}
