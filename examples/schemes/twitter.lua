-- Twitter's Snowflake: 41-bit ms since 2010-11-04T01:42:54.657Z, 10-bit
-- worker, 12-bit sequence.
-- The library ships it (schemes/shipped.c); written as a define, as here,
-- it gives back the shipped scheme (checked by spec/schemes/examples_spec.lua).
return require("idscheme").define{
  name = "twitter",
  fields = {
    { name = "unused", bits = 1, kind = "constant", value = 0 },
    { name = "timestamp", bits = 41, kind = "time", unit = "ms",
      epoch = 1288834974657 },
    { name = "worker", bits = 10, kind = "node" },
    { name = "sequence", bits = 12, kind = "sequence" },
  },
  encodings = { "dec", "hex" },
  about = { title = "Twitter's Snowflake" },
}
