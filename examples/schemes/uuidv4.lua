-- UUID version 4 (RFC 9562): 122 random bits around the version and the
-- variant.
-- The library ships it (schemes/shipped.c); written as a define, as here,
-- it gives back the shipped scheme (checked by spec/schemes/examples_spec.lua).
return require("idscheme").define{
  name = "uuidv4",
  fields = {
    { name = "random_a", bits = 48, kind = "random" },
    { name = "version", bits = 4, kind = "constant", value = 4 },
    { name = "random_b", bits = 12, kind = "random" },
    { name = "variant", bits = 2, kind = "constant", value = 2 },
    { name = "random_c", bits = 62, kind = "random" },
  },
  encodings = { "uuid", "hex", "urn", "braced", "dec", "base57", "flickr58" },
  about = { title = "UUID version 4 (RFC 9562)", aliases = { "uuid" },
            note = "none: random data only" },
}
