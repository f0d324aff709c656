-- Mastodon's snowflake: 48-bit Unix ms, 16 bits of sequence.
-- The library ships it (schemes/shipped.c); written as a define, as here,
-- it gives back the shipped scheme (checked by spec/schemes/examples_spec.lua).
return require("idscheme").define{
  name = "mastodon",
  fields = {
    { name = "timestamp", bits = 48, kind = "time", unit = "ms" },
    { name = "sequence", bits = 16, kind = "sequence" },
  },
  encodings = { "dec", "hex" },
  about = { title = "Mastodon's snowflake", since = 1504224000000 },  -- 2.0
}
