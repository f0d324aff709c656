// The reference's ../idCompressor.js, as its tests import it, for the run
// on @idscheme/id-compressor: the package's own functions and class (the
// class has the reference class's equals, deserialize and
// startGhostSession, which the tests use).
export {
  IdCompressor, createIdCompressor, deserializeIdCompressor, serializeIdCompressor,
  toIdCompressorWithCore,
} from "@idscheme/id-compressor/internal";
