-- FLUID (Flux RFC 19) against the reference vectors, spec/vectors/fluid.json.
--
-- Values are compared as decimal strings (id:encode("dec")) and as Lua
-- integers (id:integer(), wrapped above 2^63 like string.unpack("<I8");
-- under LuaJIT exact up to 2^53 and an error above it:
-- helper.assert_integer).
-- Where the reference is defective (spec/vectors/README.md, "FLUID"), we
-- assert our documented behaviour instead; every such input is listed below
-- with the reason.

local helper = require "spec.helper"
local idscheme = require "idscheme"

local V = helper.vectors("fluid")
local show = helper.show

local ENCODINGS = { "f58", "f58_plain", "dec", "hex", "dothex", "words",
                    "emoji" }

-- input -> reason, from a list of { reason, inputs }.
local function reasons (list)
  local t = {}
  for _, r in ipairs(list) do
    for _, input in ipairs(r[2]) do
      assert(t[input] == nil, "listed twice: " .. show(input))
      t[input] = r[1]
    end
  end
  return t
end

-- decode_valid inputs that the reference accepts and we reject.
local REJECTED = reasons{
  { "whitespace only is blank, not 0", { " ", "   \t", "\n" } },
  { "dec takes no sign", { "+5" } },
  { "dothex: no space inside", { "0. 0.0.0" } },
  { "dothex: no 0x inside a group", { "0x1.0.0.0" } },
  { "dothex: no sign", { "+1.0.0.0", "-1.0.0.0", "0.0.0.-1", "0.0.-1.0" } },
  { "emoji: value above 2^64-1 (the reference wraps)",
    { "🚹💗💧👗😷📷📓", "🎌🎌🎌🎌🎌🎌🎌" } },
  { "words: separators other than '-'",
    { "reform-remote galileo  heart_package+academy" } },
  { "words: leading separator",
    { "-reform-remote-galileo--heart-package-academy" } },
  { "words: trailing separator",
    { "reform-remote-galileo--heart-package-academy-" } },
  { "words: a word after the sixth (the reference ignores it)",
    { "reform-remote-galileo--heart-package-academy-bogus" } },
  { "words: digits as separators",
    { "reform1remote2galileo3heart4package5academy-" } },
}

-- decode_invalid inputs that fail in the reference only because it does not
-- trim trailing whitespace; we trim both ends for every form.
local ACCEPTED = {
  ["0.0.0.0 "] = "0",
  ["ƒuZZybuNNy "] = "6731191091817518",
  ["😃 "] = "0",
}

-- Typed decodes (fluid_decode with an explicit type) that the reference
-- accepts and we reject, besides REJECTED and the undefined-behaviour ones.
local TYPED_REJECTED = {
  ["reform remote galileo heart package academy"] =
    "words: separators other than '-'",
}

local function trim (s)
  return (s:gsub("^[ \t\n\v\f\r]+", ""):gsub("[ \t\n\v\f\r]+$", ""))
end

local function reason (entry)
  local input = helper.input(entry)
  if entry.undefined_behavior_in_reference then
    return "undefined behaviour in the reference: " .. (entry.why or "")
  end
  return REJECTED[input]
end

-- Asserts that decoding returned nil and a non-empty message.
local function assert_rejected (id, msg, input)
  assert.is_nil(id, "expected " .. show(input) .. " to be rejected")
  assert.are.equal("string", type(msg))
  assert.is_true(#msg > 0, "empty error message")
end

-- Asserts that id holds the value given as a decimal string.
local function assert_value (dec, id, msg, input)
  assert.is_not_nil(id, "decoding " .. show(input) .. " failed: "
                        .. tostring(msg))
  assert.are.equal(dec, id:encode("dec"))
  helper.assert_integer(id, dec, "id:integer() of " .. show(input))
end

describe("fluid vectors", function ()
  local s = idscheme.scheme("fluid")

  it("are all present", function ()
    assert.are.equal(93, #V.encodings)
    assert.are.equal(86, #V.decode_valid)
    assert.are.equal(65, #V.decode_invalid)
    assert.are.equal(93, #V.layout)
  end)

  describe("encodings", function ()
    for _, e in ipairs(V.encodings) do
      describe(e.value .. (e.note and (" (" .. e.note .. ")") or ""),
               function ()
        local function value ()
          local id, msg = s:decode(e.value, "dec")
          assert_value(e.value, id, msg, e.value)
          return id
        end

        it("encodes to every form", function ()
          local id = value()
          for _, enc in ipairs(ENCODINGS) do
            assert.are.equal(e[enc], id:encode(enc), "encoding " .. enc)
          end
          assert.are.equal(e.f58, id:encode())
          assert.are.equal(e.f58, tostring(id))
        end)

        it("decodes every form, named or detected", function ()
          local id = value()
          for _, enc in ipairs(ENCODINGS) do
            local text = e[enc]
            local got, msg = s:decode(text, enc)
            assert_value(e.value, got, msg, text .. " as " .. enc)
            assert.is_true(got == id)
            got, msg = s:decode(text)
            assert_value(e.value, got, msg, text .. " detected")
          end
        end)

        it("decodes either f58 prefix with both f58 codecs", function ()
          for _, enc in ipairs({ "f58", "f58_plain" }) do
            for _, text in ipairs({ e.f58, e.f58_plain }) do
              local got, msg = s:decode(text, enc)
              assert_value(e.value, got, msg, text .. " as " .. enc)
            end
          end
        end)

        it("round-trips through bytes", function ()
          local id = value()
          local b = id:bytes()
          assert.are.equal(helper.u64_bytes(e.value), b)
          assert.is_true(s:from_bytes(b) == id)
        end)
      end)
    end
  end)

  describe("decode_valid", function ()
    for _, e in ipairs(V.decode_valid) do
      local input = helper.input(e)
      local why = reason(e)
      if why then
        it("rejects " .. show(input) .. " (" .. why .. ")", function ()
          local id, msg = s:decode(input)
          assert_rejected(id, msg, input)
        end)
      else
        it("decodes " .. show(input) .. " to " .. e.value, function ()
          local id, msg = s:decode(input)
          assert_value(e.value, id, msg, input)
        end)
      end
    end
  end)

  describe("decode_invalid", function ()
    for _, e in ipairs(V.decode_invalid) do
      local input = helper.input(e)
      local value = ACCEPTED[input]
      if value then
        it("accepts " .. show(input) .. " (trimmed) as " .. value,
           function ()
          local id, msg = s:decode(input)
          assert_value(value, id, msg, input)
        end)
      else
        it("rejects " .. show(input) .. " (" .. e.errno .. ", "
           .. (e.why or "") .. ")", function ()
          local id, msg = s:decode(input)
          assert_rejected(id, msg, input)
        end)
      end
    end
  end)

  -- fluid_decode(input, type): the same text grammar per named encoding,
  -- except that the reference never trims whitespace there.
  describe("typed_decode", function ()
    for _, section in ipairs({ "decode_valid", "decode_invalid" }) do
      for _, e in ipairs(V[section]) do
        local input = helper.input(e)
        local encs = {}
        for enc in pairs(e.typed_decode) do encs[#encs + 1] = enc end
        table.sort(encs)
        for _, enc in ipairs(encs) do
          local r = e.typed_decode[enc]
          local why = reason(e) or TYPED_REJECTED[input]
          local name = show(input) .. " as " .. enc
          if r.ok and not why then
            it("decodes " .. name .. " to " .. r.value, function ()
              local id, msg = s:decode(input, enc)
              assert_value(r.value, id, msg, name)
            end)
          elseif trim(input) ~= input and trim(input) ~= "" then
            it("decodes " .. name .. " as its trimmed text", function ()
              local id, msg = s:decode(input, enc)
              local tid, tmsg = s:decode(trim(input), enc)
              if tid == nil then
                assert_rejected(id, msg, name)
              else
                assert_value(tid:encode("dec"), id, msg, name)
              end
            end)
          else
            it("rejects " .. name .. (why and (" (" .. why .. ")") or ""),
               function ()
              local id, msg = s:decode(input, enc)
              assert_rejected(id, msg, name)
            end)
          end
        end
      end
    end
  end)

  describe("layout", function ()
    for _, e in ipairs(V.layout) do
      it(e.value .. " has timestamp " .. e.timestamp .. ", generator "
         .. e.generator .. ", sequence " .. e.sequence, function ()
        local id = assert(s:decode(e.value, "dec"))
        local f = id:fields()
        local want = { timestamp = helper.u64(e.timestamp),
                       generator = e.generator, sequence = e.sequence }
        assert.are.same(want, f)
        assert.is_true(s:compose(f) == id)
        assert.are.equal(e.value, s:compose(want):encode("dec"))
      end)
    end
  end)

  -- Real generator runs: the reference's clock cannot be pinned from Lua,
  -- so check what does not depend on elapsed time.
  describe("generated", function ()
    local runs, order = {}, {}
    for _, e in ipairs(V.generated) do
      if e.preset_seq == helper.null then
        local key = e.init_id .. "/" .. e.init_timestamp
        if not runs[key] then
          runs[key] = {}
          order[#order + 1] = key
        end
        table.insert(runs[key], e)
      end
    end
    for _, key in ipairs(order) do
      local run = runs[key]
      local first = run[1]
      it("generator " .. first.init_id .. " from timestamp "
         .. first.init_timestamp, function ()
        local g = s:generator({ generator = first.init_id,
                                start_timestamp = first.init_timestamp })
        local prev
        for i, e in ipairs(run) do
          local id = g:next()
          local f = id:fields()
          assert.are.equal(e.generator, f.generator)
          assert.is_true(f.timestamp >= helper.u64(e.timestamp))
          assert.is_true(f.timestamp < helper.u64(e.timestamp) + 60000)
          if i == 1 then assert.are.equal(0, f.sequence) end
          if f.timestamp == helper.u64(e.timestamp) then
            -- no millisecond has passed since the start: as the reference
            assert.are.equal(e.value, id:encode("dec"))
          end
          if prev then assert.is_true(prev < id) end
          prev = id
        end
      end)
    end
  end)
end)
