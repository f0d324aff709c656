-- nanoid: 126 random bits, 21 characters of its URL alphabet.
-- The library ships it (schemes/shipped.c); written as a define, as here,
-- it gives back the shipped scheme (checked by spec/schemes/examples_spec.lua).
return require("idscheme").define{
  name = "nanoid",
  fields = {
    { name = "random", bits = 126, kind = "random" },
  },
  encodings = { "nanoid" },
  about = { title = "nanoid", note = "none: random data only" },
}
