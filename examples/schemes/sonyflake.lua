-- Sonyflake: 39 bits of 10 ms since 2014-09-01Z, 8-bit sequence, 16-bit
-- machine id.
-- The library ships it (schemes/shipped.c); written as a define, as here,
-- it gives back the shipped scheme (checked by spec/schemes/examples_spec.lua).
return require("idscheme").define{
  name = "sonyflake",
  fields = {
    { name = "unused", bits = 1, kind = "constant", value = 0 },
    { name = "timestamp", bits = 39, kind = "time", unit = "10ms",
      epoch = 1409529600000 },
    { name = "sequence", bits = 8, kind = "sequence" },
    { name = "machine", bits = 16, kind = "node" },
  },
  encodings = { "dec", "hex" },
  about = { title = "Sonyflake (Sony)" },
}
