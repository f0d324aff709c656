-- TSID (tsid-creator): 42-bit ms since 2020-01-01Z, 10-bit node, 12-bit
-- counter; 13 characters of Crockford base32.
-- The library ships it (schemes/shipped.c); written as a define, as here,
-- it gives back the shipped scheme (checked by spec/schemes/examples_spec.lua).
return require("idscheme").define{
  name = "tsid",
  fields = {
    { name = "timestamp", bits = 42, kind = "time", unit = "ms",
      epoch = 1577836800000 },
    { name = "node", bits = 10, kind = "node" },
    { name = "counter", bits = 12, kind = "sequence" },
  },
  encodings = { "crockford", "dec", "hex" },
  about = { title = "TSID (tsid-creator)" },
}
