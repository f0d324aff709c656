-- The shipped schemes as data and as text: schemes/shipped.c defines them
-- at init; examples/schemes/NAME.lua writes each as an idscheme.define.
-- Defining a taken name with the same spec gives the scheme it already
-- is, and with any other spec is refused, so an example that gives back
-- the very handle of idscheme.scheme(NAME) proves the C data and the Lua
-- text one scheme.  A changed copy of each example is refused, so the
-- check can fail.

local helper = require "spec.helper"
local idscheme = require "idscheme"

local SHIPPED = { "instagram", "ksuid", "mastodon", "nanoid", "objectid",
                  "pushid",
                  "sonyflake", "timeflake", "tsid", "twitter", "typeid", "ulid",
                  "uuidmax", "uuidnil", "uuidv1", "uuidv3", "uuidv4", "uuidv5",
                  "uuidv6", "uuidv7",
                  "uuidv8", "xid" }

-- Runs examples/schemes/NAME.lua with `require "idscheme"` giving a
-- module whose define first hands the spec to edit (if any).
local function run_example (name, edit)
  local path = helper.path("examples/schemes/" .. name .. ".lua")
  local chunk = assert(loadfile(path))
  local module = setmetatable({
    define = function (spec)
      if edit then edit(spec) end
      return idscheme.define(spec)
    end,
  }, { __index = idscheme })
  local env = setmetatable({
    require = function (m)
      assert(m == "idscheme", "an example requires " .. tostring(m))
      return module
    end,
  }, { __index = _G })
  if setfenv then setfenv(chunk, env)            -- LuaJIT
  else debug.setupvalue(chunk, 1, env) end       -- 5.4: _ENV
  return chunk()
end

describe("examples/schemes: each is the shipped scheme", function ()
  it("is registered from C before any Lua runs", function ()
    local listed = helper.set(idscheme.list())
    for _, name in ipairs(SHIPPED) do
      assert.is_true(listed[name] == true, name .. " in idscheme.list()")
    end
  end)

  for _, name in ipairs(SHIPPED) do
    it(name .. ": its define gives back the shipped handle", function ()
      local shipped = idscheme.scheme(name)
      local s = run_example(name)
      assert.is_true(rawequal(shipped, s), name .. ": another scheme")
      assert.is_true(rawequal(shipped, run_example(name)), name ..
                     ": again, another scheme")
    end)

    it(name .. ": a changed spec is refused", function ()
      local edits = {
        default_encoding = function (spec)
          local e = spec.encodings
          if #e == 1 then e[2] = e[1] == "hex" and "base58" or "hex" end
          e[1], e[2] = e[2], e[1]
        end,
        last_field_name = function (spec)
          local f = spec.fields[#spec.fields]
          f.name = f.name .. "_x"
        end,
        time_epoch = function (spec)
          for _, f in ipairs(spec.fields) do
            if f.kind == "time" then f.epoch = (f.epoch or 0) + 1 end
          end
        end,
        about_title = function (spec)
          spec.about.title = spec.about.title .. " (changed)"
        end,
      }
      local timed = false
      for _, f in ipairs(idscheme.scheme(name).fields) do
        timed = timed or f.kind == "time"
      end
      if not timed then edits.time_epoch = nil end    -- nothing to change
      for what, edit in pairs(edits) do
        local ok, err = pcall(run_example, name, edit)
        assert.is_false(ok, name .. ", " .. what .. ": accepted")
        assert.is_truthy(tostring(err):find("scheme '" .. name ..
                         "' exists already, with another spec", 1, true),
                         name .. ", " .. what .. ": " .. tostring(err))
      end
      assert.is_true(rawequal(idscheme.scheme(name), run_example(name)))
    end)
  end
end)
