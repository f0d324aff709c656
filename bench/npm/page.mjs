// page.mjs: the benchmark in a page (run.mjs bundles it with the peers
// and the package's browser entry point for Chromium)
import * as ids from "idscheme/browser";
import * as uuid from "uuid";
import * as ulid from "ulid";
import * as ulidx from "ulidx";
import * as nanoid from "nanoid";
import * as sapphire from "@sapphire/snowflake";
import { cases } from "./cases.mjs";
import { nopOf, runAll } from "./timing.mjs";

window.__bench = async (opts, only) => {
  const url = new URL("./idscheme.wasm", import.meta.url);
  await ids.init(url);
  const nop = nopOf(await (await fetch(url)).arrayBuffer());
  return runAll(cases(ids, { uuid, ulid, ulidx, nanoid, sapphire }, nop), opts, only ? new RegExp(only) : null);
};
window.__ready = true;
