-- The schemes shipped as Lua definitions.  idscheme.scheme(name) loads one
-- the first time it is asked for; idscheme.list() names them all.
local M = { "instagram", "ksuid", "sonyflake", "twitter", "ulid", "uuidv7" }

local shipped = {}
for _, name in ipairs(M) do shipped[name] = true end

function M.load (name)
  if shipped[name] then require("idscheme.schemes." .. name) end
end

return M
