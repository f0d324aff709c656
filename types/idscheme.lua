---@meta idscheme
-- LuaLS (lua-language-server) definitions of the idscheme module: for
-- editors only, never loaded.  Point "Lua.workspace.library" at the
-- directory that holds this file (/usr/share/idscheme/lua-types from the
-- Debian package, PREFIX/share/idscheme/lua-types from cmake --install).
-- scripts/check-luals.lua checks it against the module (the luals_defs
-- test): every function, method and attribute here exists there, and the
-- other way round.  idscheme.resty's are in idscheme/resty.lua beside it.

---The idscheme module: schemes of distributed unique IDs.
---@class idscheme
---@field _VERSION string the library's version ("0.3.0")
---@field compressor idscheme.compressor the Fluid Framework id-compressor
local idscheme = {}

---A scheme's field, as `s.fields` lists them.
---@class idscheme.FieldInfo
---@field name string
---@field bits integer
---@field kind "time"|"node"|"sequence"|"counter"|"random"|"instance"|"constant"|"version"|"hash"|"qualifier"
---@field variable? boolean its width varies (SIQ's serial)
---@field unit? string a time field's unit, as define takes it ("ms", "1/10000000 s")
---@field epoch? integer a time field's epoch, Unix ms

---A scheme handle: one per scheme and parameters.
---@class idscheme.Scheme
---@field name string
---@field bits integer
---@field bytes integer
---@field encodings string[] a fresh copy on each access
---@field default_encoding string
---@field ordered boolean a generator's IDs increase as values
---@field fields idscheme.FieldInfo[] a fresh copy on each access
local Scheme = {}

---The ID of the given fields (integers; a qualifier's name; a wide
---field's bytes).  Raises if a field is missing or out of range.
---@param fields table<string, integer|string>
---@return idscheme.ID
function Scheme:compose(fields) end

---Reads text in the scheme's default encoding (or the one named).
---@param text string
---@param encoding? string
---@return idscheme.ID|nil id
---@return string? message why not
function Scheme:decode(text, encoding) end

---Reads the big-endian bytes of the scheme's width.
---@param bytes string
---@return idscheme.ID|nil id
---@return string? message
function Scheme:from_bytes(bytes) end

---The ID whose value is x (schemes of 64 bits or fewer): an integer, a
---decimal string, or under LuaJIT an int64_t/uint64_t cdata; nil and a
---message for a value that is no ID of the scheme.
---@param x integer|string|ffi.cdata*
---@return idscheme.ID|nil id
---@return string? message
function Scheme:from_integer(x) end

---A generator (options by name: a node field's value, policy,
---max_ahead_ms, max_wait_ms, slots, ...).  Raises on an unknown option.
---@param options? table<string, integer|string>
---@return idscheme.Generator
function Scheme:generator(options) end

---Makes IDs that never repeat.
---@class idscheme.Generator
local Generator = {}

---@param qualifier? string SIQ: a type name, for this one ID
---@return idscheme.ID
function Generator:next(qualifier) end

---An ID whose time is `unix_ms` (past or future): fresh random bits beside
---it, or (a layout with a sequence alone, its node given) a sequence of
---its own for past times given in order.
---@param unix_ms integer
---@return idscheme.ID
function Generator:next_at(unix_ms) end

---@param encoding? string
---@return string
function Generator:next_string(encoding) end

---@param n integer
---@return idscheme.ID[]
function Generator:next_batch(n) end

---@param n integer
---@param encoding? string
---@return string[]
function Generator:next_strings(n, encoding) end

---@return idscheme.Scheme
function Generator:scheme() end

---The leased slot's number and its store's kind; nothing without one.
---@return integer? slot
---@return string? store
function Generator:slot() end

---The lease's state; nil when the generator holds no slot.
---@return idscheme.Lease?
function Generator:lease() end

---Releases the slot (also on collection, and `<close>` under Lua 5.4).
function Generator:close() end

---@class idscheme.Lease
---@field slot integer
---@field backend string
---@field store string
---@field valid boolean
---@field limit_ms integer
---@field floor_ms integer
---@field ttl_ms integer
---@field margin_ms integer
---@field renewals integer
---@field failures integer
---@field losses integer
---@field last_renewal_ms integer
---@field caution? string what the last claim warned of (a skipped slot, a store setting)
---@field log string[] lines kept since the last call (slot_log = "keep")

---An ID: compares (==, <) as its value; tostring gives its text.
---@class idscheme.ID
local ID = {}

---@param encoding? string
---@return string
function ID:encode(encoding) end

---Field name -> integer (a qualifier's name; values past 2^53 under
---LuaJIT as decimal strings; a wide field's bytes).
---@return table<string, integer|string>
function ID:fields() end

---@return string
function ID:bytes() end

---The value, for schemes of 64 bits or fewer.
---@return integer
function ID:integer() end

---The value as a 64-bit integer (schemes of 64 bits or fewer): Lua 5.4's
---integer; under LuaJIT a uint64_t cdata.
---@return integer|ffi.cdata*
function ID:int64() end

---Unix ms of its time (floored) and the ns past that ms; nothing when
---it has no time.
---@return integer? ms
---@return integer? ns
function ID:time() end

---@return idscheme.Scheme
function ID:scheme() end

---A reading of a text by inspect.
---@class idscheme.Candidate
---@field scheme string
---@field encoding string
---@field id? idscheme.ID absent for a format at another size
---@field fields? table<string, integer|string>
---@field length? integer the format at another size (nanoid(10)): its characters
---@field time_ms? integer
---@field marked boolean
---@field plausible boolean
---@field constbits integer the constant bits that hold their values (a version)
---@field confirmed boolean a time in the format's life, not only none to doubt
---@field unique boolean
---@field ambiguous boolean another scheme's reading has as much evidence
---@field refused boolean no reading: too little evidence for it
---@field weak boolean a reading flagged: a guess, not a fact
---@field evidence number the reading's evidence, in bits
---@field marks number the bits of its marks (constants, length, affixes)
---@field rank number its place among the candidates (evidence weighed)
---@field note? string what the reading says of itself ("time before the format existed")
---@field why? string why it is refused, weak or noted, in words

---@class idscheme.FieldSpec
---@field name string
---@field kind "time"|"node"|"sequence"|"counter"|"random"|"instance"|"constant"|"version"|"hash"
---@field bits integer
---@field unit? string
---@field epoch? integer
---@field value? integer
---@field order? "high first"|"low first"

---@class idscheme.About
---@field title? string
---@field note? string
---@field since? integer
---@field aliases? string[]
---@field lengths? integer[] {min, max}

---@class idscheme.DefineSpec
---@field name string
---@field fields idscheme.FieldSpec[]
---@field encodings? string[]
---@field default_encoding? string
---@field bytes? integer
---@field about? idscheme.About

---Every registered scheme's name, sorted.
---@return string[]
function idscheme.list() end

---A scheme handle; raises on an unknown name or bad parameters.
---@param name string
---@param params? table<string, integer|string>
---@return idscheme.Scheme
function idscheme.scheme(name, params) end

---Defines and registers a scheme.
---@param spec idscheme.DefineSpec
---@return idscheme.Scheme
function idscheme.define(spec) end

---What a text is: readings, best first; {} and why when none.
---@param text string
---@param opts? {scheme?: string|idscheme.Scheme, encoding?: string}
---@return idscheme.Candidate[]
---@return string? why
function idscheme.inspect(text, opts) end

---One new ID's text, from the module's own generator of the scheme.
---@param scheme string|idscheme.Scheme
---@param encoding? string
---@return string
function idscheme.new(scheme, encoding) end

---Whether text is an ID of the scheme.
---@param text string
---@param scheme string|idscheme.Scheme
---@param encoding? string
---@return boolean
function idscheme.valid(text, scheme, encoding) end

---The Fluid Framework id-compressor.
---@class idscheme.compressor
local compressor = {}

---@class idscheme.CreationRange
---@field session_id string
---@field ids? {first_gen_count: integer, count: integer, requested_cluster_size: integer, local_id_ranges: integer[][]}

---@param opts? {session_id?: string, cluster_size?: integer}
---@return idscheme.Compressor
function compressor.new(opts) end

---@param text string
---@param new_session_id? string
---@return idscheme.Compressor
function compressor.deserialize(text, new_session_id) end

---@param s string
---@return boolean
function compressor.is_stable_id(s) end

---@param uuid string
---@return string hex
function compressor.uuid_numeric(uuid) end

---@param uuid string
---@param n integer
---@return string uuid
function compressor.uuid_offset(uuid, n) end

---@class idscheme.Compressor
local Compressor = {}

---@return string
function Compressor:local_session_id() end

---@param n integer
function Compressor:set_cluster_size(n) end

---@return integer
function Compressor:cluster_size() end

---@param other idscheme.Compressor
---@param include_local_state? boolean
---@return boolean
function Compressor:equals(other, include_local_state) end

---@return integer
function Compressor:generate_compressed_id() end

---@return integer|string
function Compressor:generate_document_unique_id() end

---@return idscheme.CreationRange
function Compressor:take_next_creation_range() end

---@return idscheme.CreationRange
function Compressor:take_unfinalized_creation_range() end

function Compressor:reset_unfinalized_creation_range() end

---@param range idscheme.CreationRange
function Compressor:finalize_creation_range(range) end

---@param id integer
---@return integer
function Compressor:normalize_to_op_space(id) end

---@param id integer
---@param origin_session_id string
---@return integer
function Compressor:normalize_to_session_space(id, origin_session_id) end

---@param id integer
---@return integer?
function Compressor:try_normalize_to_session_space_without_session(id) end

---@param id integer
---@return string uuid
function Compressor:decompress(id) end

---@param uuid string
---@return integer
function Compressor:recompress(uuid) end

---@param uuid string
---@return integer?
function Compressor:try_recompress(uuid) end

---@param with_session boolean
---@return string
function Compressor:serialize(with_session) end

---@param session_id string
---@param fn fun()
function Compressor:begin_ghost_session(session_id, fn) end

function Compressor:close() end

return idscheme
