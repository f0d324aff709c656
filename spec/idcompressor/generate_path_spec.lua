-- c:generate_compressed_id(), which under LuaJIT runs as an FFI call
-- (idscheme.jit) and under Lua 5.4 as a classic one: the same IDs, the
-- same errors, the same compressor afterwards (issue 25).
local C = require("idscheme").compressor

describe("generate_compressed_id", function ()
  it("mints -1, -2, ... and, once finalized, the finals", function ()
    local a = C.new{ session_id = "0a0a0a0a-0a0a-4a0a-bfff-fffffffffffd",
                     cluster_size = 4 }
    for i = 1, 1000 do assert.are.equal(-i, a:generate_compressed_id()) end
    a:finalize_creation_range(a:take_next_creation_range())
    -- eager finals within the cluster that finalizing made
    local b = C.new{ session_id = "0a0a0a0a-0a0a-4a0a-bfff-fffffffffffd",
                     cluster_size = 4 }
    b:generate_compressed_id()
    b:finalize_creation_range(b:take_next_creation_range())
    local x = b:generate_compressed_id()
    assert.are.equal("number", type(x))
    assert.is_true(x >= 0, tostring(x))
    assert.are.equal(math.floor(x), x)
    a:close(); b:close()
  end)

  it("inside a ghost session mints that session's finals", function ()
    local a = C.new{ session_id = "0a0a0a0a-0a0a-4a0a-bfff-fffffffffffd" }
    local got = {}
    a:begin_ghost_session("d4d4d4d4-0000-4000-8000-000000000001", function ()
      for i = 1, 3 do got[i] = a:generate_compressed_id() end
    end)
    assert.are.same({ 0, 1, 2 }, got)
    a:close()
  end)

  it("raises after close, and for what is no compressor", function ()
    local a = C.new()
    a:generate_compressed_id()
    a:close()
    local ok, err = pcall(a.generate_compressed_id, a)
    assert.is_false(ok)
    assert.truthy(err:find("used after close", 1, true), err)
    local fake = setmetatable({}, getmetatable(C.new()))
    ok, err = pcall(fake.generate_compressed_id, fake)
    assert.is_false(ok)
    ok = pcall(a.generate_compressed_id, "x")
    assert.is_false(ok)
  end)
end)
