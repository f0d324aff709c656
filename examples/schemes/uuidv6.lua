-- UUID version 6 (RFC 9562): UUIDv1's fields with the time written from
-- its top (48 bits, the version, the low 12), so that IDs sort by time.
-- The library ships it (schemes/shipped.c); written as a define, as here,
-- it gives back the shipped scheme (checked by spec/schemes/examples_spec.lua).
return require("idscheme").define{
  name = "uuidv6",
  fields = {
    { name = "timestamp", bits = 48, kind = "time", unit = "1/10000000 s",
      epoch = -12219292800000 },
    { name = "version", bits = 4, kind = "constant", value = 6 },
    { name = "timestamp", bits = 12 },
    { name = "variant", bits = 2, kind = "constant", value = 2 },
    { name = "clock_seq", bits = 14, kind = "sequence" },
    { name = "node", bits = 48, kind = "random" },
  },
  encodings = { "uuid", "hex", "urn", "braced", "dec", "base57", "flickr58" },
  about = { title = "UUID version 6 (RFC 9562)", aliases = { "uuid" },
            since = 1577836800000 },     -- 2020: the first draft
}
