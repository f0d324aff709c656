-- The nil UUID: every bit 0.  Nothing to generate; it decodes, composes
-- and is recognised.
-- The library ships it (schemes/shipped.c); written as a define, as here,
-- it gives back the shipped scheme (checked by spec/schemes/examples_spec.lua).
return require("idscheme").define{
  name = "uuidnil",
  fields = {
    { name = "high", bits = 64, kind = "constant", value = 0 },
    { name = "low", bits = 64, kind = "constant", value = 0 },
  },
  encodings = { "uuid", "hex", "urn", "braced", "dec", "base57", "flickr58" },
  about = { title = "the nil UUID", aliases = { "uuid" },
            note = "none: every bit 0" },
}
