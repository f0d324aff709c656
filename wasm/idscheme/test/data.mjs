// data.mjs: what the test cases read, gathered in node (the browser
// runner hands the same to its page)
import fs from "node:fs";
import path from "node:path";
import { corpus, cliInspect } from "./corpus.mjs";

export const VECTOR_FILES = ["fluid.json", "flax.json", "snowflake.json", "siq.json", "kuid.json", "kuid_node_hash.tsv"];

export function vectorFiles(root) {
  const dir = path.join(root, "spec/vectors"), out = {};
  for (const f of VECTOR_FILES) out[f] = fs.readFileSync(path.join(dir, f), "utf8");
  return out;
}

// the corpus and the command's answers for it
export function diffData(ids, cli) {
  if (!cli || !fs.existsSync(cli)) throw new Error(`no idscheme command at ${cli} ($IDSCHEME_CLI)`);
  const inputs = corpus(ids);
  return { inputs, lines: cliInspect(cli, inputs), now: Date.now() };
}
