// test-utils.js: the package's "./internal/test-utils" (under the
// "allow-ff-test-exports" condition, as the reference's): the reference's
// test helpers that Fluid's own tests import, written here from their
// documented behaviour.  It imports the package by its own name, so that
// node and browsers each get their entry point.
import { createIdCompressor, toIdCompressorWithCore } from "@idscheme/id-compressor/internal";

// a seeded v4 UUID (mulberry32), or crypto's without a seed
function uuids(seed) {
  if (seed === undefined) return () => crypto.randomUUID();
  let a = seed | 0;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (t ^ (t >>> 14)) >>> 0;
  };
  return () => {
    let s = "";
    for (let i = 0; i < 4; i++) s += next().toString(16).padStart(8, "0");
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-4${s.slice(13, 16)}-` +
      `${"89ab"[parseInt(s[16], 16) & 3]}${s.slice(17, 20)}-${s.slice(20, 32)}`;
  };
}

/** A compressor that only makes final IDs, all of the session given (or a
 *  random one): it is in a ghost session that never ends, so it cannot
 *  take, finalize or serialize.  For tests. */
export function createAlwaysFinalizedIdCompressor(sessionIdOrLogger, loggerOrUndefined, seed) {
  const uuid4 = uuids(seed);
  const sessionId = typeof sessionIdOrLogger === "string" ? sessionIdOrLogger : uuid4();
  const logger = typeof sessionIdOrLogger === "object" ? sessionIdOrLogger : loggerOrUndefined;
  // its own session is unused, but must not be the ghost's: a random one
  const compressor = createIdCompressor(uuid4(), logger);
  compressor.startGhostSession(sessionId);
  return toIdCompressorWithCore(compressor);
}

/** Sets the cluster size of the compressor's next ranges. */
export function modifyClusterSize(compressor, newClusterSize) {
  if (typeof compressor.nextRequestedClusterSize !== "number")
    throw new Error("modifyClusterSize: not a compressor");
  compressor.nextRequestedClusterSize = newClusterSize;
}
