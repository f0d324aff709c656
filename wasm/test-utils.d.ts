// test-utils.d.ts: the package's "./internal/test-utils" (the reference's)
import type { IIdCompressor, IIdCompressorCore, ITelemetryBaseLogger, SessionId } from "./index.js";

export declare function createAlwaysFinalizedIdCompressor(
  logger?: ITelemetryBaseLogger): IIdCompressor & IIdCompressorCore;
export declare function createAlwaysFinalizedIdCompressor(
  sessionId: SessionId, logger?: ITelemetryBaseLogger, seed?: number): IIdCompressor & IIdCompressorCore;
export declare function modifyClusterSize(compressor: IIdCompressor, newClusterSize: number): void;
