-- UUIDv7 (RFC 9562): 48-bit Unix ms, version 7, a 12-bit sub-ms sequence
-- (method 1 of section 6.2), the variant, 62 random bits.
-- The library ships it (schemes/shipped.c); written as a define, as here,
-- it gives back the shipped scheme (checked by spec/schemes/examples_spec.lua).
return require("idscheme").define{
  name = "uuidv7",
  fields = {
    { name = "timestamp", bits = 48, kind = "time", unit = "ms" },
    { name = "version", bits = 4, kind = "constant", value = 7 },
    { name = "sequence", bits = 12, kind = "sequence" },
    { name = "variant", bits = 2, kind = "constant", value = 2 },
    { name = "random", bits = 62, kind = "random" },
  },
  encodings = { "uuid", "hex", "base58", "urn", "braced", "dec", "base57", "flickr58" },
  about = { title = "UUID version 7 (RFC 9562)", aliases = { "uuid" },
            since = 1609459200000 },     -- the first draft, 2021
}
