// index.d.ts: the types of @idscheme/id-compressor, those of
// @fluidframework/id-compressor 3.1.0's internal entry point (its public
// and legacy ones are public.d.ts and legacy.d.ts): an application swaps
// one import for the other.  Beside them: dispose(), serializeToBytes(),
// wasmHeapInUse(), and the IdCompressor class with the reference class's
// equals, startGhostSession and deserialize.

/** A compressed ID in the local session's space (negative: local). */
export type SessionSpaceCompressedId = number & {
  readonly SessionUnique: "cea55054-6b82-4cbf-ad19-1fa645ea3b3e";
};
/** A compressed ID as it appears in ops (final, or local with its session). */
export type OpSpaceCompressedId = number & {
  readonly OpNormalized: "9209432d-a959-4df7-b2ad-767ead4dbcae";
};
/** A version 4, variant 1 UUID in its 36-character form. */
export type StableId = string & { readonly StableId: "53172b0d-a3d5-41ea-bd75-b43839c97f5a" };
/** The StableId of a session. */
export type SessionId = StableId & { readonly SessionId: "4498f850-e14e-4be9-8db0-89ec00997e58" };
export type FinalCompressedId = number & {
  readonly FinalCompressedId: "5d83d1e2-98b7-4e4e-a889-54c855cfa73d";
  readonly OpNormalized: "9209432d-a959-4df7-b2ad-767ead4dbcae";
};

export type SerializedIdCompressor = string & {
  readonly _serializedIdCompressor: "8c73c57c-1cf4-4278-8915-6444cb4f6af5";
};
export type SerializedIdCompressorWithNoSession = SerializedIdCompressor & {
  readonly _noLocalState: "3aa2e1e8-cc28-4ea7-bc1a-a11dc3f26dfb";
};
export type SerializedIdCompressorWithOngoingSession = SerializedIdCompressor & {
  readonly _hasLocalState: "1281acae-6d14-47e7-bc92-71c8ee0819cb";
};

export interface IdCreationRange {
  readonly sessionId: SessionId;
  readonly ids?: {
    readonly firstGenCount: number;
    readonly count: number;
    readonly requestedClusterSize: number;
    readonly localIdRanges: [genCount: number, count: number][];
  };
}

export interface IIdCompressorCore {
  takeNextCreationRange(): IdCreationRange;
  takeUnfinalizedCreationRange(): IdCreationRange;
  resetUnfinalizedCreationRange(): void;
  finalizeCreationRange(range: IdCreationRange): void;
  beginGhostSession(ghostSessionId: SessionId, ghostSessionCallback: () => void): void;
  serialize(withSession: true): SerializedIdCompressorWithOngoingSession;
  serialize(withSession: false): SerializedIdCompressorWithNoSession;
}

export interface IIdCompressor {
  localSessionId: SessionId;
  generateCompressedId(): SessionSpaceCompressedId;
  generateDocumentUniqueId(): (SessionSpaceCompressedId & OpSpaceCompressedId) | StableId;
  normalizeToOpSpace(id: SessionSpaceCompressedId): OpSpaceCompressedId;
  normalizeToSessionSpace(id: OpSpaceCompressedId, originSessionId: SessionId): SessionSpaceCompressedId;
  decompress(id: SessionSpaceCompressedId): StableId;
  recompress(uncompressed: StableId): SessionSpaceCompressedId;
  tryRecompress(uncompressed: StableId): SessionSpaceCompressedId | undefined;
}

/** The compressor: both interfaces (merged into the class below, so that
 *  their members are declared once), and what WebAssembly memory asks for. */
export interface IdCompressor extends IIdCompressor, IIdCompressorCore {}
export declare class IdCompressor {
  static readonly maxClusterSize: number;
  readonly localSessionId: SessionId;
  /** The cluster size of ranges taken from now on, 1..2^20 (512). */
  nextRequestedClusterSize: number;
  tryNormalizeToSessionSpaceWithoutSession(id: OpSpaceCompressedId): SessionSpaceCompressedId | undefined;
  /** The serialized bytes (the string form is their base64). */
  serializeToBytes(withSession: boolean): Uint8Array;
  /** Frees the compressor's WebAssembly memory now; it is freed when the
   *  compressor is collected otherwise.  Any later call throws. */
  dispose(): void;
  /** The reference class's: the same sessions and clusters, and with
   *  includeLocalState the same local session and local state. */
  equals(other: IdCompressor, includeLocalState: boolean): boolean;
  /** The reference class's: a ghost session that no call ends (tests). */
  startGhostSession(ghostSessionId: SessionId): void;
  /** The reference class's: deserializeIdCompressor with its arguments named. */
  static deserialize(params:
    | { serialized: SerializedIdCompressorWithOngoingSession; logger?: ITelemetryLoggerExt; newSessionId?: never }
    | { serialized: SerializedIdCompressorWithNoSession; newSessionId: SessionId; logger?: ITelemetryLoggerExt }): IdCompressor;
}

/** A telemetry event as a base logger receives it (core-interfaces'). */
export interface ITelemetryBaseEvent {
  category: string;
  eventName: string;
  [property: string]: unknown;
}
/** The logger createIdCompressor takes (core-interfaces'
 *  ITelemetryBaseLogger): each event of the reference reaches send() as
 *  { category: "generic", eventName: "RuntimeIdCompressor:...", ... } at
 *  log level 30 (essential). */
export interface ITelemetryBaseLogger {
  send(event: ITelemetryBaseEvent, logLevel?: number): void;
  readonly minLogLevel?: number;
}
/** The logger deserializeIdCompressor takes (telemetry-utils'
 *  ITelemetryLoggerExt: its sendTelemetryEvent is called), or a base
 *  logger. */
export type ITelemetryLoggerExt =
  | { sendTelemetryEvent(event: { eventName: string; [property: string]: unknown }): void }
  | ITelemetryBaseLogger;

export declare function createIdCompressor(logger?: ITelemetryBaseLogger): IdCompressor;
export declare function createIdCompressor(sessionId: SessionId, logger?: ITelemetryBaseLogger): IdCompressor;
export declare function deserializeIdCompressor(
  serialized: SerializedIdCompressorWithOngoingSession, logger?: ITelemetryLoggerExt): IdCompressor;
export declare function deserializeIdCompressor(
  serialized: SerializedIdCompressorWithNoSession, newSessionId: SessionId,
  logger?: ITelemetryLoggerExt): IdCompressor;
export declare function serializeIdCompressor(
  compressor: IIdCompressor, withSession: true): SerializedIdCompressorWithOngoingSession;
export declare function serializeIdCompressor(
  compressor: IIdCompressor, withSession: false): SerializedIdCompressorWithNoSession;
export declare function toIdCompressorWithCore(compressor: IIdCompressor): IIdCompressor & IIdCompressorCore;
export declare function createSessionId(): SessionId;
export declare function generateStableId(): StableId;
export declare function isStableId(str: string): str is StableId;
export declare function assertIsStableId(str: string): StableId;
export declare function assertIsSessionId(str: string): SessionId;
export declare function isFinalId(id: number): id is FinalCompressedId;
/** Bytes of WebAssembly heap that live compressors hold. */
export declare function wasmHeapInUse(): number;
