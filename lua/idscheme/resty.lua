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
-- live process holds: the slot is an exclusive flock() on a file, which
-- the kernel releases only when the process exits.  So the old workers of
-- a reload (HUP), which reuse ngx.worker.id() while they drain, and the
-- workers of a binary upgrade keep their slots, and new workers take
-- others.
local idscheme = require "idscheme"
local ffi = require "ffi"

ffi.cdef [[
int open (const char *path, int flags, int mode);
int flock (int fd, int operation);
int close (int fd);
]]

local O_RDWR, O_CREAT, O_CLOEXEC = 2, 64, 524288
local LOCK_EX, LOCK_NB = 2, 4

local M = { _VERSION = idscheme._VERSION }

local gen, encoding, scheme, slotfd, slot

-- Claims a free slot in [0, 2^bits), starting from `start`; the file
-- descriptor stays open (and locked) for the life of the worker.
local function claim (dir, name, bits, start)
  local n = bits >= 16 and 65536 or 2 ^ bits
  for i = 0, n - 1 do
    local s = (start + i) % n
    local path = string.format("%s/idscheme-%s-%d.lock", dir, name, s)
    local fd = ffi.C.open(path, O_RDWR + O_CREAT + O_CLOEXEC, 438) -- 0666
    if fd < 0 then
      error("idscheme.resty: cannot open " .. path .. " (set lock_dir)", 3)
    end
    if ffi.C.flock(fd, LOCK_EX + LOCK_NB) == 0 then return s, fd end
    ffi.C.close(fd)
  end
  error("idscheme.resty: all " .. n .. " slots of " .. name .. " are taken", 3)
end

-- The encoding for headers and logs, which want ASCII: the scheme's
-- default if it writes ASCII, else the shortest form that does (f58_plain
-- for FLUID).
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
-- takes no slot), encoding (default: the scheme's own if it writes ASCII,
-- else its shortest form that does, for headers and logs: f58_plain for
-- FLUID), lock_dir (default "/tmp": a folder the workers' user may write;
-- every nginx on the host that shares it shares the slots, which only
-- makes them more unique).  On an error nothing changes: a slot claimed
-- for it is released, and an earlier init() stays in force.
function M.init (opts)
  opts = opts or {}
  local name = opts.scheme or "fluid"
  local s = idscheme.scheme(name, opts.params)
  local genopts, nodes, bits, random, given = {}, {}, 0, false, false
  for k, v in pairs(opts.options or {}) do genopts[k] = v end
  for _, f in ipairs(s.fields) do
    if f.kind == "node" then
      if genopts[f.name] ~= nil or genopts[f.name .. "_name"] ~= nil then
        given = true
      else
        nodes[#nodes + 1] = f
        bits = bits + f.bits
      end
    elseif f.kind == "random" then
      random = true
    end
  end
  if #nodes == 0 and not given and not random then
    error("idscheme.resty: " .. name .. " has neither a node field nor " ..
          "random bits: its IDs would repeat across workers", 2)
  end
  local newslot, newfd
  if #nodes > 0 then
    local dir = opts.lock_dir or "/tmp"
    dir = dir:gsub("/$", "")
    local start = (ngx and ngx.worker and ngx.worker.id()) or 0
    newslot, newfd = claim(dir, name, math.min(bits, 16), start)
    local rest = newslot                  -- the last node field gets the low bits
    for i = #nodes, 1, -1 do
      local f = nodes[i]
      local w = 2 ^ f.bits
      genopts[f.name] = rest % w
      rest = math.floor(rest / w)
    end
  end
  local ok, g = pcall(s.generator, s, genopts)
  local enc, err = opts.encoding, g
  if ok and not enc then ok, enc = pcall(ascii_encoding, s, g); err = enc end
  if not ok then
    if newfd then ffi.C.close(newfd) end  -- the slot goes back
    error(err, 0)
  end
  if slotfd then ffi.C.close(slotfd) end  -- the old slot, now unused
  slot, slotfd = newslot, newfd
  gen, scheme, encoding = g, s, enc
  return gen
end

function M.slot () return slot end
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
  local ctx = ngx.ctx
  local id = ctx.idscheme_request_id
  if id then return id end
  opts = opts or {}
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
