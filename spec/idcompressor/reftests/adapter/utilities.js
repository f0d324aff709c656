// The reference's ../utilities.js for the run on @idscheme/id-compressor.
// The package's own functions where it has them; the rest is the
// reference's stable-ID arithmetic, with which the tests' helpers work out
// the UUIDs they expect (incrementStableId, localIdFromGenCount): the test
// side's arithmetic, not under test.
export {
  createSessionId, assertIsSessionId, assertIsStableId, generateStableId, isStableId,
} from "@idscheme/id-compressor/internal";
export {
  compareFiniteNumbers, compareStrings, compareBigints, genCountFromLocalId, localIdFromGenCount,
  numericUuidFromStableId, stableIdFromNumericUuid, offsetNumericUuid, subtractNumericUuids,
  addNumericUuids,
} from "../../ref/lib/utilities.js";
