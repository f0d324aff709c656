-- UUID version 3 (RFC 9562): the MD5 hash of a namespace and a name around
-- the version and the variant.  Read and composed; a generator has no
-- name to hash, and refuses.
-- The library ships it (schemes/shipped.c); written as a define, as here,
-- it gives back the shipped scheme (checked by spec/schemes/examples_spec.lua).
return require("idscheme").define{
  name = "uuidv3",
  fields = {
    { name = "hash_a", bits = 48, kind = "hash" },
    { name = "version", bits = 4, kind = "constant", value = 3 },
    { name = "hash_b", bits = 12, kind = "hash" },
    { name = "variant", bits = 2, kind = "constant", value = 2 },
    { name = "hash_c", bits = 62, kind = "hash" },
  },
  encodings = { "uuid", "hex", "urn", "braced", "dec", "base57", "flickr58" },
  about = { title = "UUID version 3 (RFC 9562)", aliases = { "uuid" },
            note = "none: name-based (an MD5 hash)" },
}
