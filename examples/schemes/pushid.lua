-- Firebase push IDs: 48-bit Unix ms + 72 random bits, 20 characters of
-- the sortable base64 whose alphabet begins at '-'.
-- The library ships it (schemes/shipped.c); written as a define, as here,
-- it gives back the shipped scheme (checked by spec/schemes/examples_spec.lua).
return require("idscheme").define{
  name = "pushid",
  fields = {
    { name = "timestamp", bits = 48, kind = "time", unit = "ms" },
    { name = "random", bits = 72, kind = "random" },
  },
  encodings = {
    "b64sort:-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz",
    "hex" },
  about = { title = "Firebase push ID", aliases = { "firebase" },
            since = 1422748800000 },                     -- 2015-02
}
