-- lua_fuzz.lua SECONDS [CPATH_DIR [LUA_DIR]]: the Lua-level fuzz harness.
-- Random option tables, field tables, define specs, encodings and texts
-- thrown at the module's API for SECONDS, from a seeded PRNG (FUZZ_SEED,
-- else the time; printed, so that a run can be repeated).  Tables may have
-- a metatable whose __index returns another value on every read and runs
-- the garbage collector from inside, which is where a binding that keeps a
-- string it does not anchor, or reads a key twice, goes wrong.  Run by
-- fuzz/run.sh against the ASan + UBSan build of the module (a memory error
-- kills the process).  A call must succeed consistently (what decodes
-- re-encodes to text that decodes to the same ID; IDs increase (those of
-- a scheme with time); a define
-- that succeeds is found by name) or fail with a message: an error string,
-- or nil and a message where the API returns one.  Ends with one line
-- "N passed, N failed", N counting calls.
local secs = tonumber(arg[1]) or 10
if arg[2] then package.cpath = arg[2] .. "/?.so;" .. package.cpath end
if arg[3] then
  package.path = arg[3] .. "/?.lua;" .. arg[3] .. "/?/init.lua;" ..
                 package.path
end
local ids = require "idscheme"
local compressor = ids.compressor

local seed = tonumber(os.getenv("FUZZ_SEED") or "") or os.time()
math.randomseed(seed)
local R = math.random
print(("lua_fuzz: %s, seed %d, %d s"):format(_VERSION ..
      (jit and " (" .. jit.version .. ")" or ""), seed, secs))

local passed, failed, calls, oks = 0, 0, {}, {}
local function pick (t) return t[R(#t)] end

-- ------------------------------------------------------------ values

local maxint = math.maxinteger or 2 ^ 53
local minint = math.mininteger or -2 ^ 53
local numbers = {0, 1, -1, 2, 3, 7, 8, 12, 41, 63, 64, 65, 80, 128, 160,
  161, 255, 1023, 16383, 16384, 2 ^ 31, 2 ^ 32, 2 ^ 53, maxint, minint,
  1288834974657, 1735689600000, 0.5, -0.0, 3.0, 1 / 0, -1 / 0, 0 / 0}
local names = {"timestamp", "generator", "sequence", "worker", "shard",
  "node", "random", "payload", "domain", "domain_name", "node_name",
  "serial", "qualifier", "megaseconds", "seconds", "microseconds",
  "epoch_ms", "start_timestamp", "policy", "max_ahead_ms", "slots",
  "interval", "hash", "session_id", "cluster_size", "name", "fields",
  "encodings", "default_encoding", "bytes", "kind", "bits", "unit",
  "epoch", "value", "version", "variant"}
local words = {"", "hold", "error", "none", "local", "phash", "phash2",
  "content", "user", "example.com", "uid@127.0.0.1", "time", "node",
  "sequence", "random", "constant", "hash", "ns", "us", "ms", "10ms", "s",
  "1/65536 s", "3/7 s", "0/1 s", "dec", "hex", "base58", "base62",
  "crockford", "base32", "base64url", "uuid", "f58", "emoji", "words",
  "b64sort:-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz",
  "b64sort:abc", "a\0b", "\198\146", "d4d4d4d4-0000-4000-8000-000000000001",
  "did:siq:", "0x", "ƒ1"}
local schemes = ids.list()
for _, n in ipairs(schemes) do words[#words + 1] = n end
local texts = {}                       -- well-formed texts, to mutate

local function randstring ()
  local t = {}
  for i = 1, R(0, 40) do t[i] = string.char(R(0, 255)) end
  return table.concat(t)
end

-- A text near a valid one: a few bytes changed, cut or repeated.
local function mutated ()
  local s = #texts > 0 and pick(texts) or randstring()
  for _ = 1, R(0, 3) do
    local i, how = R(1, #s + 1), R(5)
    if how == 1 then s = s:sub(1, i - 1) .. string.char(R(0, 255)) ..
                         s:sub(i + 1)
    elseif how == 2 then s = s:sub(1, i - 1)
    elseif how == 3 then s = s .. s:sub(i)
    elseif how == 4 then s = " " .. s .. "\n"
    else s = s:sub(1, i - 1) .. pick(words) .. s:sub(i) end
  end
  return s
end

local anyvalue

-- A table whose __index gives another value on every read and runs the
-- collector first, so that what the last read made may be freed.
local function volatile (t, gen)
  return setmetatable(t or {}, {__index = function (_, k)
    collectgarbage()
    return gen(k)
  end})
end

local function str ()
  local k = R(4)
  return k == 1 and pick(words) or k == 2 and pick(names) or
         k == 3 and mutated() or randstring()
end

function anyvalue (depth)
  depth = depth or 0
  local k = R(12)
  if k == 1 then return nil
  elseif k == 2 then return R(2) == 1
  elseif k <= 4 then return pick(numbers)
  elseif k == 5 then return R(-100000, 100000)
  elseif k <= 8 then return str()
  elseif k == 9 and depth < 2 then
    local t = {}
    for _ = 1, R(0, 4) do
      local key = R(2) == 1 and pick(names) or R(1, 4)
      t[key] = anyvalue(depth + 1)
    end
    return R(3) == 1 and volatile(t, function () return anyvalue(2) end) or t
  elseif k == 10 then return print
  elseif k == 11 then return ids.scheme(pick(schemes))
  else return coroutine.create(print) end
end

-- What a read of key k gives: usually right for k, sometimes anything.
local function plausible (k)
  if R(4) == 1 then return anyvalue(1) end
  if k == "name" then return "lf" .. R(1, 1e6) end
  if k == "bits" then return pick({1, 4, 8, 12, 32, 41, 48, 64, 80, 0, -1}) end
  if k == "kind" then return pick({"time", "node", "sequence", "random",
                                   "constant"}) end
  if k == "unit" then return pick({"ms", "s", "10ms", "1/65536 s", "x"}) end
  if k == "epoch" then return pick({0, 1288834974657, 1e15, -1}) end
  if k == "value" then return R(0, 3) end
  if k == "slots" then return pick({"none", "local", "x"}) end
  if k == "policy" then return pick({"hold", "error", "x"}) end
  if k == "session_id" then          -- a version 4 UUID, mostly
    return ("%08x-%04x-4%03x-%x%03x-%012x"):format(R(0, 2 ^ 31),
           R(0, 65535), R(0, 4095), R(8, 11), R(0, 4095), R(0, 2 ^ 40))
  end
  return R(2) == 1 and pick(numbers) or str()
end

-- ------------------------------------------------------------- checks

local current                          -- the case, for messages

local function fail (why)
  failed = failed + 1
  if failed <= 20 then
    print(("FAIL %s (seed %d): %s"):format(current, seed, why))
  end
end

-- A raised error must be a message.
local function clear (err)
  if type(err) ~= "string" or #err == 0 then
    fail("error without a message: " .. tostring(err))
    return false
  end
  return true
end

-- pcall, then: a success runs `check` on the results; an error must say
-- something.  Counts the call.
local function pack (...) return {n = select("#", ...), ...} end
local unpack = table.unpack or unpack

local function try (name, check, f, ...)
  current = name
  calls[name] = (calls[name] or 0) + 1
  local r = pack(pcall(f, ...))
  if r[1] then
    local ok, why = true, nil
    if check then ok, why = check(select(2, unpack(r, 1, r.n))) end
    if ok == false then fail(why) else passed = passed + 1 end
    oks[name] = (oks[name] or 0) + 1
    return select(2, unpack(r, 1, r.n))
  end
  if clear(r[2]) then passed = passed + 1 end
end

local function same (a, b) return a == b and not (a < b) and not (b < a) end

-- An ID: every encoding writes text that decodes to it, its bytes read
-- back, its fields compose back.
local function roundtrip (s, id)
  for _, e in ipairs(s.encodings) do
    local t = id:encode(e)
    if #texts < 500 then texts[#texts + 1] = t
    else texts[R(#texts)] = t end
    local back, msg = s:decode(t, e)
    if not back then return false, ("%s %s '%s': %s"):format(s.name, e, t,
                                                          tostring(msg)) end
    if not same(back, id) then
      return false, ("%s %s '%s' decodes to another ID"):format(s.name, e, t)
    end
  end
  local d = s:decode(tostring(id))        -- the default encoding
  if not d or not same(d, id) then
    return false, ("%s: tostring '%s' does not decode back"):format(s.name,
                                                                tostring(id))
  end
  local back = s:from_bytes(id:bytes())
  if not back or not same(back, id) then
    return false, s.name .. ": bytes do not read back"
  end
  local ok, c = pcall(s.compose, s, id:fields())
  if not ok then return false, s.name .. ": fields do not compose: " .. c end
  if not same(c, id) then return false, s.name .. ": fields compose to another ID" end
  return true
end

local function optcodec (s)
  local k = R(5)
  if k == 1 then return nil end
  if k <= 4 then return pick(s.encodings) end
  return anyvalue()
end

-- ------------------------------------------------------------- cases

local function a_scheme ()
  if R(4) == 1 then return ids.scheme(pick(schemes)) end
  local name = R(6) == 1 and anyvalue() or pick(schemes)
  local params
  if R(3) == 1 then
    params = volatile({[pick(names)] = plausible()}, plausible)
  end
  return try("scheme", function (s)
    if type(name) == "string" and s.name ~= name then
      return false, "scheme('" .. name .. "') is " .. tostring(s.name)
    end
    if params == nil and rawequal(ids.scheme(name), s) == false then
      return false, "scheme('" .. name .. "') twice gives two handles"
    end
  end, ids.scheme, name, params)
end

local function options (s)
  local t = {}
  for _ = 1, R(0, 3) do
    local k = R(4) == 1 and anyvalue() or pick(names)
    if k ~= nil and k == k then t[k] = plausible(k) end
  end
  for _, f in ipairs(s.fields) do      -- node fields, mostly given
    if f.kind == "node" and R(4) > 1 then
      t[f.name] = R(4) == 1 and anyvalue() or R(0, 2 ^ math.min(f.bits, 31) - 1)
    end
  end
  if R(3) > 1 then t.slots = "none" end
  if R(3) == 1 then volatile(t, plausible) end
  return t
end

local function increasing (s, list)
  -- without time (UUIDv4), or time split low first (UUIDv1): no order
  for i = 2, s.ordered and #list or 0 do
    if not (list[i - 1] < list[i]) then
      return false, s.name .. ": generated IDs do not increase"
    end
  end
  for i = 1, #list do
    local ok, why = roundtrip(s, list[i])
    if not ok then return false, why end
  end
  return true
end

local function c_generator (s)
  local g = try("generator", nil, s.generator, s, options(s))
  if not g then return end
  local list = {}
  for _ = 1, R(1, 4) do
    local k = R(4)
    if k == 1 then
      local id = try("next", nil, g.next, g)
      if id then list[#list + 1] = id end
    elseif k == 2 then
      local enc = optcodec(s)
      local t = try("next_string", nil, g.next_string, g, enc)
      if t then
        local id = s:decode(t, type(enc) == "string" and enc or nil)
        if not id then fail(s.name .. ": next_string gives '" .. t ..
                            "', which does not decode") end
        list[#list + 1] = id
      end
    else
      local b = try(k == 3 and "next_batch" or "next_strings", nil,
                    k == 3 and g.next_batch or g.next_strings, g,
                    R(5) == 1 and anyvalue() or R(0, 5), optcodec(s))
      if k == 3 and type(b) == "table" then
        for _, id in ipairs(b) do list[#list + 1] = id end
      end
    end
  end
  current = "generator"
  local ok, why = increasing(s, list)
  if not ok then fail(why) end
  g:close()
end

local function c_compose (s)
  local t = {}
  for _, f in ipairs(s.fields) do
    if R(5) > 1 then
      local k = R(6)
      t[f.name] = k == 1 and anyvalue() or
                  k == 2 and pick(numbers) or
                  k == 3 and randstring() or
                  f.bits > 64 and string.rep("\1", math.ceil(f.bits / 8)) or
                  R(0, 2 ^ math.min(f.bits, 31) - 1)
    end
  end
  if R(3) == 1 then
    volatile(t, function (k)
      for _, f in ipairs(s.fields) do
        if f.name == k then return R(0, 2 ^ math.min(f.bits, 31) - 1) end
      end
      return plausible(k)
    end)
  end
  try("compose", function (id) return roundtrip(s, id) end, s.compose, s, t)
end

local function c_decode (s)
  local text, enc = R(8) == 1 and anyvalue() or mutated(), optcodec(s)
  local named = enc == nil or (type(enc) == "string" and
                               pcall(s.decode, s, "0", enc))
  try("decode", function (id, msg)
    if id == nil then
      if type(msg) ~= "string" or #msg == 0 then
        return false, "decode gives nil without a message"
      end
      return true
    end
    return roundtrip(s, id)
  end, s.decode, s, text, enc)
  if type(text) == "string" and named then   -- bad text never raises
    current = "decode"
    local ok, err = pcall(s.decode, s, text, enc)
    if not ok then fail("decode raised on a string: " .. tostring(err)) end
  end
end

local function c_from_bytes (s)
  local b = R(2) == 1 and string.rep("\0", R(0, 2)) .. randstring() or
            (texts[1] and pick(texts) or "")
  try("from_bytes", function (id, msg)
    if id == nil then return type(msg) == "string" and #msg > 0,
                             "from_bytes: nil without a message" end
    return roundtrip(s, id)
  end, s.from_bytes, s, b)
end

local function field ()
  local f = {}
  for _, k in ipairs({"name", "kind", "bits", "unit", "epoch", "value"}) do
    if R(6) > 1 then f[k] = plausible(k) end
  end
  if R(10) == 1 then f[str()] = anyvalue() end
  return R(3) == 1 and volatile(f, plausible) or f
end

local function c_define ()
  local spec, fields = {}, {}
  local shapes = {
    {{"timestamp", "time", 41, "ms"}, {"node", "node", 10},
     {"seq", "sequence", 12}},
    {{"timestamp", "time", 48, "ms"}, {"random", "random", 80}},
  }
  if R(2) == 1 then                    -- near a working spec
    for i, f in ipairs(pick(shapes)) do
      fields[i] = {name = f[1], kind = f[2], bits = f[3], unit = f[4]}
      if R(4) == 1 then fields[i] = volatile({}, function (k)
        local v = {name = f[1], kind = f[2], bits = f[3], unit = f[4]}
        return R(5) == 1 and plausible(k) or v[k]
      end) end
    end
  else
    for i = 1, R(0, 13) do fields[i] = R(10) == 1 and anyvalue() or field() end
  end
  spec.fields = R(10) == 1 and anyvalue() or fields
  spec.name = R(8) == 1 and anyvalue() or "lf" .. R(1, 1e9)
  if R(2) == 1 then
    local e = {}
    for i = 1, R(0, 13) do e[i] = R(6) == 1 and anyvalue() or pick(words) end
    spec.encodings = e
  end
  if R(4) == 1 then spec.default_encoding = plausible("x") end
  if R(4) == 1 then spec.bytes = pick(numbers) end
  if R(3) == 1 then volatile(spec, plausible) end
  local s = try("define", function (s)
    if not rawequal(ids.scheme(s.name), s) then
      return false, "define: scheme('" .. s.name .. "') is another handle"
    end
  end, ids.define, spec)
  if s then
    schemes[#schemes + 1] = s.name
    c_compose(s)
    c_decode(s)
    c_generator(s)
  end
end

local function c_compressor ()
  local opts = R(6) == 1 and anyvalue() or
               {session_id = R(5) > 1 and plausible("session_id") or
                             pick(words), cluster_size = R(3) == 1 and
                             anyvalue() or R(-2, 600)}
  if type(opts) == "table" and R(3) == 1 then volatile(opts, plausible) end
  local c = try("compressor.new", nil, compressor.new, opts)
  if not c then return end
  for _ = 1, R(0, 20) do
    try("generate", nil, c.generate_compressed_id, c)
  end
  if R(2) == 1 then
    local r = try("take_next", nil, c.take_next_creation_range, c)
    if type(r) == "table" and R(2) == 1 then
      try("finalize", nil, c.finalize_creation_range, c,
          R(4) == 1 and volatile(r, plausible) or r)
    end
  end
  local k = R(3)
  if k == 1 then try("normalize", nil, c.normalize_to_op_space, c,
                     R(2) == 1 and R(-30, 30) or anyvalue()) end
  if k == 2 then try("decompress", nil, c.decompress, c, anyvalue()) end
  local with = R(2) == 1
  local text = try("serialize", nil, c.serialize, c, with)
  if type(text) == "string" then
    if #texts < 500 then texts[#texts + 1] = text end
    local d = try("deserialize", nil, compressor.deserialize, text,
                  not with and "d4d4d4d4-0000-4000-8000-000000000001" or nil)
    if d then
      local again = d:serialize(with)
      current = "deserialize"
      if again ~= text then fail("deserialize: serializes to other text") end
      d:close()
    end
  end
  c:close()
end

local function c_deserialize ()
  try("deserialize", nil, compressor.deserialize,
      R(6) == 1 and anyvalue() or mutated(),
      R(2) == 1 and nil or plausible("session_id"))
end

-- Methods called on the wrong object, or with the wrong arguments.
local function c_misuse (s)
  local id = #texts > 0 and s:decode(pick(texts)) or nil
  local m = pick({s.decode, s.compose, s.from_bytes, s.generator})
  try("misuse", nil, m, anyvalue(), anyvalue(), anyvalue())
  if id then
    local f = pick({id.encode, id.fields, id.bytes, id.integer, id.scheme})
    try("misuse", nil, f, R(2) == 1 and id or anyvalue(), anyvalue())
  end
end

-- ---------------------------------------------------------------- run

local deadline, n = os.time() + secs, 0
while os.time() < deadline do
  n = n + 1
  local s = a_scheme()
  local k = R(20)
  if s then
    if k <= 4 then c_decode(s)
    elseif k <= 7 then c_compose(s)
    elseif k <= 9 then c_generator(s)
    elseif k == 10 then c_from_bytes(s)
    elseif k == 11 then c_misuse(s)
    end
  end
  if k == 12 or k == 13 then c_define()
  elseif k == 14 then c_compressor()
  elseif k == 15 then c_deserialize() end
  if n % 200 == 0 then collectgarbage() end
end

local kinds = {}
for k in pairs(calls) do kinds[#kinds + 1] = k end
table.sort(kinds)
local t = {}
for _, k in ipairs(kinds) do
  t[#t + 1] = ("%s %d/%d"):format(k, oks[k] or 0, calls[k])
end
print("calls (succeeded/made): " .. table.concat(t, ", "))
print(("%d rounds in %d s"):format(n, secs))
print(("%d passed, %d failed"):format(passed, failed))
os.exit(failed == 0 and 0 or 1)
