-- xid (rs/xid): ObjectId's layout (its machine and pid bytes: any 5 bytes
-- drawn once per generator will do) in 20 characters of base32hex.
-- The library ships it (schemes/shipped.c); written as a define, as here,
-- it gives back the shipped scheme (checked by spec/schemes/examples_spec.lua).
return require("idscheme").define{
  name = "xid",
  fields = {
    { name = "timestamp", bits = 32, kind = "time", unit = "s" },
    { name = "machine_pid", bits = 40, kind = "instance" },
    { name = "counter", bits = 24, kind = "counter" },
  },
  encodings = { "base32hex" },
  about = { title = "xid (rs/xid)", since = 1420070400000 },  -- 2015
}
