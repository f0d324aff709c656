-- KSUID (segmentio): 32-bit seconds since 1400000000 (2014-05-13) + 128-bit
-- payload, 27 characters of base62.
-- The library ships it (schemes/shipped.c); written as a define, as here,
-- it gives back the shipped scheme (checked by spec/schemes/examples_spec.lua).
return require("idscheme").define{
  name = "ksuid",
  fields = {
    { name = "timestamp", bits = 32, kind = "time", unit = "s",
      epoch = 1400000000000 },
    { name = "payload", bits = 128, kind = "random" },
  },
  encodings = { "base62", "hex" },
  about = { title = "KSUID (Segment)", since = 1483228800000 },  -- 2017
}
