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
--     for the store.
--
-- A request ID must not take a site down (issue 36).  Inside nginx:
--   * a claim that fails in init() (the store is down) does not fail
--     init: the worker claims again from an ngx.timer, 0.5 s doubling to
--     4 s, jittered, until a claim succeeds (CLAIM_* below);
--   * a generator whose lease is not valid (the store away past the
--     lease's safe end, or the slot lost and claimed again) is not used
--     until the lease is valid again and its floor (the previous holders'
--     limit) has passed, so that no request waits in the generator for
--     it; the lease thread renews or claims again by itself;
--   * with a Redis or etcd store, a request waits at most 0.5 s in the
--     generator (max_wait_ms); a floor ahead when init() claims (a slot
--     number new to the store: a TTL) is waited out in init() when there
--     is no fallback, before the worker serves;
--   * meanwhile a request gets an ID of the fallback scheme, if init was
--     given one (fallback = "uuidv7"), else an error that says why (a 500).
local idscheme = require "idscheme"

local M = { _VERSION = idscheme._VERSION }

local gen, encoding, scheme, drainer
-- the fallback: its scheme's name, generator and encoding (nil: none)
local fb_name, fb_gen, fb_enc
-- ready: gen may be asked for an ID now; else why says why not, and
-- recheck is when (ngx.now()) a request looks at the lease again
local ready, why, recheck = false, nil, 0
-- a claim retried in the background: { s=, name=, opts=, enc=, tries= }
local pending
-- since when no ID of the generator (nil: ready, or never was); fallback
-- IDs for the log: since its last line, that line's time, since down_since
local down_since
local fb_count, fb_logged, fb_total = 0, nil, 0

local CLAIM_FIRST, CLAIM_MAX = 0.5, 4   -- claim retries: 0.5 s doubling to 4 s
local RECHECK = 0.1        -- how often requests look at a lease not valid
local MAX_WAIT_MS = 500    -- networked stores: a request's longest wait
local LOG_EVERY = 10       -- at most one fallback or claim line per 10 s
-- A fallback's IDs are unique without a node only through their random
-- bits: at least as many per ID as RFC 9562 gives a UUIDv7.
local FALLBACK_RANDOM_BITS = 62

-- Every option table refuses a key it does not know, naming it: a typo
-- (`slot` for `slots`) must not silently fall back to a default.
local INIT = { scheme = true, params = true, options = true, slots = true,
               lock_dir = true, encoding = true, fallback = true }
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

local function in_nginx ()
  return rawget(_G, "ngx") ~= nil and ngx.timer ~= nil
end

local function now ()
  if in_nginx() then return ngx.now() end
  return os.time()
end

local function log (level, ...)
  if in_nginx() then ngx.log(ngx[level], ...) end
end

local function worker ()
  return in_nginx() and ngx.worker.id() or 0
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

-- The fallback scheme, its generator and encoding.  Decided by the
-- scheme's fields: no node field (its uniqueness must need no slot) and
-- enough random bits drawn for each ID.
local function make_fallback (name)
  if type(name) ~= "string" then
    error("idscheme.resty: init: fallback must be a scheme name, got " ..
          type(name), 3)
  end
  local s = idscheme.scheme(name)
  local random = 0
  for _, f in ipairs(s.fields) do
    if f.kind == "node" then
      error(("idscheme.resty: init: fallback %q has a node field (%s): its " ..
             "IDs are unique only with a node value, and a fallback must " ..
             "need none"):format(name, f.name), 3)
    elseif f.kind == "random" then
      random = random + f.bits
    end
  end
  if random < FALLBACK_RANDOM_BITS then
    error(("idscheme.resty: init: fallback %q draws %d random bits per ID, " ..
           "fewer than %d (a UUIDv7's): without a node, two workers' IDs " ..
           "could repeat"):format(name, random, FALLBACK_RANDOM_BITS), 3)
  end
  local g = s:generator()
  return name, g, ascii_encoding(s, g)
end

-- The lease's state (g:lease()), its kept log lines sent to error.log.
-- Every reader of g:lease() goes through here: reading takes the lines.
local function poll ()
  local l = gen and gen:lease()
  if l then
    for _, line in ipairs(l.log or {}) do log("WARN", line) end
  end
  return l
end

-- Why the generator may not be asked now (nil: it may), and when to ask
-- again.  A lease that is valid but whose floor the clock has not passed
-- yet would make the generator wait in the request (policy hold) or
-- refuse (error).  A local lease's floor (at most its TTL, 2 s, after a
-- new slot history or a holder that died) is waited in the request, as
-- the library does, unless a fallback can answer meanwhile; a networked
-- one's (a TTL, 10 s, after the store lost its history) is not.
local function not_ready (l)
  if not l or not in_nginx() then return nil end
  if not l.valid then
    local last = l.last_renewal_ms > 0 and
                 ("%.1f s ago"):format(now() - l.last_renewal_ms / 1000)
    return ("slot %d of %s: lease not valid (last renewed %s); renewed " ..
            "or claimed again in the background"):format(l.slot, l.store,
            last or "never")
  end
  if l.floor_ms >= now() * 1000 and (fb_gen or l.backend ~= "local") then
    return ("slot %d of %s is held, but its IDs must wait for its " ..
            "previous holders' limit, %.1f s ahead"):format(
            l.slot, l.store, l.floor_ms / 1000 - now()), l.floor_ms / 1000
  end
  return nil
end

-- at: when to look again, if sooner than RECHECK (a floor's end)
local function go_down (reason, at)
  if ready or not down_since then down_since = now() end
  ready, why, recheck = false, reason, math.min(now() + RECHECK, at or math.huge)
end

-- l: the lease, said in the log line
local function go_up (l)
  if not ready and down_since then
    log("NOTICE", "idscheme: worker ", worker(), " issues ", scheme.name,
        " IDs again", l and (" (slot " .. l.slot .. " of " .. l.store .. ")")
        or "", ", after ", ("%.1f s"):format(now() - down_since),
        fb_name and (" and " .. fb_total .. " " .. fb_name .. " fallback IDs")
        or " of failed requests")
  end
  ready, why, down_since, fb_count, fb_total = true, nil, nil, 0, 0
end

-- The drainer: once a second, the lease's lines to error.log, and a
-- generator whose lease went bad between requests is set aside.
local function drain (premature)
  if premature then return end
  ngx.update_time()
  local l = poll()
  if ready then
    local r, at = not_ready(l)
    if r then go_down(r, at) end
  end
end

-- A blocking sleep: init_worker_by_lua has no ngx.sleep.
local function sleep_blocking (seconds)
  local ffi = require "ffi"
  pcall(ffi.cdef, "int poll (void *fds, unsigned long nfds, int timeout);")
  ffi.C.poll(nil, 0, math.ceil(seconds * 1000))
  ngx.update_time()
end

-- g (made for scheme s, written in encoding enc) becomes this worker's
-- generator.  Inside nginx it is used once its lease allows IDs now.
-- in_init: called by init() in init_worker_by_lua, where the worker
-- serves no request yet: without a fallback, a floor ahead (a slot number
-- new to the store: at most a TTL) is waited there, as a claim always
-- did, rather than answered with errors.  Never from a timer: a worker
-- that serves requests does not block for it.
local FLOOR_WAIT_MAX = 30
local function hold (g, s, enc, in_init)
  if gen and gen ~= g then gen:close() end  -- the old slot, now unused
  gen, scheme, encoding = g, s, enc
  local l = poll()
  if l and in_nginx() then
    log("NOTICE", "idscheme: worker ", worker(), " holds slot ", l.slot,
        " of ", l.store, " (", s.name, ")")
    if not drainer then drainer = ngx.timer.every(1, drain) end
  end
  local r, at = not_ready(l)
  if r and at and in_init and not fb_gen and l.valid and
     at - now() <= FLOOR_WAIT_MAX then
    log("NOTICE", "idscheme: worker ", worker(), " waits ",
        ("%.1f s"):format(at - now()), " for the floor of slot ", l.slot,
        " (its previous holders' limit) before it serves")
    sleep_blocking(at - now() + 0.002)
    r, at = not_ready(l)
  end
  if r then go_down(r, at) else go_up(l) end
end

-- A claim that failed is tried again.  The claim blocks the worker on a
-- plain socket: if the last one took long (a store that does not answer
-- until the timeout), a cosocket first checks that something listens at
-- the store's address (an address, not a name: that would need nginx's
-- resolver), so that a store that does not answer blocks no request.
local function store_address (url)
  if type(url) ~= "string" then return nil end
  local kind, rest = url:match("^(%a+)://(.*)$")
  local port = ({ redis = 6379, rediss = 6379, etcd = 2379,
                  etcds = 2379 })[kind]
  if not port then return nil end
  local auth = rest:match("^[^/?]*")
  auth = auth:match("@([^@]*)$") or auth
  local host, p = auth:match("^%[([%x:.]+)%]:?(%d*)$")
  if not host then
    host, p = auth:match("^(%d+%.%d+%.%d+%.%d+):?(%d*)$")
  end
  if not host then return nil end
  return host, tonumber(p) or port
end

-- A factor in [0.5, 1), so that the workers of a store that comes back do
-- not all call at once.  Not math.random: its seed is the same in every
-- worker unless the application sets one.
local seed
local function jitter ()
  if not seed then
    seed = (ngx.worker.pid() * 7919 + math.floor(ngx.now() * 1000)) %
           2147483646 + 1
  end
  seed = seed * 16807 % 2147483647          -- Park and Miller's minimal
  return 0.5 + 0.5 * (seed - 1) / 2147483646
end

local function unwrap (msg)   -- s:generator's "bad argument #2 to '?' (...)"
  return (tostring(msg):gsub("^bad argument #%d+ to '%?' %((.*)%)$", "%1"))
end

local function retry_claim (premature)
  if premature or not pending then return end
  ngx.update_time()
  local p = pending
  local host, port = store_address(p.opts.slots)
  local ok, res, reason = true, nil, nil
  if host and p.slow then
    local sock = ngx.socket.tcp()
    sock:settimeout(p.opts.slot_timeout_ms or 2000)
    local c, err = sock:connect(host, port)
    if c then sock:close()
    else
      ok = false
      reason = ("%s; %s:%d did not answer a connect at %s UTC (%s)"):format(
               p.msg, host, port, os.date("!%H:%M:%S"), tostring(err))
    end
  end
  if ok then
    local t0 = ngx.now()
    ok, res = pcall(p.s.generator, p.s, p.opts)
    ngx.update_time()
    p.slow = ngx.now() - t0 > 0.25
    if not ok then p.msg = unwrap(res); reason = p.msg end
  end
  if pending ~= p then          -- init() was called again meanwhile
    if ok then res:close() end
    return
  end
  if ok then
    pending = nil
    hold(res, p.s, p.enc)
    return
  end
  p.tries = p.tries + 1
  if not gen then why = "no slot yet: " .. reason end
  if now() - p.logged >= LOG_EVERY then
    p.logged = now()
    log("ERR", "idscheme: worker ", worker(), " holds no ", p.s.name,
        " slot yet (", p.tries, " tries): ", reason)
  end
  local d = math.min(CLAIM_FIRST * 2 ^ (p.tries - 1), CLAIM_MAX)
  ngx.timer.at(d * jitter(), retry_claim)
end

-- Options: scheme (default "fluid"), params (scheme parameters), options
-- (generator options; a node field given here, by its name or by the
-- name hashed into it such as kuid96's node_name, is kept as it is and
-- takes no slot), slots (the store of the node slots: "local" by default,
-- "local:/dir", "redis://...", "etcd://..."), lock_dir (the same as
-- slots = "local:" .. lock_dir), encoding (default: the scheme's own if it
-- writes ASCII, else its shortest form that does, for headers and logs:
-- f58_plain for FLUID), fallback (a scheme whose IDs need no node, such as
-- "uuidv7" or "ulid": its IDs are issued while this worker's generator
-- cannot be used, and said so in error.log).  An error in the options
-- raises and changes nothing: a slot claimed for it is released, and an
-- earlier init() stays in force.  Inside nginx a claim that fails is not
-- an error: it is tried again in the background (an earlier init() stays
-- in force until it succeeds).
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
  local fname, fgen, fenc
  if opts.fallback ~= nil then fname, fgen, fenc = make_fallback(opts.fallback) end
  -- the node fields the options leave out, given neither by name nor by
  -- the name hashed into them (the `_name` suffix: kuid96's node_name):
  -- with none, there is nothing to lease, and init's store is not passed
  -- (the library refuses a store beside a node given whole)
  local missing = {}
  for _, f in ipairs(s.fields) do
    if f.kind == "node" and genopts[f.name] == nil and
       genopts[f.name .. "_name"] == nil then
      missing[#missing + 1] = f.name
    end
  end
  if genopts.slots == nil and #missing > 0 then
    genopts.slots = opts.slots or
                    (opts.lock_dir and "local:" .. opts.lock_dir:gsub("/$", ""))
  end
  if in_nginx() then
    if genopts.slot_log == nil then genopts.slot_log = "keep" end
    -- a request waits at most half a second in the generator: a longer
    -- wait (a networked store's new floor, a TTL ahead) fails at once,
    -- and the generator is set aside until the lease allows IDs
    if type(genopts.slots) == "string" and genopts.slots:find("^%a+://") and
       genopts.max_wait_ms == nil then
      genopts.max_wait_ms = MAX_WAIT_MS
    end
    -- with a fallback, the generator refuses rather than waits (a floor,
    -- a clock stepped back, a late renewal): the fallback answers
    if fname and genopts.policy == nil then genopts.policy = "error" end
  end
  -- the options checked, and the encoding chosen, on a generator that
  -- claims nothing (the missing node fields given): a failure of the
  -- generator that claims is then its claim's
  local probeopts = {}
  for k, v in pairs(genopts) do probeopts[k] = v end
  probeopts.slots = nil
  for _, f in ipairs(missing) do probeopts[f] = 0 end
  local ok, g = pcall(s.generator, s, probeopts)
  local enc, slow = opts.encoding, false
  if ok and enc then                -- headers and logs carry ASCII alone
    local ok2, text = pcall(function () return g:next():encode(enc) end)
    if ok2 and text:find("[\128-\255]") then
      g:close()
      error(("idscheme.resty: encoding '%s' writes text that is not ASCII "
             .. "(%s), which a header may not carry: name another"):format(
             enc, text), 0)
    end
  end
  if ok then
    local probe = g
    if not enc then ok, enc = pcall(ascii_encoding, s, probe) end
    probe:close()
    if not ok then error(enc, 0) end
    if in_nginx() then ngx.update_time() end
    local t0 = now()
    ok, g = pcall(s.generator, s, genopts)
    if in_nginx() then ngx.update_time() end
    slow = now() - t0 > 0.25
  else
    -- the probe's node clashes with one given by its hashed name (kuid96's
    -- node_name), or an option is wrong: the generator claims nothing
    ok, g = pcall(s.generator, s, genopts)
    if not ok then error(g, 0) end
    if not enc then
      local ok2, e2 = pcall(ascii_encoding, s, g)
      if not ok2 then g:close(); error(e2, 0) end   -- the slot goes back
      enc = e2
    end
  end
  fb_name, fb_gen, fb_enc = fname, fgen, fenc
  if ok then
    pending = nil
    hold(g, s, enc, true)
    return gen
  end
  -- the claim failed: outside nginx an error; inside, claimed again from
  -- a timer while an earlier init() stays in force
  if not in_nginx() then error(g, 0) end
  local msg = unwrap(g)
  pending = { s = s, opts = genopts, enc = enc, tries = 1, msg = msg,
              logged = now(), slow = slow }
  if not gen then scheme, encoding = s, enc; go_down("no slot yet: " .. msg) end
  log("ERR", "idscheme: worker ", worker(), " holds no ", name,
      " slot yet: ", msg, "; claiming again in the background, ",
      fb_name and (fb_name .. " fallback IDs") or "requests fail",
      " meanwhile")
  ngx.timer.at(CLAIM_FIRST * jitter(), retry_claim)
  return nil
end

-- The lease of this worker's generator (g:lease(): slot, store, validity,
-- limit, renewals, failures, losses, kept log lines), or nil.
function M.lease () return gen and gen:lease() end

-- This worker's slot number (nil when the caller gave every node field).
function M.slot () return gen and (gen:slot()) end

function M.generator () return gen end

-- A fallback ID, said in error.log: the first at once, then at most one
-- line per LOG_EVERY seconds with the count since the line before.
local function fallback_id ()
  local id = fb_gen:next_string(fb_enc)
  local t = now()
  fb_count, fb_total = fb_count + 1, fb_total + 1
  if not fb_logged or t - fb_logged >= LOG_EVERY or fb_total == 1 then
    log("WARN", "idscheme: worker ", worker(), ": ", fb_count, " request ",
        fb_count == 1 and "ID is a " or "IDs are ", fb_name,
        " fallback ID", fb_count == 1 and "" or "s", ", not ",
        scheme and scheme.name or "?", ": ", why or "?")
    fb_logged, fb_count = t, 0
  end
  return id
end

-- The next ID as a string in the configured encoding; the fallback's (in
-- its own encoding) while the generator cannot be used, if one was given.
function M.next_string ()
  if ready then
    local ok, id = pcall(gen.next_string, gen, encoding)
    if ok then return id end
    go_down(id)
  elseif gen and now() >= recheck then
    local l = poll()
    local r, at = not_ready(l)
    recheck = math.min(now() + RECHECK, at or math.huge)
    if r then
      why = r
    else
      local ok, id = pcall(gen.next_string, gen, encoding)
      if ok then go_up(l); return id end
      why = id
    end
  end
  if fb_gen then return fallback_id() end
  if not gen and not pending then
    error("idscheme.resty: call init() in init_worker_by_lua first", 2)
  end
  error(("idscheme.resty: no %s ID: %s"):format(scheme.name, why), 2)
end

local function header_var (h)
  return "http_" .. h:lower():gsub("-", "_")
end

-- Is text an ID of scheme s written exactly as encoding e writes it (not
-- merely one that decodes: any decimal decodes as a FLUID, and f58 reads
-- both prefixes)?
local function canonical (s, e, text)
  local id = s and e and s:decode(text, e)
  return id ~= nil and id:encode(e) == text
end

-- An incoming ID is reused only when asked: reuse = true, any token of
-- 1..128 safe ASCII characters; reuse = "scheme", one written exactly as
-- this worker writes its IDs (the configured encoding, or the fallback's):
-- one ID travels in one spelling, and a header carries ASCII alone.
local function acceptable (text, how)
  if not text or #text == 0 or #text > 128 or
     text:find("[^%w%._~:+/=%-]") then
    return false
  end
  if how == "scheme" then
    return canonical(scheme, encoding, text) or
           (fb_gen ~= nil and canonical(fb_gen:scheme(), fb_enc, text))
  end
  return true
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
