// app.js: the "What is this ID?" page's script.  web/build.mjs bundles it
// with the idscheme package into the page itself (one HTML file: Chromium
// refuses a module script or a fetch from a file:// page, so nothing may
// be loaded beside it).  Everything the page says comes from the library:
// inspect names a text's scheme and reads it, a scheme generates; this
// file only lays it out.
import * as idscheme from "idscheme";
// the module's bytes, inside the bundle (esbuild's binary loader): init
// fetches nothing
import wasm from "idscheme/idscheme.wasm";
// the helpers' script (worker.js bundled with the package), as text:
// web/build.mjs makes this module
import workerSource from "idscheme-page-worker";
import { countLines, eachLine } from "./count.js";

const $ = (sel) => document.querySelector(sel);
// the cards drawn for one input; every line is read and counted, but a
// paste of a million lines draws its first cards only
const MAX_CARDS = 200;
// a fragment past this is not kept (Chromium takes 2 MB URLs, but a link
// that long is not one to share)
const MAX_FRAGMENT = 64 * 1024;

// h("p", {class: "x"}, "text", child...): an element; attributes that are
// false or null are left out, and children that are null too
function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k === "dataset") Object.assign(e.dataset, v);
    else if (k in e && typeof v !== "string") e[k] = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

// ------------------------------------------------------------- readings

// A line as the page shows it: what inspect says of it (verdict, scheme,
// why, every reading), and for a reading that decodes it, its time,
// fields, bits and every encoding, all from the same result.
function read(text, as) {
  try {
    return shown(idscheme.inspect(text, as ? { scheme: as } : undefined));
  } catch (e) {
    // a text that no scheme can take at all: the library's words
    return { text, verdict: "unknown", why: e.message, candidates: [] };
  }
}

function shown(r) {
  const s = r.scheme ? scheme(r.scheme) : null;
  const best = r.candidates[0];
  // the candidates are every reading, best first: the best is the card
  const others = s && best && best.scheme === r.scheme && best.encoding === r.encoding
    ? r.candidates.slice(1) : r.candidates;
  return {
    text: r.input, verdict: r.verdict, why: r.why, scheme: r.scheme, title: r.title,
    encoding: r.encoding, ms: r.ms, note: r.doubt ?? r.note, with: r.ambiguousWith ?? [],
    fields: s && r.fields ? fieldRows(s, r.fields) : null,
    layout: s?.layout ?? null,
    bits: s && r.value ? bitsOf(r.value, s.layout.bits) : null,
    encodings: r.encodings ? Object.entries(r.encodings) : [],
    candidates: others,
  };
}

// the fields in the layout's order, each with its value
function fieldRows(s, values) {
  const rows = s.layout.fields.filter((f) => f.name in values)
    .map((f) => ({ name: f.name, kind: f.kind, bits: f.bits, index: s.layout.fields.indexOf(f), value: values[f.name] }));
  for (const [k, v] of Object.entries(values))
    if (!rows.some((r) => r.name === k)) rows.push({ name: k, kind: "", bits: "", index: -1, value: v });
  return rows;
}

const schemes = new Map();
function scheme(name) {
  let s = schemes.get(name);
  if (!s) schemes.set(name, s = idscheme.scheme(name));
  return s;
}

// the value's bits from its hex (its big-endian bytes), most significant
// first, as '0' and '1': the layout's own width, below the bytes' padding
function bitsOf(hex, width) {
  let b = "";
  for (const c of hex) b += parseInt(c, 16).toString(2).padStart(4, "0");
  return b.slice(Math.max(0, b.length - width));
}

// ------------------------------------------------------------- drawing

const utcText = (ms) => new Date(ms).toISOString();
const localFormat = new Intl.DateTimeFormat(undefined, {
  year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit",
  second: "2-digit", fractionalSecondDigits: 3, timeZoneName: "short",
});
// numbers always ("1 year ago"): "auto" says "last year" of a time 23
// months back; "now" alone in words
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "always" });
const nowWord = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" }).format(0, "second");
// how long ago (or ahead), in the largest unit that is at least one
function ago(ms, now) {
  const s = (ms - now) / 1000, a = Math.abs(s);
  const units = [["year", 365.2425 * 86400], ["month", 30.436875 * 86400], ["day", 86400],
                 ["hour", 3600], ["minute", 60], ["second", 1]];
  for (const [u, n] of units) if (a >= n) return relative.format(Math.trunc(s / n), u);
  return nowWord;
}
// a Date holds ±8.64e15 ms: a time past that (a 64-bit ns field read
// wrongly, say) is shown as its fields alone
const timeOk = (ms) => typeof ms === "number" && Number.isFinite(ms) && Math.abs(ms) <= 8.64e15;
const timeTag = (ms) => h("time", { class: "utc", datetime: utcText(ms) }, utcText(ms));

// a field's value: decimal, and a wide one in hex too (a 80-bit random
// part is read in hex, as the command shows it)
function valueCell(v, bits) {
  const cell = h("td", { class: "value mono" }, h("span", { class: "dec" }, String(v)));
  if (typeof v === "bigint" || (typeof v === "number" && bits > 32))
    cell.append(" ", h("span", { class: "hex" }, "0x" + v.toString(16)));
  return cell;
}

const counted = { named: "named", weak: "a guess", ambiguous: "ambiguous", refused: "refused",
                  unknown: "unknown", generated: "made" };

// One line's card: a <details> whose summary says the verdict, the scheme
// and how old; open, its time, fields, bits, encodings and other readings.
function card(r, open, now) {
  const summary = h("summary", null,
    h("span", { class: "input" }, r.text),
    h("span", { class: `verdict ${r.verdict}` }, r.verdict),
    r.scheme ? h("span", { class: "scheme-name" }, r.scheme) : null,
    r.encoding ? h("span", { class: "when" }, `(${r.encoding})`) : null,
    timeOk(r.ms) ? h("span", { class: "when" }, ago(r.ms, now)) : null);
  const body = h("div", { class: "body" });
  if (r.why) body.append(h("p", { class: r.scheme ? "why" : "why error" }, r.why));
  if (r.verdict === "ambiguous" && r.with.length)
    body.append(h("p", null, `Nothing in the text tells ${r.scheme} from ${r.with.join(", ")}: ` +
                  "“Read as” names the scheme, as the command's -s does."));
  if (r.scheme) {
    if (r.title) body.append(h("p", { class: "title" }, r.title));
    if (timeOk(r.ms))
      body.append(h("table", { class: "time" }, h("caption", null, "Time"), h("tbody", null,
        h("tr", null, h("th", { scope: "row" }, "UTC"), h("td", null, timeTag(r.ms))),
        h("tr", null, h("th", { scope: "row" }, "Local"), h("td", { class: "local" }, localFormat.format(new Date(r.ms)))),
        h("tr", null, h("th", { scope: "row" }, "Age"), h("td", { class: "ago" }, ago(r.ms, now))))));
    else body.append(h("p", { class: "help" }, r.note ?? "No time in this scheme's IDs."));
    if (r.fields) body.append(fieldsTable(r), diagram(r));
    if (r.encodings.length)
      body.append(h("table", { class: "encodings" }, h("caption", null, "Every encoding of this value"),
        h("tbody", null, r.encodings.map(([name, text]) => h("tr", { class: name === r.encoding ? "read" : null },
          h("th", { scope: "row" }, name),
          h("td", null, h("code", null, text), name === r.encoding ? h("span", { class: "help" }, " (as read)") : null))))));
  }
  if (r.candidates.length)
    body.append(h("h3", null, r.verdict === "ambiguous" ? "It may also be" : "Other readings"),
      h("ul", { class: "candidates" }, r.candidates.map((c) => h("li", null,
        h("span", { class: "scheme-name" }, c.scheme), ` (${c.encoding})`,
        c.ambiguous ? " as plausible" : c.refused ? " refused" : "",
        timeOk(c.ms) ? [", ", timeTag(c.ms)] : "",
        c.why ? [": ", h("span", { class: "cand-why" }, c.why)] : ""))));
  return h("details", { class: "id", open, dataset: { verdict: r.verdict } }, summary, body);
}

function fieldsTable(r) {
  return h("table", { class: "fields" }, h("caption", null, "Fields"),
    h("thead", null, h("tr", null, ["field", "value", "bits", "kind"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", null, r.fields.map((f) => h("tr", null,
      h("th", { scope: "row" }, f.index < 0 ? null : h("span", { class: `swatch f${f.index % 8}`, "aria-hidden": "true" }), f.name),
      valueCell(f.value, f.bits), h("td", null, String(f.bits)), h("td", null, f.kind)))));
}

// The layout drawn as `idscheme info` draws it: 32 bits a row, bit 0 the
// most significant; each run of a field one cell over its bits, in the
// field's colour, with the ID's own bits in it.  For a screen reader it is
// one image, named by its runs (the fields table says the rest).
function diagram(r) {
  const runs = r.layout.runs;
  const said = runs.map((x) => `${x.field} ${x.bits} bit${x.bits === 1 ? "" : "s"}`).join(", ");
  const grid = h("div", { class: "grid", role: "img", "aria-label": `layout, most significant bit first: ${said}` });
  const ruler = h("div", { class: "bitrow ruler", "aria-hidden": "true" });
  for (let i = 0; i < 32; i++) ruler.append(h("span", null, String(i)));
  grid.append(ruler);
  let row = null, col = 32;
  for (const x of runs) {
    let at = x.offset, left = x.bits;
    while (left > 0) {
      if (col === 32) { row = h("div", { class: "bitrow", "aria-hidden": "true" }); grid.append(row); col = 0; }
      const n = Math.min(left, 32 - col);
      const cell = h("div", { class: `run f${x.index % 8}`, title: `${x.field}: bits ${at}..${at + n - 1}`,
                              dataset: { field: x.field, span: String(n) } },
        h("span", { class: "name" }, x.field),
        r.bits ? h("span", { class: "b" }, [...r.bits.slice(at, at + n)].map((c) => h("span", null, c))) : null);
      cell.style.gridColumn = `span ${n}`;
      row.append(cell);
      at += n; left -= n; col += n;
    }
  }
  return h("figure", { class: "bits" },
    h("figcaption", null, `Its ${r.layout.bits} bits, most significant first, 32 a row`), grid);
}

// ------------------------------------------------------------- helpers
// A long input is counted on every core: the page's thread counts one
// share of the lines past the cards, and a helper (worker.js, started
// from its text in the bundle) each other share.  Helpers start at the
// first long input and stay; where none can start, or one fails, the page
// counts that share itself.
const SHARE = 256 * 1024;       // characters a share at the least
let compiled = null, helpers = null, jobs = 0;
function startHelpers() {
  if (helpers !== null) return helpers;
  helpers = [];
  const n = Math.min((navigator.hardwareConcurrency || 1) - 1, 7);
  if (n < 1 || typeof Worker !== "function") return helpers;
  try {
    const url = URL.createObjectURL(new Blob([workerSource], { type: "text/javascript" }));
    for (let i = 0; i < n; i++) {
      const w = new Worker(url);
      const helper = { w, waiting: new Map(), dead: false };
      w.onmessage = ({ data }) => {
        const job = helper.waiting.get(data.job);
        helper.waiting.delete(data.job);
        if (data.error === undefined) job?.resolve(data); else job?.reject(new Error(data.error));
      };
      // a helper that fails is dropped, and its shares are counted here
      w.onerror = w.onmessageerror = (e) => {
        e.preventDefault?.();
        helper.dead = true;
        helpers = helpers.filter((x) => x !== helper);
        for (const job of helper.waiting.values()) job.reject(new Error("a helper failed"));
        helper.waiting.clear();
        w.terminate();
      };
      w.postMessage({ module: compiled });
      helpers.push(helper);
    }
  } catch { /* a browser or a policy that refuses workers: the page counts alone */ }
  return helpers;
}
// A share to a helper: its { n, counts }
function ask(helper, text, as) {
  return new Promise((resolve, reject) => {
    if (helper.dead) { reject(new Error("a helper failed")); return; }
    const job = ++jobs;
    helper.waiting.set(job, { resolve, reject });
    helper.w.postMessage({ job, text, as });
  });
}

// ------------------------------------------------------------- inspect

const ids = $("#ids"), readAs = $("#read-as"), results = $("#results"), summary = $("#summary");
const permalink = $("#permalink");

// runs: readings finished (#results' data-run, which a script driving the
// page reads: the cards and the counts are of what it pasted); started:
// readings begun, so that one overtaken by a newer is dropped
let runs = 0, started = 0;
async function inspectAll() {
  const text = opened?.text ?? ids.value, as = readAs.value, mine = ++started;
  const now = Date.now();
  const counts = {};
  const cards = [];
  // the first lines, each read in full and drawn
  let n = 0;
  const at = eachLine(text, 0, text.length, (l) => {
    n++;
    const r = read(l, as);
    cards.push(card(r, false, now));
    counts[r.verdict] = (counts[r.verdict] ?? 0) + 1;
    return cards.length < MAX_CARDS;
  });
  // a few IDs are shown open; many, as their summaries
  if (n <= 5) for (const c of cards) c.open = true;
  results.replaceChildren(...cards);
  keep(text, as);
  // past the cards, the verdicts alone (no reading is made), in shares
  // on every core for a long input
  const rest = text.length - at;
  const hs = rest >= 2 * SHARE ? startHelpers() : [];
  const k = Math.max(1, Math.min(hs.length + 1, Math.floor(rest / SHARE)));
  const cuts = [at];
  for (let i = 1; i < k; i++) {
    const c = text.indexOf("\n", at + Math.floor(rest * i / k));
    cuts.push(c < 0 ? text.length + 1 : c + 1);
  }
  cuts.push(text.length + 1);
  const asked = [];
  for (let i = 1; i < k; i++) {
    const from = cuts[i], to = cuts[i + 1] - 1;
    asked.push(ask(hs[i - 1], text.slice(from, to), as)
      .catch(() => { const c = {}; return { n: countLines(text, from, to, as, c), counts: c }; }));
  }
  n += countLines(text, cuts[0], cuts[1] - 1, as, counts);
  for (const r of asked.length ? await Promise.all(asked) : []) {
    n += r.n;
    for (const [v, c] of Object.entries(r.counts)) counts[v] = (counts[v] ?? 0) + c;
  }
  if (mine !== started) return;          // a newer reading took over
  if (n > MAX_CARDS)
    results.append(h("p", { class: "help" }, `The first ${MAX_CARDS} of ${n} lines are drawn; the counts are of all.`));
  // in how many shares the lines past the cards were counted (the
  // helpers', and the page's own)
  results.dataset.shares = String(k);
  results.dataset.run = String(++runs);
  // the counts as data too, for a script driving the page
  summary.dataset.counts = JSON.stringify(counts);
  summary.textContent = n === 0 ? "" :
    `${n} ${n === 1 ? "ID" : "IDs"}${opened ? ` in ${opened.name}` : ""}: ` +
    Object.entries(counts).map(([v, n]) => `${n} ${counted[v] ?? v}`).join(", ");
}

// The input in the fragment, which a browser never sends: the address is
// a link that brings it back (read on load and on a change of fragment).
function keep(text, as) {
  const p = new URLSearchParams();
  if (text) p.set("ids", text);
  if (as) p.set("as", as);
  // a text past the limit is not escaped at all (a paste of a million
  // lines is 30 MB)
  const frag = text.length > MAX_FRAGMENT ? null : "#" + p.toString();
  if (frag === null || frag.length > MAX_FRAGMENT) {
    permalink.removeAttribute("href");
    permalink.textContent = "Permalink: too long to keep";
    // and the address no longer brings back an earlier input
    if (location.hash) history.replaceState(null, "", location.pathname + location.search);
    return;
  }
  permalink.textContent = "Permalink";
  permalink.setAttribute("href", frag);
  // replaceState: no history entry per keystroke, and no hashchange
  if (location.hash !== frag && !(frag === "#" && !location.hash)) history.replaceState(null, "", frag);
}

function restore() {
  typed();
  const p = new URLSearchParams(location.hash.slice(1));
  ids.value = p.get("ids") ?? "";
  const as = p.get("as") ?? "";
  readAs.value = [...readAs.options].some((o) => o.value === as) ? as : "";
}

// A file of IDs is read as a paste is, its text kept here and not put in
// the box: Chromium takes 20 to 30 s to lay out a million lines in a
// textarea, where reading them takes under 2.  What is typed in the box
// takes over from the file.
const idsFile = $("#ids-file");
const FILEMAX = 128 << 20;      // bytes: some 4 million IDs
let opened = null;              // { name, text } of the file last opened
idsFile.addEventListener("change", async () => {
  const f = idsFile.files?.[0];
  if (!f) return;
  if (f.size > FILEMAX) {
    idsFile.value = "";
    summary.textContent = `${f.name} is ${(f.size / 1048576).toFixed(0)} MB: files of IDs up to ${FILEMAX >> 20} MB are read`;
    return;
  }
  const text = await f.text();
  opened = { name: f.name, text };
  ids.value = "";
  inspectAll();
});
function typed() {
  opened = null;
  idsFile.value = "";
}

let timer = 0;
ids.addEventListener("input", () => { typed(); clearTimeout(timer); timer = setTimeout(inspectAll, 150); });
readAs.addEventListener("change", inspectAll);
$("#inspect-form").addEventListener("submit", (e) => { e.preventDefault(); clearTimeout(timer); inspectAll(); });
addEventListener("hashchange", () => { restore(); inspectAll(); });
// the skip link moves the focus without touching the fragment, which
// holds the input
$(".skip").addEventListener("click", (e) => { e.preventDefault(); ids.focus(); });

// ------------------------------------------------------------- generate

const genScheme = $("#gen-scheme"), genNodes = $("#gen-nodes"), genInputs = $("#gen-node-inputs");
const genStatus = $("#gen-status"), generated = $("#generated"), genInspect = $("#gen-inspect");
let lastMade = [];
// one generator per scheme and node, kept: a new one for each click would
// start its tick's sequence again, and two clicks in one tick (Sonyflake's
// is 10 ms) would make the same ID twice
const generators = new Map();

// an input for each node field of the scheme: WebAssembly has no slot
// store to lease a node from, so the generator is given one
function nodeInputs() {
  const s = scheme(genScheme.value);
  const nodes = s.layout.fields.filter((f) => f.kind === "node");
  genInputs.replaceChildren(...nodes.map((f) => {
    const max = 2 ** f.bits - 1, id = `gen-node-${f.name}`;
    return h("div", { class: "field" },
      h("label", { for: id }, `${f.name} (0..${max})`),
      h("input", { id, type: "number", min: "0", max: String(max), step: "1", value: "0", required: true,
                   inputmode: "numeric", dataset: { field: f.name } }));
  }));
  genNodes.hidden = nodes.length === 0;
}

function generate() {
  const name = genScheme.value, s = scheme(name);
  const n = Math.max(1, Math.min(1000, Math.trunc(Number($("#gen-count").value)) || 1));
  const opts = {};
  for (const i of genInputs.querySelectorAll("input")) opts[i.dataset.field] = Number(i.value);
  lastMade = [];
  let said;
  try {
    const key = name + JSON.stringify(opts);
    let g = generators.get(key);
    if (!g) generators.set(key, g = s.generator(opts));
    lastMade = g.nextN(n);
    said = `${n} ${name} ${n === 1 ? "ID" : "IDs"} made`;
  } catch (e) {
    said = e.message;
    // a layout of constants alone (the nil UUID) has one ID: the
    // generator refuses, and compose makes it
    if (s.layout.fields.every((f) => f.kind === "constant")) {
      lastMade = [s.compose({}).toString()];
      said += `; its one ID is ${lastMade[0]}`;
    }
  }
  const now = Date.now();
  generated.replaceChildren(...lastMade.slice(0, MAX_CARDS).map((t) =>
    card({ ...shown(s.inspect(t)), verdict: "generated" }, lastMade.length <= 3, now)));
  genStatus.textContent = said;
  genStatus.classList.toggle("error", lastMade.length === 0);
  genInspect.disabled = lastMade.length === 0;
  generated.dataset.for = name;
}

genScheme.addEventListener("change", nodeInputs);
$("#gen-form").addEventListener("submit", (e) => { e.preventDefault(); generate(); });
genInspect.addEventListener("click", () => {
  typed();
  ids.value = lastMade.join("\n");
  readAs.value = "";
  inspectAll();
  ids.focus();
});

// ------------------------------------------------------------- start

try {
  // compiled once: the page and its helpers instantiate the same module
  compiled = await WebAssembly.compile(wasm);
  await idscheme.init(compiled);
  const all = idscheme.schemes();
  // "Read as" takes a scheme or an alias that names one scheme alone
  // (discord, mongo; not uuid, which answers for every UUID version)
  const aliases = new Map();
  for (const s of all) for (const a of s.aliases) aliases.set(a, aliases.has(a) ? null : s.name);
  for (const s of all) {
    const title = s.title ? ` (${s.title})` : "";
    readAs.append(h("option", { value: s.name }, s.name + title));
    genScheme.append(h("option", { value: s.name }, s.name + title));
  }
  for (const [a, n] of [...aliases].sort()) if (n) readAs.append(h("option", { value: a }, `${a}: ${n}`));
  $("#version").textContent = `idscheme ${idscheme.version()}`;
  nodeInputs();
  restore();
  inspectAll();
  // the library at hand in the console, for whoever wants more
  window.idscheme = idscheme;
  document.documentElement.dataset.ready = "yes";
} catch (e) {
  summary.textContent = `The library did not start: ${e.message}`;
  summary.classList.add("error");
  document.documentElement.dataset.ready = "failed";
  throw e;
}
