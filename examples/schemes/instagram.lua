-- Instagram's sharded IDs: 41-bit ms since 2011-01-01Z, 13-bit shard,
-- 10-bit sequence.
-- The library ships it (schemes/shipped.c); written as a define, as here,
-- it gives back the shipped scheme (checked by spec/schemes/examples_spec.lua).
return require("idscheme").define{
  name = "instagram",
  fields = {
    { name = "timestamp", bits = 41, kind = "time", unit = "ms",
      epoch = 1293840000000 },
    { name = "shard", bits = 13, kind = "node" },
    { name = "sequence", bits = 10, kind = "sequence" },
  },
  encodings = { "dec", "hex" },
  about = { title = "Instagram's sharded ID" },
}
