-- The max UUID: every bit 1 (-1 is all 64 bits, as LuaJIT's numbers
-- cannot write 2^64 - 1).  Nothing to generate.
-- The library ships it (schemes/shipped.c); written as a define, as here,
-- it gives back the shipped scheme (checked by spec/schemes/examples_spec.lua).
return require("idscheme").define{
  name = "uuidmax",
  fields = {
    { name = "high", bits = 64, kind = "constant", value = -1 },
    { name = "low", bits = 64, kind = "constant", value = -1 },
  },
  encodings = { "uuid", "hex", "urn", "braced", "dec", "base57", "flickr58" },
  about = { title = "the max UUID", aliases = { "uuid" },
            note = "none: every bit 1" },
}
