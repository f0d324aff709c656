// run.mjs BUILDDIR: the "What is this ID?" page (BUILDDIR/web/index.html,
// made by web/build.sh) in a real browser.  Debian's chromium, headless
// (spec/browser/chromium.mjs: its own process group, a fresh profile),
// driven over the DevTools protocol by puppeteer-core.  The page is opened from a file://
// URL with the network off: every request that is not for a file is
// refused and recorded, and the test fails if there was one.
//
// What it checks, reading the page's DOM as a person reads the page:
//   - IDs made now by the formats' own npm packages (uuid, ulid, bson,
//     ksuid, nanoid, typeid-js, @sapphire/snowflake), most at a time
//     chosen here, are each named with the right scheme, and with the time
//     the generating package put in (or says it put in);
//   - a bare decimal snowflake is `ambiguous`, with snowflake among its
//     candidates at the package's time; read as "discord" it is named;
//   - a word ("hello") is refused, with the library's reason;
//   - an ID of each scheme the package lists (its schemes(), not a list
//     kept here) is generated in the page and decoded there, and the
//     package under node decodes the same text to the same fields;
//   - a file of 40,000 lines opened in the page's file input is counted
//     as the package under node counts it, in shares on every core (the
//     page's helpers), and not put in the box;
//   - the input is kept in the URL's fragment: a reload brings it back;
//   - the keyboard alone reaches the input, the inspect button and the
//     generator; the results are announced (aria-live);
//   - at a phone's width nothing is wider than the screen;
//   - served by a static host (a server of this test on 127.0.0.1) it
//     works alike, and asks the host for nothing but the page;
//   - the page's Content-Security-Policy refuses a fetch, an image and a
//     form post that a script in it tries, and a fetch in a worker of it;
//   - nothing is logged as an error, and no request was made.
// A screenshot of the page with a few IDs in it is written to
// BUILDDIR/web/screenshot.png; with IDS_WEB_SCREENSHOT=FILE also to FILE
// (docs/web.png is made so).  Chromium is stopped by its process group's
// id whatever happens.  Prints a line per check and "N passed, N failed".
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import puppeteer from "puppeteer-core";
import { launch, serve } from "../../spec/browser/chromium.mjs";
import { v1 as uuidv1, v4 as uuidv4, v6 as uuidv6, v7 as uuidv7 } from "uuid";
import { ulid, decodeTime } from "ulid";
import { ObjectId } from "bson";
import { DiscordSnowflake } from "@sapphire/snowflake";
import KSUID from "ksuid";
import { nanoid } from "nanoid";
import { typeid } from "typeid-js";

const build = path.resolve(process.argv[2] ?? "build");
const pageFile = path.join(build, "web", "index.html");
const pkgDir = path.join(build, "wasm-idscheme");
const pageUrl = pathToFileURL(pageFile).href;

let passed = 0, failed = 0;
const ok = (good, what) => {
  if (good) passed++; else failed++;
  console.log(`${good ? "ok  " : "FAIL"} ${what}`);
  return good;
};

// The package under node, by its name through its exports map (as an
// application imports it): what it lists is what the page must generate,
// and what it decodes is what the page must show.
const work = fs.mkdtempSync(path.join(os.tmpdir(), "idscheme-web-"));
fs.mkdirSync(path.join(work, "node_modules"));
fs.symlinkSync(pkgDir, path.join(work, "node_modules", "idscheme"));
fs.writeFileSync(path.join(work, "entry.mjs"), 'export * from "idscheme";\n');
const ids = await import(pathToFileURL(path.join(work, "entry.mjs")).href);

// ------------------------------------------------------------- the IDs
// Times in the past, away from now and from each format's epoch, so that
// a page that showed the time of reading would be caught.  Each package
// says the time itself where it can (decodeTime, timestampFrom, .date).
const rnd = (lo, hi) => lo + Math.floor(Math.random() * (hi - lo));
const T = () => rnd(Date.UTC(2017, 0, 1), Date.UTC(2025, 0, 1));
const made = [];
const add = (pkg, scheme, text, ms) => made.push({ pkg, scheme, text, ms });
{ const t = T(); add("uuid v7", "uuidv7", uuidv7({ msecs: t }), t); }
{ const t = T(); add("uuid v1", "uuidv1", uuidv1({ msecs: t }), t); }
{ const t = T(); add("uuid v6", "uuidv6", uuidv6({ msecs: t }), t); }
add("uuid v4", "uuidv4", uuidv4(), null);
{ const u = ulid(T()); add("ulid", "ulid", u, decodeTime(u)); }
// ObjectId.generate(time): the bytes a driver writes at that time, its
// random and counter parts too (createFromTime's zeros are refused by
// inspect in one case of thirty: an ObjectId made so is no real one)
{ const o = new ObjectId(ObjectId.generate(Math.floor(T() / 1000))); add("bson ObjectId", "objectid", o.toHexString(), o.getTimestamp().getTime()); }
{ const o = new ObjectId(); add("bson ObjectId (now)", "objectid", o.toHexString(), o.getTimestamp().getTime()); }
{ const k = KSUID.randomSync(new Date(T())); add("ksuid", "ksuid", k.string, k.date.getTime()); }
add("nanoid", "nanoid", nanoid(), null);
{
  // typeid-js puts the time of its making in (a UUIDv7): it says no time,
  // so the time is bracketed by the clock before and after
  const before = Date.now(), t = typeid("user").toString(), after = Date.now();
  made.push({ pkg: "typeid-js", scheme: "typeid", text: t, ms: [before, after] });
}
const flakeMs = T();
const flake = DiscordSnowflake.generate({ timestamp: BigInt(flakeMs) }).toString();
const flakeSays = Number(DiscordSnowflake.timestampFrom(flake));

// the work folder goes at exit, whatever happens (Chromium goes by
// spec/browser/chromium.mjs's stop)
process.on("exit", () => fs.rmSync(work, { recursive: true, force: true }));

// what the page shows for each input line, read from its DOM
const readResults = (page, where = "#results") => page.$$eval(`${where} > details.id`, (cards) =>
  cards.map((c) => ({
    input: c.querySelector(".input")?.textContent ?? null,
    verdict: c.querySelector(".verdict")?.textContent ?? null,
    scheme: c.querySelector("summary .scheme-name")?.textContent ?? null,
    utc: c.querySelector("table.time time.utc")?.getAttribute("datetime") ?? null,
    utcText: c.querySelector("table.time time.utc")?.textContent ?? null,
    local: c.querySelector(".local")?.textContent ?? null,
    ago: c.querySelector(".ago")?.textContent ?? null,
    why: c.querySelector(".why")?.textContent ?? null,
    candidates: [...c.querySelectorAll(".candidates li")].map((li) => ({
      scheme: li.querySelector(".scheme-name")?.textContent ?? null,
      utc: li.querySelector("time.utc")?.getAttribute("datetime") ?? null,
      why: li.querySelector(".cand-why")?.textContent ?? null,
    })),
    fields: Object.fromEntries([...c.querySelectorAll("table.fields tbody tr")].map((tr) =>
      [tr.querySelector("th").textContent, tr.querySelector("td.value .dec").textContent])),
    encodings: Object.fromEntries([...c.querySelectorAll("table.encodings tbody tr")].map((tr) =>
      [tr.querySelector("th").textContent, tr.querySelector("td code").textContent])),
    bits: [...c.querySelectorAll(".bitrow:not(.ruler) .run")].map((r) =>
      ({ name: r.dataset.field, span: Number(r.dataset.span), bits: r.querySelector(".b")?.textContent ?? "" })),
  })));

// sets the textarea as a paste does, then waits for the page's next
// reading of it (the page counts its readings in #results' data-run: one
// after the paste is of the pasted text) and one card per line
async function paste(page, text, as = "") {
  await page.select("#read-as", as);          // read at once, on "change"
  const before = await page.$eval("#results", (r) => Number(r.dataset.run ?? 0));
  await page.$eval("#ids", (t, v) => {
    t.value = v;
    t.dispatchEvent(new Event("input", { bubbles: true }));
  }, text);
  const n = text.split("\n").filter((l) => l.trim()).length;
  await page.waitForFunction((k, b) => document.querySelectorAll("#results > details.id").length === k &&
                             Number(document.querySelector("#results")?.dataset.run) > b,
                             { timeout: 30000 }, n, before);
  return readResults(page);
}

let browser, chromium = null;
try {
  if (!ok(fs.existsSync(pageFile), `the page is built: ${pageFile}`)) throw new Error("no page");
  chromium = await launch(puppeteer, { protocolTimeout: 120000 });
  browser = chromium.browser;
  console.log(`chromium ${await browser.version()}, pid ${chromium.pid}; the page at ${pageUrl}`);

  // every request of every page: a file:// one goes on (the page itself),
  // anything else is refused and counted
  const requests = [], refused = [], errors = [];
  const open = async (url, viewport = { width: 1100, height: 900 }, errs = errors) => {
    const page = await browser.newPage();
    await page.setViewport(viewport);
    await page.setOfflineMode(true);
    await page.setRequestInterception(true);
    page.on("request", (r) => {
      requests.push(r.url());
      if (new URL(r.url()).protocol === "file:") r.continue();
      else { refused.push(r.url()); r.abort(); }
    });
    page.on("pageerror", (e) => errs.push(String(e)));
    page.on("console", (m) => { if (m.type() === "error") errs.push(m.text()); });
    page.on("requestfailed", (r) => { if (!refused.includes(r.url())) errs.push(`request failed: ${r.url()}`); });
    await page.goto(url);
    await page.waitForFunction(() => document.documentElement.dataset.ready === "yes" ||
                               document.documentElement.dataset.ready === "failed", { timeout: 60000 });
    return page;
  };

  const page = await open(pageUrl);
  ok(await page.evaluate(() => document.documentElement.dataset.ready) === "yes",
     `the page loads from ${pageUrl} with the network off and the library starts`);
  const listed = await page.$$eval("#gen-scheme option", (os) => os.map((o) => o.value));

  // ---------------------------------------------- IDs of the npm packages
  const text = made.map((m) => m.text).join("\n");
  const shown = await paste(page, text);
  ok(shown.length === made.length, `one result per line: ${shown.length} of ${made.length}`);
  for (const [i, m] of made.entries()) {
    const r = shown[i] ?? {};
    const t = r.utc === null || r.utc === undefined ? null : Date.parse(r.utc);
    const timeRight = m.ms === null ? r.utc === null
      : Array.isArray(m.ms) ? t >= m.ms[0] && t <= m.ms[1] : t === m.ms;
    // named, or named on little evidence (a nanoid is 21 random
    // characters: "weak"); the same verdict as the package's under node.
    // A nanoid is random text: about one in 3,000 has too little in it
    // (no digit, few capitals) and the engine refuses it; then the page
    // must say so, with nanoid among the readings
    const verdict = ids.inspect(m.text).verdict;
    const refusedNanoid = m.scheme === "nanoid" && verdict === "refused" && r.verdict === "refused" &&
                          r.candidates.some((c) => c.scheme === "nanoid");
    const good = r.input === m.text && r.verdict === verdict && timeRight &&
                 ((["named", "weak"].includes(r.verdict) && r.scheme === m.scheme) || refusedNanoid);
    ok(good, `${m.pkg}: ${m.text} is ${r.verdict} ${m.scheme}` +
       (m.ms === null ? ", no time" : `, time ${r.utc}`) +
       (good ? "" : ` (page: ${r.verdict} ${r.scheme} ${r.utc}; node: ${verdict}; the package says ${JSON.stringify(m.ms)})`));
    if (m.ms !== null)
      ok(r.utcText && r.local && /ago|now/.test(r.ago ?? ""),
         `${m.pkg}: its time in UTC (${r.utcText}), local time (${r.local}) and how long ago (${r.ago})`);
  }
  // every other encoding of the same value, and the fields, as the
  // package under node gives them
  {
    const u = made.find((m) => m.scheme === "ulid"), r = shown[made.indexOf(u)];
    const s = ids.scheme("ulid");
    const v = s.decode(u.text);
    const want = Object.fromEntries(s.encodings.map((e) => [e, s.encode(v, e)]));
    ok(JSON.stringify(r.encodings) === JSON.stringify(want),
       `a ULID's every encoding, as the package writes them: ${JSON.stringify(r.encodings)}`);
    const f = s.fields(u.text);
    ok(Object.keys(f).every((k) => r.fields[k] !== undefined && r.fields[k] === fieldText(f[k])),
       `a ULID's fields, as the package reads them: ${JSON.stringify(r.fields)}`);
    ok(r.bits.map((b) => b.name).join() === "timestamp,timestamp,random,random,random" &&
       r.bits.reduce((n, b) => n + b.span, 0) === 128,
       `a ULID's bit diagram: ${r.bits.map((b) => `${b.name}:${b.span}`).join(" ")}`);
  }

  // ------------------------------------------------ a bare decimal snowflake
  {
    const [r] = await paste(page, flake);
    const c = r.candidates.find((x) => x.scheme === "snowflake") ??
              (r.scheme === "snowflake" ? { scheme: "snowflake", utc: r.utc } : null);
    ok(r.verdict === "ambiguous" && r.candidates.length >= 2 && c && Date.parse(c.utc) === flakeSays &&
       r.candidates.every((x) => x.why),
       `a Discord snowflake of @sapphire/snowflake (${flake}) is ambiguous; candidates ` +
       r.candidates.map((x) => `${x.scheme} ${x.utc} (${x.why})`).join("; "));
    // read as one scheme (an alias here), it stands: named, or a guess
    // where a number has little in it
    const [d] = await paste(page, flake, "discord");
    ok(["named", "weak"].includes(d.verdict) && d.scheme === "snowflake" && Date.parse(d.utc) === flakeSays &&
       flakeSays === flakeMs,
       `read as "discord" it is ${d.verdict} snowflake at ${d.utc} (@sapphire/snowflake says ${new Date(flakeSays).toISOString()})`);
  }

  // ------------------------------------------------------------- a word
  {
    const [r] = await paste(page, "hello");
    const n = ids.inspect("hello");
    ok(r.input === "hello" && r.verdict === "unknown" && r.scheme === null && r.why && r.why === n.why,
       `a word is refused: "hello": ${r.verdict}: ${r.why}`);
  }

  // ------------------------------------------------- a file of many IDs
  // A file opened in the page's file input is read as a paste is, its text
  // not put in the box (which Chromium takes long to lay out); past the
  // cards its lines are counted in shares on every core (the page's
  // helpers, web/worker.js), to the counts of the package's verdict() of
  // each line under node
  {
    const lines = [];
    for (let i = 0; i < 40000; i++)
      lines.push(i % 7 === 3 ? "hello" : i % 11 === 5 ? "  " : i % 13 === 1 ? flake : made[i % made.length].text);
    const file = path.join(work, "ids.txt");
    fs.writeFileSync(file, lines.join("\n") + "\n");
    const want = {};
    let n = 0;
    for (const l of lines) {
      if (!l.trim()) continue;
      n++;
      let v;
      try { v = ids.verdict(l.trim()); } catch { v = "unknown"; }
      want[v] = (want[v] ?? 0) + 1;
    }
    const before = await page.$eval("#results", (r) => Number(r.dataset.run ?? 0));
    await (await page.$("#ids-file")).uploadFile(file);
    await page.waitForFunction((b) => Number(document.querySelector("#results")?.dataset.run) > b,
                               { timeout: 60000 }, before);
    const got = await page.evaluate(() => ({
      counts: JSON.parse(document.querySelector("#summary").dataset.counts),
      summary: document.querySelector("#summary").textContent,
      shares: Number(document.querySelector("#results").dataset.shares),
      cards: document.querySelectorAll("#results > details.id").length,
      box: document.querySelector("#ids").value,
      cores: navigator.hardwareConcurrency,
    }));
    const same = JSON.stringify(Object.entries(got.counts).sort()) === JSON.stringify(Object.entries(want).sort());
    ok(same && got.summary.startsWith(`${n} IDs in ids.txt: `) && got.cards === 200 && got.box === "",
       `a file of ${lines.length} lines opened in the page: ${n} IDs counted as the package counts them ` +
       `(${JSON.stringify(got.counts)}${same ? "" : `; node: ${JSON.stringify(want)}`}), 200 drawn, the box left empty`);
    ok(got.cores < 2 || got.shares >= 2,
       `its lines past the cards counted in ${got.shares} shares on ${got.cores} cores (the page's helpers)`);
    // what is typed then takes over from the file
    const [r] = await paste(page, "hello");
    ok(r?.input === "hello", "what is typed after a file is what is read");
  }

  // ------------------------------------------------------- the fragment
  {
    const lines = [made[0].text, flake, "hello"].join("\n");
    await paste(page, lines, "snowflake");
    await page.waitForFunction(() => location.hash.length > 1, { timeout: 10000 });
    const hash = await page.evaluate(() => location.hash);
    const link = await page.$eval("#permalink", (a) => a.getAttribute("href"));
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.ready === "yes", { timeout: 60000 });
    await page.waitForFunction((k) => document.querySelectorAll("#results > details.id").length === k, { timeout: 30000 }, 3);
    const back = await page.evaluate(() => ({ text: document.querySelector("#ids").value,
                                              as: document.querySelector("#read-as").value }));
    const r = await readResults(page);
    ok(back.text === lines && back.as === "snowflake" && link === hash &&
       ["named", "weak"].includes(r[1].verdict) && r[1].scheme === "snowflake",
       `the input is kept in the fragment (${hash.length} characters) and a reload brings it back, read as snowflake`);
  }

  // ----------------------------------------------- generate every scheme
  {
    const names = ids.schemes().map((s) => typeof s === "string" ? s : s.name);
    ok(names.length > 0 && names.every((n) => listed.includes(n)),
       `the generator offers every scheme the package lists (${names.length}): ${names.filter((n) => !listed.includes(n)).join(", ") || "all there"}`);
    for (const name of names) {
      await page.select("#gen-scheme", name);
      // the node fields the page asks for: each a number of its range
      const nodes = await page.$$eval("#gen-node-inputs input", (is) =>
        is.map((i) => ({ id: i.id, name: i.dataset.field, max: i.max })));
      const given = {};
      for (const n of nodes) {
        const v = Math.floor(Math.random() * (Math.min(Number(n.max), 1e6) + 1));
        given[n.name] = v;
        await page.$eval(`#${n.id}`, (i, x) => { i.value = String(x); }, v);
      }
      await page.$eval("#gen-count", (i) => { i.value = "1"; });
      const before = Date.now();
      await page.click("#gen-form button[type=submit]");
      await page.waitForFunction((n) => document.querySelector("#generated")?.dataset.for === n,
                                 { timeout: 10000 }, name);
      const status = await page.$eval("#gen-status", (p) => p.textContent);
      const [g] = await readResults(page, "#generated");
      let canMake = true, refusal = "";
      try { ids.scheme(name).generator(given).next(); } catch (e) { canMake = false; refusal = e.message; }
      if (!canMake) {
        // the page says the package's refusal; a scheme of constants
        // alone shows its one ID, as compose makes it
        let one = null;
        try { one = ids.scheme(name).compose({}).toString(); } catch { /* none */ }
        ok(status.includes(refusal) && (one === null ? !g : g?.input === one && g.scheme === name),
           `${name}: no generator ("${refusal}"), and the page says so${one ? `, with its one ID ${one}` : ""}`);
        continue;
      }
      let same = false, why = "";
      try {
        const f = ids.scheme(name).fields(g.input);
        same = Object.keys(f).every((k) => g.fields[k] === fieldText(f[k]));
        for (const [k, v] of Object.entries(given)) same &&= g.fields[k] === String(v);
      } catch (e) { why = e.message; }
      const t = g?.utc ? Date.parse(g.utc) : null;
      ok(g && g.verdict === "generated" && g.scheme === name && same &&
         (t === null || (t >= before - 2000 && t <= Date.now() + 2000)),
         `${name}: generated in the page ${g?.input}${Object.keys(given).length ? ` (${JSON.stringify(given)})` : ""}` +
         `, decoded there as node decodes it${t === null ? "" : `, time ${g.utc}`}${why ? ": " + why : ""}`);
    }
  }

  // Two clicks make IDs of one generator: a generator made anew for each
  // would start its tick's sequence again and repeat what the last made
  {
    await page.select("#gen-scheme", "snowflake");
    await page.$eval("#gen-node-worker", (i) => { i.value = "3"; });
    await page.$eval("#gen-node-shard", (i) => { i.value = "4"; });
    await page.$eval("#gen-count", (i) => { i.value = "1000"; });
    const all = [];
    for (let k = 0; k < 3; k++) {
      await page.$eval("#generated", (g) => { delete g.dataset.for; });
      await page.click("#gen-form button[type=submit]");
      await page.waitForFunction(() => document.querySelector("#generated")?.dataset.for === "snowflake", { timeout: 10000 });
      // every ID made goes to the input by "Inspect these"; the cards
      // stop at 200
      await page.click("#gen-inspect");
      all.push(...(await page.$eval("#ids", (t) => t.value)).split("\n"));
    }
    ok(all.length === 3000 && new Set(all).size === 3000,
       `three clicks of Generate, 1000 snowflake IDs each, node 3/4: ${new Set(all).size} distinct of ${all.length}`);
  }

  // ----------------------------------------------------- keyboard alone
  {
    // a page of its own: the first Tab starts from the top, as for a
    // person who just opened it
    const page = await open(pageUrl);
    const ulidMade = made.find((m) => m.scheme === "ulid");
    await page.keyboard.press("Tab");               // the skip link
    await page.keyboard.press("Enter");             // to the IDs
    const focused = await page.evaluate(() => document.activeElement?.id);
    await page.keyboard.type(ulidMade.text);
    await page.keyboard.press("Tab");                // to "Read as"
    await page.keyboard.press("Tab");                // to "Inspect"
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector("#results > details.id .verdict"), { timeout: 10000 });
    const [r] = await readResults(page);
    const live = await page.$eval("#summary", (p) => ({ live: p.getAttribute("aria-live"), text: p.textContent }));
    const labelled = await page.$$eval("input, select, textarea", (els) =>
      els.filter((e) => !e.labels?.length && !e.getAttribute("aria-label")).map((e) => e.id));
    await page.close();
    ok(focused === "ids" && r?.input === ulidMade.text && r?.scheme === "ulid" && live.live === "polite" && /1/.test(live.text) && labelled.length === 0,
       `the keyboard alone: skip link to the IDs, typed, Tab to Inspect, Enter: ${r?.input} ${r?.verdict} ${r?.scheme}; the summary is live ("${live.text}"); ` +
       `every control has a label${labelled.length ? ": not " + labelled.join(", ") : ""}`);
  }

  // --------------------------------------------------- a phone's width
  {
    const phone = await open(pageUrl + "#ids=" + encodeURIComponent(made.slice(0, 4).map((m) => m.text).join("\n")),
                             { width: 360, height: 740, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    await phone.waitForFunction(() => document.querySelectorAll("#results > details.id").length === 4, { timeout: 30000 });
    // the layout viewport a phone shows at once is the device's width: a
    // wider page is shrunk or scrolled sideways (a card's tables scroll
    // inside the card, on purpose)
    const wide = await phone.evaluate(() => {
      const view = document.documentElement.clientWidth;
      return { doc: document.documentElement.scrollWidth, view,
        over: [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > view + 1 &&
          !e.closest(".body")).map((e) => e.tagName + "." + e.className).slice(0, 5) };
    });
    ok(wide.doc <= wide.view && wide.over.length === 0,
       `at a phone's width (${wide.view} px) the page is no wider than the screen (${wide.doc} px)${wide.over.length ? ": " + wide.over.join(", ") : ""}`);
    await phone.close();
  }

  // From a static host as well: a server of this process on 127.0.0.1
  // serves the one file, and is asked for nothing else (no script, no
  // module, no icon: the page is whole)
  {
    const { server, origin, served: asked } = await serve([], { "/": fs.readFileSync(pageFile, "utf8") });
    const b = await browser.newPage();
    const own = [];
    b.on("pageerror", (e) => own.push(String(e)));
    b.on("console", (m) => { if (m.type() === "error") own.push(m.text()); });
    await b.goto(`${origin}/#ids=${encodeURIComponent(flake)}&as=discord`);
    await b.waitForFunction(() => document.documentElement.dataset.ready, { timeout: 60000 });
    await b.waitForFunction(() => document.querySelector("#results > details.id"), { timeout: 30000 });
    const [r] = await readResults(b);
    await b.close();
    server.close();
    ok(r?.scheme === "snowflake" && asked.join() === "/" && own.length === 0,
       `from a static host (http://127.0.0.1): the page reads the fragment's snowflake, and asked the host for ${asked.join(", ")} alone` +
       (own.length ? `: ${own.join("; ")}` : ""));
  }

  // The page's policy refuses a request even if a script tried one: a
  // fetch, an image and a form post from within the page are each
  // refused by the browser, named in a policy violation, and reach no
  // network (the interception above sees none of them).  In a page of
  // its own: the browser logs each refusal as an error, on purpose.
  {
    const own = [];
    const csp = await open(pageUrl, undefined, own);
    const before = requests.length;
    const tried = await csp.evaluate(async () => {
      const seen = [];
      document.addEventListener("securitypolicyviolation", (e) => seen.push(e.effectiveDirective));
      let fetched = "sent";
      try { await fetch("http://127.0.0.1:9/?ids=secret"); } catch (e) { fetched = e.name; }
      const img = new Image();
      img.src = "http://127.0.0.1:9/pixel.png?ids=secret";
      await new Promise((r) => { img.onerror = r; img.onload = r; setTimeout(r, 2000); });
      const f = document.createElement("form");
      f.method = "post"; f.action = "http://127.0.0.1:9/"; document.body.append(f);
      f.submit();
      await new Promise((r) => setTimeout(r, 300));
      return { fetched, seen };
    });
    // a helper of the page (a worker from a blob: URL) inherits the policy
    const helper = await csp.evaluate(() => new Promise((resolve) => {
      const src = 'fetch("http://127.0.0.1:9/?ids=secret").then(() => postMessage("sent"), (e) => postMessage(e.name));';
      const w = new Worker(URL.createObjectURL(new Blob([src], { type: "text/javascript" })));
      w.onmessage = (e) => resolve(e.data);
      w.onerror = (e) => resolve(`error: ${e.message}`);
      setTimeout(() => resolve("no answer in 10 s"), 10000);
    }));
    await csp.close();
    ok(helper === "TypeError" && requests.length === before,
       `a worker of the page is refused a fetch as the page is (${helper})`);
    ok(tried.fetched === "TypeError" && ["connect-src", "img-src", "form-action"].every((d) => tried.seen.includes(d)) &&
       requests.length === before,
       `the page's policy refuses a fetch, an image and a form post (${tried.seen.join(", ")}); none reached the network`);
  }

  // --------------------------------------------------------- screenshot
  {
    // a few IDs of the npm packages and the snowflake, whose card is
    // open: its ambiguity, candidates, fields, bits and encodings; the
    // top of the page, as a person sees it first
    const shot = ["uuidv7", "ulid", "objectid"].map((k) => made.find((m) => m.scheme === k).text);
    shot.push(flake);
    await page.setViewport({ width: 1000, height: 1700 });
    await paste(page, shot.join("\n"));
    await page.$$eval("#results > details.id", (ds) => ds.forEach((d, i) => { d.open = i === 3; }));
    await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
    const file = path.join(build, "web", "screenshot.png");
    await page.screenshot({ path: file });
    const extra = process.env.IDS_WEB_SCREENSHOT;
    if (extra) fs.copyFileSync(file, extra);
    ok(fs.statSync(file).size > 10000, `a screenshot of the page with ${shot.length} IDs: ${file}${extra ? " and " + extra : ""}`);
  }

  await page.close();
  ok(errors.length === 0, `no console error, no page error${errors.length ? ": " + errors.join("; ") : ""}`);
  ok(refused.length === 0 && requests.every((u) => u.startsWith("file:")),
     `no request but the page's own file (${requests.length} requests, all file://)${refused.length ? ": refused " + refused.join(", ") : ""}`);
} catch (e) {
  ok(false, `the browser run: ${e.stack ?? e}`);
} finally {
  try { await browser?.disconnect(); } catch { /* gone */ }
  chromium?.stop();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

// a field's value as the page writes it: a number in decimal (BigInt too)
function fieldText(v) {
  if (typeof v === "bigint" || typeof v === "number") return String(v);
  if (v instanceof Uint8Array) return [...v].map((b) => b.toString(16).padStart(2, "0")).join("");
  return String(v);
}
