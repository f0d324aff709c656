// count.js: the verdicts of a paste's lines, counted, with no reading
// made (the package's verdict()).  The page counts the lines past its
// cards with it, on its own thread and in its helpers (worker.js), so
// that the two count alike.
import * as idscheme from "idscheme";

// countLines(text, from, to, as, counts): the non-blank lines of text
// between indexes from and to (a line's end or the text's), each trimmed
// and its verdict counted into counts ({ verdict: n }); as, a scheme's
// name to read them as, or "".  Their number.  Line by line through the text: a paste of a million lines
// makes no array of a million strings, which the collector would walk
// again and again (it took half the page's time).
export function countLines(text, from, to, as, counts) {
  const opts = as ? { scheme: as } : undefined;
  let n = 0;
  for (let at = from; at <= to;) {
    let end = text.indexOf("\n", at);
    if (end < 0 || end > to) end = to;
    const l = text.slice(at, end).trim();
    at = end + 1;
    if (!l) continue;
    n++;
    let v;
    try { v = idscheme.verdict(l, opts); } catch { v = "unknown"; }
    counts[v] = (counts[v] ?? 0) + 1;
  }
  return n;
}
