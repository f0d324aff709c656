---@meta idscheme.resty
-- LuaLS (lua-language-server) definitions of idscheme.resty, the request
-- IDs of OpenResty (lua/idscheme/resty.lua): for editors only, never
-- loaded.  Beside types/idscheme.lua, in the same library directory
-- ("Lua.workspace.library"), as idscheme/resty.lua, where LuaLS looks for
-- require "idscheme.resty".  scripts/check-luals.lua checks it against the
-- module (the luals_defs test): every function here exists there and the
-- other way round, and each option table's keys are those the module
-- takes.

---A worker's request IDs: `init` in init_worker_by_lua, `request_id` in
---access_by_lua.  Each worker's generator holds a node slot that no other
---live process holds (a local flock, or a Redis or etcd lease); a request
---never waits for the store.
---@class idscheme.resty
---@field _VERSION string the library's version, as idscheme._VERSION
local resty = {}

---What `init` takes.  An unknown key is an error that names it.
---@class idscheme.resty.InitOptions
---@field scheme? string the scheme's name or alias (default "fluid")
---@field params? table<string, integer|string> the scheme's parameters
---@field options? table<string, integer|string> generator options; a node field given here (by its name, or by the name hashed into it such as kuid96's node_name) is kept and takes no slot; slot_log = "stderr" keeps the lease's lines on stderr
---@field slots? string the slot store: "local" (the default), "local:/dir", "redis://...", "etcd://..."
---@field lock_dir? string the same as slots = "local:" .. lock_dir
---@field encoding? string the IDs' encoding (default: the scheme's own if it writes ASCII, else its shortest form that does); one that writes other text is refused
---@field fallback? string a scheme with no node field and at least 62 random bits ("uuidv7", "ulid"), whose IDs are issued while the generator cannot be used

---What `request_id` takes.  An unknown key is an error that names it.
---@class idscheme.resty.RequestIdOptions
---@field header? string the header that carries the ID (default "X-Request-Id")
---@field reuse? boolean|"scheme" keep an incoming ID: true, any token of 1..128 safe ASCII characters; "scheme", only one written exactly as this worker writes its own (or its fallback's)
---@field var? string an nginx variable to set (declared with `set $name "";`)
---@field response_header? boolean set the header on the response (default true)
---@field request_header? boolean pass the header upstream (default false)

---Gives this worker its generator (and its fallback's).  An error in the
---options raises and changes nothing; inside nginx a claim that fails is
---not an error: it is claimed again in the background, and nil returned.
---@param opts? idscheme.resty.InitOptions
---@return idscheme.Generator? generator nil while the claim is retried
function resty.init(opts) end

---The lease of this worker's generator (slot, store, validity, limit,
---renewals, failures, losses, kept log lines); nil without one.
---@return idscheme.Lease?
function resty.lease() end

---This worker's slot number; nil when the options gave every node field.
---@return integer?
function resty.slot() end

---This worker's generator; nil before `init` has one.
---@return idscheme.Generator?
function resty.generator() end

---The next ID's text in the configured encoding; the fallback's (in its
---own encoding) while the generator cannot be used, if `init` had one,
---else an error that says why.
---@return string
function resty.next_string() end

---This request's ID, made (or reused) once per request: set in the
---response header, an nginx variable, the upstream request as asked.
---@param opts? idscheme.resty.RequestIdOptions
---@return string
function resty.request_id(opts) end

return resty
