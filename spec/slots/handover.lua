-- handover.lua URL: a clean close records what was issued, so the slot's
-- next holder starts there, not at the lease's limit (ttl - margin ahead):
-- a restarted process need not wait.  Run by spec/slots/generators.sh
-- against each store.
local fluid = require("idscheme").scheme("fluid")
local url = arg[1]
local opts = { slots = url, slot_ttl_ms = 3000 }
local g0 = fluid:generator(opts)              -- the namespace's history
g0:close()                                    -- begins: one ttl to pass
os.execute("sleep 3.2")
local g1 = fluid:generator(opts)
local last = g1:next()
local limit = g1:lease().limit_ms
g1:close()
local g2 = fluid:generator(opts)
local floor = g2:lease().floor_ms
local t = last:fields().timestamp + 1735689600000  -- FLUID's default epoch
print(("issued %d, limit %d, successor's floor %d"):format(t, limit, floor))
assert(g2:lease().slot == 0)
assert(floor >= t and floor < limit - 1000, "floor not at what was issued")
g2:close()
