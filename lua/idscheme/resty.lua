-- idscheme.resty: request IDs in OpenResty / nginx's Lua module.
--
--   init_worker_by_lua_block {
--     require("idscheme.resty").init{ scheme = "fluid" }
--   }
--   access_by_lua_block {
--     require("idscheme.resty").request_id{ var = "request_id_ids" }
--   }
--
-- init() gives this worker a generator whose node fields (FLUID's
-- generator, Snowflake's worker and shard, ...) hold a slot that no other
-- live process holds, claimed by the library (option slots):
--   * local (the default): an exclusive flock() on a file, which the
--     kernel releases only when the process exits.  So the old workers of
--     a reload (HUP), which reuse ngx.worker.id() while they drain, and the
--     workers of a binary upgrade keep their slots, and new workers take
--     others;
--   * redis://host:port/prefix or etcd://host:port/prefix: a lease shared
--     by every host, claimed while init() runs (init_worker_by_lua may
--     block on a plain socket for the bounded claim timeout; cosockets are
--     not available there) and renewed by a thread of the worker process
--     that the library starts, never on a request.  A request never waits
--     for the store: init() returns only once the slot is held, and if the
--     store stays away past the lease's safe end, next_string() raises with
--     the library's message (a 500), until the lease is renewed.
local idscheme = require "idscheme"

local M = { _VERSION = idscheme._VERSION }

local gen, encoding, scheme, drainer

-- Every option table refuses a key it does not know, naming it: a typo
-- (`slot` for `slots`) must not silently fall back to a default.
local INIT = { scheme = true, params = true, options = true, slots = true,
               lock_dir = true, encoding = true }
local REQUEST = { header = true, reuse = true, var = true,
                  response_header = true, request_header = true }

local function check_keys (opts, known, what)
  if opts == nil then return {} end
  if type(opts) ~= "table" then
    error("idscheme.resty: " .. what .. " options must be a table, got " ..
          type(opts), 3)
  end
  for k in pairs(opts) do
    if not known[k] then
      local names = {}
      for n in pairs(known) do names[#names + 1] = n end
      table.sort(names)
      error(("idscheme.resty: %s: unknown option %q (known: %s)"):format(
            what, tostring(k), table.concat(names, ", ")), 3)
    end
  end
  return opts
end

-- The scheme's own encoding if it writes ASCII, else its shortest form
-- that does (f58_plain for FLUID): IDs go into headers and logs.
local function ascii_encoding (s, g)
  local probe, best, encoding = g:next(), nil, nil
  for i, e in ipairs(s.encodings) do
    local text = probe:encode(e)
    if not text:find("[\128-\255]") then
      if i == 1 then return e end
      if not best or #text < #best then best, encoding = text, e end
    end
  end
  return encoding
end

-- Options: scheme (default "fluid"), params (scheme parameters), options
-- (generator options; a node field given here, by its name or by the
-- name hashed into it such as kuid96's node_name, is kept as it is and
-- takes no slot), slots (the store of the node slots: "local" by default,
-- "local:/dir", "redis://...", "etcd://..."), lock_dir (the same as
-- slots = "local:" .. lock_dir), encoding (default: the scheme's own if it
-- writes ASCII, else its shortest form that does, for headers and logs:
-- f58_plain for FLUID).  On an error nothing changes: a slot claimed for
-- it is released, and an earlier init() stays in force.
-- Inside nginx, the worker says in error.log (notice) which slot it holds,
-- and the lease's own lines (lost, store away, back again) go to
-- error.log through ngx.log (warn) once a second, rather than to raw
-- stderr; options.slot_log = "stderr" keeps them there.
function M.init (opts)
  opts = check_keys(opts, INIT, "init")
  local name = opts.scheme or "fluid"
  local s = idscheme.scheme(name, opts.params)
  local genopts, random, node = {}, false, false
  for k, v in pairs(opts.options or {}) do genopts[k] = v end
  for _, f in ipairs(s.fields) do
    if f.kind == "node" then node = true
    elseif f.kind == "random" then random = true end
  end
  if not node and not random then
    error("idscheme.resty: " .. name .. " has neither a node field nor " ..
          "random bits: its IDs would repeat across workers", 2)
  end
  if genopts.slots == nil then
    genopts.slots = opts.slots or
                    (opts.lock_dir and "local:" .. opts.lock_dir:gsub("/$", ""))
  end
  local in_nginx = rawget(_G, "ngx") ~= nil and ngx.timer ~= nil
  if in_nginx and genopts.slot_log == nil then genopts.slot_log = "keep" end
  local ok, g = pcall(s.generator, s, genopts)
  local enc, err = opts.encoding, g
  if ok and not enc then ok, enc = pcall(ascii_encoding, s, g); err = enc end
  if not ok then
    if type(g) ~= "string" then g:close() end  -- the slot goes back
    error(err, 0)
  end
  if gen then gen:close() end             -- the old slot, now unused
  gen, scheme, encoding = g, s, enc
  local lease = g:lease()
  if in_nginx and lease then
    ngx.log(ngx.NOTICE, "idscheme: worker ", ngx.worker.id(), " holds slot ",
            lease.slot, " of ", lease.store, " (", name, ")")
    if not drainer then
      local function drain ()
        local l = gen and gen:lease()
        for _, line in ipairs(l and l.log or {}) do ngx.log(ngx.WARN, line) end
      end
      drainer = ngx.timer.every(1, drain)
    end
  end
  return gen
end

-- The lease of this worker's generator (g:lease(): slot, store, validity,
-- limit, renewals, failures, losses, kept log lines), or nil.
function M.lease () return gen and gen:lease() end

-- This worker's slot number (nil when the caller gave every node field).
function M.slot () return gen and (gen:slot()) end

function M.generator () return gen end

-- The next ID as a string in the configured encoding.
function M.next_string ()
  if not gen then
    error("idscheme.resty: call init() in init_worker_by_lua first", 2)
  end
  return gen:next_string(encoding)
end

local function header_var (h)
  return "http_" .. h:lower():gsub("-", "_")
end

-- An incoming ID is reused only when asked (reuse = true: any token of
-- 1..128 safe characters; reuse = "scheme": one that decodes).
local function acceptable (text, how)
  if not text or #text == 0 or #text > 128 then return false end
  if how == "scheme" then return scheme:decode(text) ~= nil end
  return not text:find("[^%w%._~:+/=%-]")
end

-- Sets the request ID once per request and returns it.  Options: header
-- (default "X-Request-Id"), reuse (see above), var (an nginx variable to
-- set, declared with `set $name "";`), response_header (default true),
-- request_header (pass it upstream; default false).
function M.request_id (opts)
  opts = check_keys(opts, REQUEST, "request_id")
  local ctx = ngx.ctx
  local id = ctx.idscheme_request_id
  if id then return id end
  local header = opts.header or "X-Request-Id"
  if opts.reuse then
    local incoming = ngx.var[header_var(header)]
    if acceptable(incoming, opts.reuse) then id = incoming end
  end
  id = id or M.next_string()
  ctx.idscheme_request_id = id
  if opts.var then ngx.var[opts.var] = id end
  if opts.response_header ~= false then ngx.header[header] = id end
  if opts.request_header then ngx.req.set_header(header, id) end
  return id
end

return M
