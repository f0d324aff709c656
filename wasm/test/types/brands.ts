// brands.ts: the two packages' types are one another's (their brands are
// the same), so that values pass between code that imports either, and
// our compressor is the package's IIdCompressor & IIdCompressorCore, with
// what WebAssembly asks for beside.
import type * as R from "ref";
import type * as O from "ours";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const checks: [
  Same<R.SessionSpaceCompressedId, O.SessionSpaceCompressedId>,
  Same<R.OpSpaceCompressedId, O.OpSpaceCompressedId>,
  Same<R.StableId, O.StableId>,
  Same<R.SessionId, O.SessionId>,
  Same<R.SerializedIdCompressorWithOngoingSession, O.SerializedIdCompressorWithOngoingSession>,
  Same<R.SerializedIdCompressorWithNoSession, O.SerializedIdCompressorWithNoSession>,
  Same<R.IdCreationRange, O.IdCreationRange>,
] = [true, true, true, true, true, true, true];
declare const ours: O.IdCompressor;
const asTheirs: R.IIdCompressor & R.IIdCompressorCore = ours;
declare const theirs: R.IIdCompressor;
const wrapped: O.IIdCompressor = theirs;
ours.nextRequestedClusterSize = 16;
const bytes: Uint8Array = ours.serializeToBytes(true);
const maybe: O.SessionSpaceCompressedId | undefined =
  ours.tryNormalizeToSessionSpaceWithoutSession(0 as O.OpSpaceCompressedId);
ours.dispose();
declare const heap: typeof import("ours").wasmHeapInUse;
const inUse: number = heap();
console.log(checks, asTheirs, wrapped, bytes, maybe, inUse);
