-- UUID version 1 (RFC 9562): 60-bit time in 100 ns since 1582-10-15 (the
-- Gregorian calendar), split around the version low part first (time_low,
-- time_mid, time_hi: its IDs do not sort), the variant, a 14-bit clock
-- sequence, a 48-bit node (drawn at random per ID, as section 6.10 allows).
-- The library ships it (schemes/shipped.c); written as a define, as here,
-- it gives back the shipped scheme (checked by spec/schemes/examples_spec.lua).
return require("idscheme").define{
  name = "uuidv1",
  fields = {
    { name = "timestamp", bits = 32, kind = "time", unit = "1/10000000 s",
      epoch = -12219292800000, order = "low first" },
    { name = "timestamp", bits = 16 },
    { name = "version", bits = 4, kind = "constant", value = 1 },
    { name = "timestamp", bits = 12 },
    { name = "variant", bits = 2, kind = "constant", value = 2 },
    { name = "clock_seq", bits = 14, kind = "sequence" },
    { name = "node", bits = 48, kind = "random" },
  },
  encodings = { "uuid", "hex", "urn", "braced", "dec", "base57", "flickr58" },
  about = { title = "UUID version 1 (RFC 9562)", aliases = { "uuid" },
            since = 631152000000 },      -- 1990: DCE's
}
