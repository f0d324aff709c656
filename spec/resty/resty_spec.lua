-- resty_spec.lua: idscheme.resty.init outside nginx (LuaJIT: resty uses
-- the ffi).  Run by spec/busted.sh under LuaJIT only (spec/lua.cmake).
local ffi = require "ffi"
local resty = require "idscheme.resty"

ffi.cdef [[
int open (const char *path, int flags, int mode);
int flock (int fd, int operation);
int close (int fd);
char *mkdtemp (char *template);
]]

local LOCK_EX, LOCK_NB, LOCK_UN = 2, 4, 8

local function tempdir ()
  local buf = ffi.new("char[64]", "/tmp/idscheme-resty.XXXXXX")
  assert(ffi.C.mkdtemp(buf) ~= nil, "mkdtemp")
  return ffi.string(buf)
end

-- Is the slot's lock file free (no open descriptor holds its flock)?
local function free (dir, name, s)
  local path = string.format("%s/%s.%05d", dir, name, s)
  local fd = ffi.C.open(path, 2 + 64, 438)
  assert(fd >= 0, "open " .. path)
  local ok = ffi.C.flock(fd, LOCK_EX + LOCK_NB) == 0
  if ok then ffi.C.flock(fd, LOCK_UN) end
  ffi.C.close(fd)
  return ok
end

describe("idscheme.resty.init", function ()
  local dir = tempdir()
  teardown(function ()
    resty.generator():close()       -- its slot file goes with the directory
    os.execute("rm -rf '" .. dir .. "'")
  end)

  it("keeps a node the caller gives through its hashed name", function ()
    local g = resty.init{ scheme = "kuid96", lock_dir = dir,
                          options = { node_name = "web-1" } }
    local other = require("idscheme").scheme("kuid96"):generator{
      node_name = "web-1" }
    assert.are.equal(other:next():fields().node, g:next():fields().node)
    assert.is_nil(resty.slot())
    assert.is_true(free(dir, "kuid96", 0))
  end)

  it("keeps a node the caller gives by name", function ()
    local g = resty.init{ scheme = "kuid96", lock_dir = dir,
                          options = { node = 77 } }
    assert.are.equal(77, g:next():fields().node)
    assert.is_nil(resty.slot())
  end)

  it("fills only the node fields the caller left out", function ()
    local g = resty.init{ scheme = "snowflake", lock_dir = dir,
                          options = { worker = 9 } }
    local f = g:next():fields()
    assert.are.equal(9, f.worker)
    -- a slot is the whole node value, worker << 5 | shard, among those
    -- whose worker bits are the given 9
    assert.are.equal(9, math.floor(resty.slot() / 32))
    assert.are.equal(resty.slot() % 32, f.shard)
    assert.is_false(free(dir, "snowflake", resty.slot()))
  end)

  it("releases the slot it claimed when init fails", function ()
    local g0 = resty.init{ scheme = "fluid", lock_dir = dir }
    local held = resty.slot()
    assert.is_false(free(dir, "fluid", held))
    -- a generator option out of range fails after the slot was claimed
    local ok, err = pcall(resty.init, { scheme = "snowflake", lock_dir = dir,
                                        options = { worker = 99 } })
    assert.is_false(ok)
    assert.matches("worker", tostring(err))
    for s = 0, 31 do assert.is_true(free(dir, "snowflake", s)) end
    -- and the earlier init stays in force, its slot still held
    assert.are.equal(held, resty.slot())
    assert.are.equal(g0, resty.generator())
    assert.is_false(free(dir, "fluid", held))
  end)
end)

describe("idscheme.resty option tables", function ()
  -- a typo must not fall back to a default (issue: `slot` for `slots`
  -- silently took a local slot, the same on every host)
  it("init refuses an unknown key, naming it", function ()
    local before = resty.generator()
    local ok, err = pcall(resty.init, { scheme = "snowflake",
                                        slot = "redis://127.0.0.1:1/x" })
    assert.is_false(ok)
    assert.matches('init: unknown option "slot"', err, 1, true)
    assert.matches("slots", err, 1, true)        -- the known ones listed
    assert.are.equal(before, resty.generator())  -- nothing changed
  end)

  it("request_id refuses an unknown key, naming it", function ()
    _G.ngx = { ctx = {}, var = {}, header = {} }
    local ok, err = pcall(resty.request_id, { respose_header = false })
    _G.ngx = nil
    assert.is_false(ok)
    assert.matches('request_id: unknown option "respose_header"', err, 1,
                   true)
  end)

  -- issue 39: reuse = "scheme" keeps an incoming ID only as this worker
  -- writes its own (any decimal decodes as a FLUID; f58 reads both
  -- prefixes; raw UTF-8 must never go out in a header)
  it("reuse = 'scheme' keeps only the configured encoding's own form",
     function ()
    local dir = tempdir()
    resty.init{ scheme = "fluid", lock_dir = dir }
    local own = resty.next_string()
    assert.is_nil(own:find("[\128-\255]"))
    local fluid = require("idscheme").scheme("fluid")
    local id = fluid:decode(own, resty.encoding and resty.encoding() or nil)
      or fluid:decode(own, "f58_plain")
    local kept = {}
    for _, incoming in ipairs{ own, "1", "0", "42", "Kubernetes",
                               id:encode("dec"), id:encode("hex"),
                               id:encode("dothex"), id:encode("words"),
                               id:encode("emoji"), id:encode("f58") } do
      _G.ngx = { ctx = {}, var = { http_x_request_id = incoming },
                 header = {} }
      local got = resty.request_id{ reuse = "scheme" }
      local header = ngx.header["X-Request-Id"]
      _G.ngx = nil
      assert.is_nil(header:find("[\128-\255]"), header)
      if got == incoming then kept[#kept + 1] = incoming end
    end
    assert.are.same({ own }, kept)
    resty.generator():close()
    os.execute("rm -rf '" .. dir .. "'")
  end)

  it("refuses an encoding that writes text a header may not carry",
     function ()
    local dir = tempdir()
    local ok, err = pcall(resty.init, { scheme = "fluid", lock_dir = dir,
                                        encoding = "emoji" })
    assert.is_false(ok)
    assert.matches("encoding 'emoji' writes text that is not ASCII", err, 1,
                   true)
    os.execute("rm -rf '" .. dir .. "'")
  end)

  it("refuses options that are not a table", function ()
    local ok, err = pcall(resty.init, "fluid")
    assert.is_false(ok)
    assert.matches("init options must be a table, got string", err, 1, true)
  end)
end)

describe("idscheme.resty fallback", function ()
  local idscheme = require "idscheme"
  local dir = tempdir()
  teardown(function ()
    resty.generator():close()
    os.execute("rm -rf '" .. dir .. "'")
  end)

  -- refused at init by the scheme's fields, and nothing changes
  local function refused (fallback, pattern)
    local before = resty.init{ scheme = "fluid", lock_dir = dir }
    local ok, err = pcall(resty.init, { scheme = "snowflake", lock_dir = dir,
                                        fallback = fallback })
    assert.is_false(ok)
    assert.matches(pattern, tostring(err), 1, true)
    assert.are.equal(before, resty.generator())
  end

  it("refuses a scheme with a node field, naming it", function ()
    refused("fluid", 'fallback "fluid" has a node field (generator)')
    refused("snowflake", 'fallback "snowflake" has a node field (worker)')
  end)

  it("refuses a scheme with too few random bits per ID", function ()
    refused("flax", 'fallback "flax" draws 56 random bits per ID, fewer than 62')
    refused("mastodon", 'fallback "mastodon" draws 0 random bits per ID')
    -- ObjectId's random bits are drawn once per generator, not per ID
    refused("objectid", 'fallback "objectid" draws 0 random bits per ID')
  end)

  it("refuses what is not a scheme name", function ()
    refused(7, "fallback must be a scheme name, got number")
    refused("no-such-scheme", "no-such-scheme")
  end)

  it("takes a scheme whose IDs need no node", function ()
    for _, name in ipairs{ "uuidv7", "ulid", "uuidv4", "ksuid" } do
      assert.is_truthy(resty.init{ scheme = "fluid", lock_dir = dir,
                                   fallback = name })
      -- the generator works: its IDs, not the fallback's
      assert.is_truthy(idscheme.scheme("fluid"):decode(resty.next_string(),
                                                       "f58_plain"))
    end
  end)
end)

-- Inside nginx (a stand-in for ngx: timers run by hand): a claim that
-- fails is tried again in the background, and meanwhile requests get the
-- fallback's IDs, or an error that says why.
describe("idscheme.resty in nginx, while the claim fails", function ()
  local idscheme = require "idscheme"
  local dir = tempdir()
  local timers, logs, resty
  before_each(function ()
    -- a worker's fresh module (an earlier init would stay in force)
    package.loaded["idscheme.resty"] = nil
    resty = require "idscheme.resty"
    timers, logs = {}, {}
    _G.ngx = {
      NOTICE = 6, WARN = 5, ERR = 4,
      now = function () return os.time() + 0.0 end,
      update_time = function () end,
      log = function (level, ...)
        local t = {}
        for i = 1, select("#", ...) do t[i] = tostring((select(i, ...))) end
        logs[#logs + 1] = { level = level, text = table.concat(t) }
      end,
      timer = {
        at = function (d, f) timers[#timers + 1] = { delay = d, f = f }; return true end,
        every = function () return true end,
      },
      worker = { id = function () return 0 end, pid = function () return 4242 end },
    }
  end)
  after_each(function ()
    _G.ngx = nil
    if resty.generator() then resty.generator():close() end
  end)
  teardown(function () os.execute("rm -rf '" .. dir .. "'") end)

  local function logged (level, text)
    for _, l in ipairs(logs) do
      if l.level == level and l.text:find(text, 1, true) then return true end
    end
    return false
  end

  it("retries with a bounded, jittered back-off and claims once it can", function ()
    local missing = dir .. "/later"
    local g = resty.init{ scheme = "fluid", slots = "local:" .. missing .. "/slots" }
    assert.is_nil(g)
    assert.is_nil(resty.generator())
    assert.is_true(logged(ngx.ERR, "holds no fluid slot yet: slot store"))
    assert.is_true(logged(ngx.ERR, "requests fail meanwhile"))
    local ok, err = pcall(resty.next_string)
    assert.is_false(ok)
    assert.matches("no fluid ID: no slot yet: slot store", err, 1, true)
    assert.matches("cannot create directory", err, 1, true)
    -- each try fails and schedules the next, 0.5 s doubling to 4 s, times
    -- a factor in [0.5, 1)
    for i = 1, 8 do
      assert.are.equal(i, #timers)
      local d = timers[i].delay
      local top = math.min(0.5 * 2 ^ (i - 1), 4)
      assert.is_true(d >= top / 2 and d < top, ("try %d: delay %g"):format(i, d))
      timers[i].f(false)
    end
    assert.is_nil(resty.generator())
    -- the store is back: the next try claims, and IDs are the scheme's
    os.execute("mkdir '" .. missing .. "'")
    timers[#timers].f(false)
    assert.are.equal(9, #timers)                -- no further try
    assert.is_truthy(resty.generator())
    assert.is_true(logged(ngx.NOTICE, "holds slot"))
    local id = resty.next_string()
    assert.is_truthy(idscheme.scheme("fluid"):decode(id, "f58_plain"))
  end)

  it("issues fallback IDs meanwhile, and says so", function ()
    local g = resty.init{ scheme = "fluid", fallback = "uuidv7",
                          slots = "local:" .. dir .. "/never/slots" }
    assert.is_nil(g)
    assert.is_true(logged(ngx.ERR, "uuidv7 fallback IDs meanwhile"))
    local seen = {}
    for _ = 1, 100 do
      local id = resty.next_string()
      assert.is_nil(seen[id]); seen[id] = true
      assert.is_truthy(idscheme.scheme("uuidv7"):decode(id, "uuid"))
    end
    -- one line for the first, none for the next 99 (at most one per 10 s)
    local n = 0
    for _, l in ipairs(logs) do
      if l.level == ngx.WARN and l.text:find("uuidv7 fallback ID", 1, true) then
        n = n + 1
        assert.matches("1 request ID is a uuidv7 fallback ID, not fluid: no slot yet",
                       l.text, 1, true)
      end
    end
    assert.are.equal(1, n)
    -- a claim that keeps failing stops nothing
    timers[1].f(false)
    assert.is_truthy(idscheme.scheme("uuidv7"):decode(resty.next_string(), "uuid"))
  end)

  it("refuses an option error at once rather than retrying it", function ()
    local ok, err = pcall(resty.init, { scheme = "snowflake",
                                        options = { worker = 99 },
                                        slots = "redis://127.0.0.1:1/x" })
    assert.is_false(ok)
    assert.matches("worker", tostring(err))
    assert.are.equal(0, #timers)
  end)
end)
