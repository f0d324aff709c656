// app.ts: an application of the id-compressor written against the
// package's documented API, type-checked (tsc --strict) once against
// @fluidframework/id-compressor 3.1.0's declarations and once against
// ours (types.sh): swapping the import must not break the build.
import {
  createIdCompressor, createSessionId, deserializeIdCompressor,
  serializeIdCompressor, toIdCompressorWithCore, isStableId,
  assertIsStableId,
} from "idc";
import type {
  IIdCompressor, IIdCompressorCore, IdCreationRange, OpSpaceCompressedId,
  SessionId, SessionSpaceCompressedId, StableId,
  SerializedIdCompressorWithNoSession, SerializedIdCompressorWithOngoingSession,
} from "idc";

const session: SessionId = createSessionId();
const local: IIdCompressor & IIdCompressorCore =
  toIdCompressorWithCore(createIdCompressor(session));
const peer = toIdCompressorWithCore(createIdCompressor());

const id: SessionSpaceCompressedId = local.generateCompressedId();
const op: OpSpaceCompressedId = local.normalizeToOpSpace(id);
const range: IdCreationRange = local.takeNextCreationRange();
local.finalizeCreationRange(range);
peer.finalizeCreationRange(range);
const there: SessionSpaceCompressedId =
  peer.normalizeToSessionSpace(op, local.localSessionId);
const uuid: StableId = peer.decompress(there);
const back: SessionSpaceCompressedId | undefined = local.tryRecompress(uuid);
const unique: SessionSpaceCompressedId | StableId = local.generateDocumentUniqueId();
if (typeof unique === "string") console.log(unique.length);

const full: SerializedIdCompressorWithOngoingSession = local.serialize(true);
const shared: SerializedIdCompressorWithNoSession = serializeIdCompressor(local, false);
const resumed: IIdCompressor = deserializeIdCompressor(full);
const joined: IIdCompressor = deserializeIdCompressor(shared, createSessionId());
local.beginGhostSession(createSessionId(), () => { local.generateCompressedId(); });

const text: string = "0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a";
if (isStableId(text)) {
  const stable: StableId = text;
  console.log(stable, assertIsStableId(text));
}
console.log(id, there, back, resumed.localSessionId, joined.localSessionId, range.ids?.count);
