// public.d.ts: the reference's "." types (its @public API)
export type {
  IIdCompressor, OpSpaceCompressedId, SessionId, SessionSpaceCompressedId, StableId,
} from "./index.js";
