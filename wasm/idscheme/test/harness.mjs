// harness.mjs: the tally every test case reports to, in node and in a
// page: ok(cond, what), eq(got, want, what), throws(fn, code, what),
// and the closing line "N passed, N failed".  Passes are counted, failures
// listed with what was expected (quiet: only failures are printed).
export function tally(print = (s) => console.log(s)) {
  const t = {
    passed: 0, failed: 0, failures: [],
    ok(cond, what) {
      if (cond) t.passed++;
      else { t.failed++; t.failures.push(what); print("FAIL " + what); }
      return !!cond;
    },
    eq(got, want, what) {
      const same = Object.is(got, want) || (typeof got === "bigint" && typeof want === "bigint" && got === want);
      return t.ok(same, same ? what : `${what}: got ${show(got)}, want ${show(want)}`);
    },
    // fn throws an IdschemeError of code whose message passes test (a
    // RegExp or a string it must hold); returns the error
    throws(fn, code, test, what) {
      let err = null;
      try { fn(); } catch (e) { err = e; }
      // code and test both null: any Error (a TypeError for a wrong type)
      const good = err !== null && (code === null && test === null ? err instanceof Error :
                   err.name === "IdschemeError" && (code === null || err.code === code) &&
                   (test === null || (typeof test === "string" ? err.message.includes(test) : test.test(err.message))));
      t.ok(good, good ? what : `${what}: ${err ? `${err.name} ${err.code}: ${err.message}` : "no error"}`);
      return err;
    },
    line() { return `${t.passed} passed, ${t.failed} failed`; },
  };
  return t;
}
function show(x) {
  if (typeof x === "bigint") return x + "n";
  if (typeof x === "string") return JSON.stringify(x);
  return String(x);
}
