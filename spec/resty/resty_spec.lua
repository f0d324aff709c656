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
  teardown(function () os.execute("rm -rf '" .. dir .. "'") end)

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
    assert.are.equal(resty.slot(), f.shard)
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

  it("refuses options that are not a table", function ()
    local ok, err = pcall(resty.init, "fluid")
    assert.is_false(ok)
    assert.matches("init options must be a table, got string", err, 1, true)
  end)
end)
