-- scripts/check-luals.lua BUILDDIR: types/idscheme.lua and
-- types/idscheme/resty.lua (the LuaLS definitions) against the modules as
-- they are, BUILDDIR/lua54/idscheme.so and lua/idscheme/resty.lua: every
-- function, method and attribute the definitions name exists, and every
-- one the module has is named, for the module, scheme handles,
-- generators, IDs, the compressor and its objects, and idscheme.resty;
-- the keys the module puts in field descriptions, inspect's candidates
-- and g:lease()'s table are fields of their classes; and the keys
-- idscheme.resty's option tables take are exactly their classes' fields.
-- Ends "N passed, N failed".
local builddir = assert(arg[1], "usage: lua5.4 scripts/check-luals.lua BUILDDIR")
local root = (arg[0]:match("^(.*)/scripts/[^/]*$")) or "."
package.cpath = builddir .. "/lua54/?.so;" .. package.cpath
package.path = root .. "/lua/?.lua;" .. package.path
local idscheme = require("idscheme")

local passed, failed = 0, 0
local function check(ok, what)
  if ok then passed = passed + 1
  else failed = failed + 1; print("FAIL " .. what) end
end

-- the definitions: per class, its functions (methods or module functions)
-- and its fields
local defs = {}
local function cls(name)
  defs[name] = defs[name] or { funcs = {}, fields = {}, optional = {} }
  return defs[name]
end
local locals = {}                      -- local Scheme = {} after @class
local function readdefs(file)
  local f, class = assert(io.open(root .. file)), nil
  for line in f:lines() do
    local c = line:match("^%-%-%-@class ([%w%.]+)")
    if c then class = c; cls(c) end
    local fld, opt = line:match("^%-%-%-@field ([%w_]+)(%??)")
    if fld and class then
      cls(class).fields[fld] = true
      if opt == "?" then cls(class).optional[fld] = true end   -- may be nil
    end
    local lv = line:match("^local (%w+) = {}")
    if lv and class then locals[lv] = class end
    local owner, name = line:match("^function ([%w_]+)[%.:]([%w_]+)%(")
    if owner then
      local k = locals[owner]
      check(k ~= nil, file .. ": function " .. owner .. "." .. name ..
            ": no @class for " .. owner)
      if k then cls(k).funcs[name] = true end
    end
  end
  f:close()
end
readdefs("/types/idscheme.lua")
readdefs("/types/idscheme/resty.lua")

-- compares the names the module has (have: name -> true) with a class's;
-- strict: an optional field too must be there (an option table's keys)
local function same(classname, have, kind, strict)
  local d = defs[classname]
  check(d ~= nil, "no class " .. classname)
  if not d then return end
  local named = kind == "fields" and d.fields or d.funcs
  for k in pairs(have) do
    check(named[k], classname .. ": the module has " .. k .. ", the definitions do not")
  end
  for k in pairs(named) do
    check(have[k] or (d.optional[k] and not strict),
          classname .. ": the definitions name " .. k ..
          ", the module has none")
  end
end
local function keys(t, only)
  local r = {}
  for k, v in pairs(t) do
    if not only or type(v) == only then r[k] = true end
  end
  return r
end
-- keys seen must be fields of the class (a subset: optional fields)
local function fieldsof(classname, t)
  for k in pairs(t) do
    check(defs[classname] and defs[classname].fields[k],
          classname .. ": the module gives " .. tostring(k) .. ", the definitions do not")
  end
end

-- the module
local mod, modfields = {}, {}
for k, v in pairs(idscheme) do
  if type(v) == "function" then mod[k] = true else modfields[k] = true end
end
same("idscheme", mod, "funcs")
same("idscheme", modfields, "fields")

-- scheme handles: methods in s_index's upvalue, attributes in the user value
local s = idscheme.scheme("snowflake")
local index = getmetatable(s).__index
local methods
for i = 1, 8 do
  local _, v = debug.getupvalue(index, i)
  if type(v) == "table" and type(v.generator) == "function" then methods = v end
end
check(methods ~= nil, "the scheme handle's methods found")
same("idscheme.Scheme", keys(methods or {}, "function"), "funcs")
same("idscheme.Scheme", keys((debug.getuservalue(s, 1))), "fields")
for _, name in ipairs(idscheme.list()) do
  for _, fd in ipairs(idscheme.scheme(name).fields) do fieldsof("idscheme.FieldInfo", fd) end
end

-- generators and IDs
local g = s:generator()
same("idscheme.Generator", keys(getmetatable(g).__index, "function"), "funcs")
local id = g:next()
same("idscheme.ID", keys(getmetatable(id).__index, "function"), "funcs")
local lease = g:lease()
check(lease ~= nil, "a snowflake generator holds a local slot")
if lease then
  fieldsof("idscheme.Lease", lease)
  same("idscheme.Lease", keys(lease), "fields")
end
g:close()

-- inspect's candidates (an ID, a format at another size)
for _, text in ipairs{ "01ARZ3NDEKTSV4RRFFQ69G5FAV", "eeLB8VAyjq", "175928847299117063" } do
  for _, c in ipairs(idscheme.inspect(text)) do fieldsof("idscheme.Candidate", c) end
end

-- the compressor
local C = idscheme.compressor
same("idscheme.compressor", keys(C, "function"), "funcs")
local a = C.new()
same("idscheme.Compressor", keys(getmetatable(a).__index, "function"), "funcs")
a:generate_compressed_id()
fieldsof("idscheme.CreationRange", a:take_next_creation_range())
a:close()

-- idscheme.resty: its functions and fields, and the keys of its option
-- tables as the module takes them: the names its refusal of an unknown
-- key lists (each function checks its options before anything else)
local resty = require("idscheme.resty")
same("idscheme.resty", keys(resty, "function"), "funcs")
local rfields = {}
for k, v in pairs(resty) do if type(v) ~= "function" then rfields[k] = true end end
same("idscheme.resty", rfields, "fields")
local function known(fn, what)
  local ok, msg = pcall(fn, { ["no such option"] = true })
  local list = not ok and tostring(msg):match("%(known: ([^)]*)%)")
  check(list, what .. " refuses an unknown option, listing the known ones: " ..
        tostring(msg))
  local r = {}
  for k in (list or ""):gmatch("[^, ]+") do r[k] = true end
  return r
end
same("idscheme.resty.InitOptions", known(resty.init, "init"), "fields", true)
same("idscheme.resty.RequestIdOptions", known(resty.request_id, "request_id"),
     "fields", true)

print(passed .. " passed, " .. failed .. " failed")
os.exit(failed == 0 and 0 or 1)
