-- The schemes shipped as Lua definitions.  idscheme.scheme(name) loads one
-- the first time it is asked for; idscheme.list() names them all.
local M = { "instagram", "ksuid", "sonyflake", "twitter", "ulid", "uuidv7" }

local shipped = {}
for _, name in ipairs(M) do shipped[name] = true end

local loading

function M.load (name)
  if shipped[name] and not loading then
    loading = name
    local ok, err = pcall(require, "idscheme.schemes." .. name)
    loading = nil
    if not ok then error(err, 0) end
  end
end

-- idscheme.define calls this first: a shipped name is taken even before
-- its script has run, so it is loaded (and the user's define refused).
function M.reserve (name)
  if shipped[name] and loading ~= name then M.load(name) end
end

return M
