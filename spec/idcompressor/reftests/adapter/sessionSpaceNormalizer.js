// The reference's ../sessionSpaceNormalizer.js for the run on
// @idscheme/id-compressor: its network test utility unions the local ID
// ranges of the creation ranges it sent with this class, and compares
// them with a retaken range's (bookkeeping on the test side, on ranges the
// package under test produced); the reference's class does it.
export { SessionSpaceNormalizer } from "../../ref/lib/sessionSpaceNormalizer.js";
