// legacy.d.ts: the types of the reference's "./legacy" (its @public and
// @legacy @beta API)
export type {
  IIdCompressor, OpSpaceCompressedId, SessionId, SessionSpaceCompressedId, StableId,
  IdCreationRange, SerializedIdCompressor, SerializedIdCompressorWithNoSession,
  SerializedIdCompressorWithOngoingSession,
} from "./index.js";
export {
  createIdCompressor, createSessionId, deserializeIdCompressor, serializeIdCompressor,
} from "./index.js";
