// count.js: a paste's lines, one at a time, and their verdicts counted
// with no reading made (the package's verdict()).  The page draws its
// cards with eachLine and counts the lines past them with countLines, on
// its own thread and in its helpers (worker.js), so that all read lines
// alike.
import * as idscheme from "idscheme";

// eachLine(text, from, to, f): f(line) for each non-blank line of text
// between indexes from and to (a line's end or the text's), trimmed,
// until f returns false.  Where the next line starts.  Line by line
// through the text: a paste of a million lines makes no array of a
// million strings, which the collector would walk again and again (it
// took half the page's time).
export function eachLine(text, from, to, f) {
  for (let at = from; at <= to;) {
    let end = text.indexOf("\n", at);
    if (end < 0 || end > to) end = to;
    const l = text.slice(at, end).trim();
    at = end + 1;
    if (l && f(l) === false) return at;
  }
  return to + 1;
}

// countLines(text, from, to, as, counts): eachLine's lines, each one's
// verdict counted into counts ({ verdict: n }); as, a scheme's name to
// read them as, or "".  Their number.
export function countLines(text, from, to, as, counts) {
  const opts = as ? { scheme: as } : undefined;
  let n = 0;
  eachLine(text, from, to, (l) => {
    n++;
    let v;
    try { v = idscheme.verdict(l, opts); } catch { v = "unknown"; }
    counts[v] = (counts[v] ?? 0) + 1;
  });
  return n;
}
