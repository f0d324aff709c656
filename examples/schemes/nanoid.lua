-- nanoid: 126 random bits, 21 characters of its URL alphabet.  nanoid(size)
-- writes other sizes: inspect names a text of 10..127 of those characters
-- (of both cases) nanoid too, by its characters alone.
-- The library ships it (schemes/shipped.c); written as a define, as here,
-- it gives back the shipped scheme (checked by spec/schemes/examples_spec.lua).
return require("idscheme").define{
  name = "nanoid",
  fields = {
    { name = "random", bits = 126, kind = "random" },
  },
  encodings = { "nanoid" },
  about = { title = "nanoid", note = "none: random data only",
            lengths = { 10, 127 } },
}
