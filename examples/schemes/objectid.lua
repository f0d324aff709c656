-- MongoDB's ObjectId: 32-bit Unix seconds, 5 random bytes drawn once per
-- generator ("instance": the driver's per process), a 3-byte counter that
-- carries on across seconds from a random start ("counter"); 24 hex digits.
-- The library ships it (schemes/shipped.c); written as a define, as here,
-- it gives back the shipped scheme (checked by spec/schemes/examples_spec.lua).
return require("idscheme").define{
  name = "objectid",
  fields = {
    { name = "timestamp", bits = 32, kind = "time", unit = "s" },
    { name = "random", bits = 40, kind = "instance" },
    { name = "counter", bits = 24, kind = "counter" },
  },
  encodings = { "hex" },
  about = { title = "MongoDB ObjectId", aliases = { "mongo", "bson" },
            since = 1230768000000 },     -- 2009: MongoDB's first
}
