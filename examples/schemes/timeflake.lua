-- Timeflake: 48-bit Unix ms + 80 random bits, 22 characters of base62.
-- The library ships it (schemes/shipped.c); written as a define, as here,
-- it gives back the shipped scheme (checked by spec/schemes/examples_spec.lua).
return require("idscheme").define{
  name = "timeflake",
  fields = {
    { name = "timestamp", bits = 48, kind = "time", unit = "ms" },
    { name = "random", bits = 80, kind = "random" },
  },
  encodings = { "base62", "hex", "uuid", "dec" },
  about = { title = "Timeflake", since = 1577836800000 },  -- 2020
}
