// ref-entry.mjs: what the page needs of the reference, bundled for the
// browser by esbuild (run.mjs): @fluidframework/id-compressor 3.1.0 and
// its telemetry-utils (MockLogger, createChildLogger, LoggingError)
export * as R from "@fluidframework/id-compressor";
export * as TU from "@fluidframework/telemetry-utils/internal";
