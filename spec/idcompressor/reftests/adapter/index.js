// The reference's ../index.js (its "./internal" entry point) for the run
// on @idscheme/id-compressor: the package's own.
export * from "@idscheme/id-compressor/internal";
