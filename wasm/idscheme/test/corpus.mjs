// corpus.mjs: the texts the differential test inspects, made at test
// time, and the command's answers for them (`idscheme inspect --json`).
//   - IDs the command makes (`idscheme new`) of every scheme, in each of
//     its encodings, now and at a few times of the past (--at);
//   - IDs the package's own generators make;
//   - texts near IDs: bare numbers, hex of hash lengths, words, type
//     prefixes, UUIDs of each version, case changed, a character off;
//   - random texts of ID-like alphabets and lengths (a seeded generator,
//     so a failure can be run again).
import { execFileSync } from "node:child_process";

const AT = [1262304000000, 1500000000000, 1700000000123];

function cli(bin, args, input) {
  return execFileSync(bin, args, { input, maxBuffer: 256 << 20, stdio: ["pipe", "pipe", "pipe"] }).toString();
}

export function corpus(ids, bin = process.env.IDSCHEME_CLI, seed = Number(process.env.IDSCHEME_SEED ?? 41)) {
  const out = new Set();
  for (const s of ids.schemes()) {
    // node fields given (the command would lease them; the package has
    // no slot store), 1 each
    const nodes = s.layout.fields.filter((f) => f.kind === "node").map((f) => f.name);
    const p = nodes.flatMap((n) => ["-p", `${n}=1`]);
    for (const e of s.encodings) {
      try {
        for (const l of cli(bin, ["new", s.name, "-n", "3", "-e", e, ...p]).split("\n")) if (l) out.add(l);
      } catch { /* a scheme with no generator (the nil UUID) */ }
      for (const at of AT) {
        try {
          for (const l of cli(bin, ["new", s.name, "-n", "1", "-e", e, "--at", String(at), ...p]).split("\n"))
            if (l) out.add(l);
        } catch { /* no time, or no time of that kind */ }
      }
    }
    try {
      const g = s.generator(Object.fromEntries(nodes.map((n) => [n, 2])));
      for (let i = 0; i < 3; i++) out.add(g.next());
      g.close();
    } catch { /* none */ }
  }
  const made = [...out];
  // near misses: case changed, one character changed, one dropped
  let r = seed >>> 0;
  const rand = (n) => {           // xorshift32
    r ^= r << 13; r >>>= 0; r ^= r >>> 17; r ^= r << 5; r >>>= 0;
    return r % n;
  };
  for (let i = 0; i < 200 && made.length; i++) {
    const s = made[rand(made.length)];
    if (/[^\x21-\x7e]/.test(s)) continue;
    const k = rand(s.length), c = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_"[rand(64)];
    out.add(s.slice(0, k) + c + s.slice(k + 1));
    out.add(s.slice(0, k) + s.slice(k + 1));
    out.add(i % 2 ? s.toUpperCase() : s.toLowerCase());
  }
  for (const s of [
    "1234567890123456789", "175928847299117063", "1", "0", "42", "hello", "Hello", "helloworld",
    "d41d8cd98f00b204e9800998ecf8427e", "da39a3ee5e6b4b0d3255bfef95601890afd80709",
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
    "01ARZ3NDEKTSV4RRFFQ69G5FAV", "user_2x4y6z8a0b1c2d3e4f5g6h7j8k", "cus_NffrFeUfNV2Hib",
    "0ujtsYcgvSTl8PAuAdqWYSMnLOv", "507f1f77bcf86cd799439011", "9m4e2mr0ui3e8a215n4g",
    "V1StGXR8_Z5jdHi6B-myT", "-MjDl7cNuI1gAbCdEfGh", "did:siq:g626nfyagqpcaycaaakugzymuoaah",
    "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6", "{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}",
    "f81d4fae7dec11d0a76500a0c91e6bf6", "ƒuZZybuNNy", "0000.0000.0000.0001", "😃",
    "academy-academy-academy--academy-academy-academy", "0x1", "0X1F", "1e5", "-5", "+5",
    "  01ARZ3NDEKTSV4RRFFQ69G5FAV  ", "\t175928847299117063", "the quick brown fox",
  ]) out.add(s);
  const ALPHA = ["0123456789", "0123456789abcdef", "0123456789ABCDEFGHJKMNPQRSTVWXYZ",
                 "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
                 "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", "abcdefghijklmnopqrstuvwxyz"];
  for (let i = 0; i < 400; i++) {
    const a = ALPHA[rand(ALPHA.length)], n = 1 + rand(40);
    let s = "";
    for (let k = 0; k < n; k++) s += a[rand(a.length)];
    out.add(s);
  }
  // no blank lines, no line breaks: the command reads a line per text
  return [...out].filter((s) => s.trim() !== "" && !/[\n\r]/.test(s));
}

// The command's answer for each input: its JSON line (an object, or an
// error object)
export function cliInspect(bin, inputs) {
  let text;
  try { text = cli(bin, ["inspect", "--json", "-"], inputs.join("\n") + "\n"); }
  catch (e) { text = e.stdout.toString(); }     // exit 1: some input refused
  const lines = text.split("\n").filter((l) => l).map((l) => JSON.parse(l));
  if (lines.length !== inputs.length)
    throw new Error(`idscheme inspect --json gave ${lines.length} lines for ${inputs.length} inputs`);
  return lines;
}
