/*
** shipped.c: the schemes that fields alone describe, as ids_defspec data.
** ids_init() hands each to ids_scheme_define, the checked path a Lua
** idscheme.define or a plugin takes, so they need no operations of their
** own.  examples/schemes/NAME.lua is each one written as a define; the
** busted spec examples_spec.lua proves the two give one scheme.
*/
#include "schemes.h"

#define N(a) (int)(sizeof a / sizeof *a)

static const char *const dec_hex[] = {"dec", "hex"};

/* ULID: 48-bit Unix ms + 80 random bits, 26 characters of Crockford
** base32.  Within one ms each ID adds a random step to the last one. */
static const ids_fieldspec ulid[] = {
  {"timestamp", "time", 48, "ms", 0, 0},
  {"random", "random", 80, NULL, 0, 0},
};
static const char *const ulid_enc[] = {"crockford", "uuid", "hex"};

/* UUIDv7 (RFC 9562): 48-bit Unix ms, version 7, a 12-bit sub-ms sequence
** (method 1 of section 6.2), the variant, 62 random bits. */
static const ids_fieldspec uuidv7[] = {
  {"timestamp", "time", 48, "ms", 0, 0},
  {"version", "constant", 4, NULL, 0, 7},
  {"sequence", "sequence", 12, NULL, 0, 0},
  {"variant", "constant", 2, NULL, 0, 2},
  {"random", "random", 62, NULL, 0, 0},
};
static const char *const uuidv7_enc[] = {"uuid", "hex", "base58"};

/* Twitter's Snowflake: 41-bit ms since 2010-11-04T01:42:54.657Z, 10-bit
** worker, 12-bit sequence. */
static const ids_fieldspec twitter[] = {
  {"unused", "constant", 1, NULL, 0, 0},
  {"timestamp", "time", 41, "ms", 1288834974657, 0},
  {"worker", "node", 10, NULL, 0, 0},
  {"sequence", "sequence", 12, NULL, 0, 0},
};

/* Sonyflake: 39 bits of 10 ms since 2014-09-01Z, 8-bit sequence, 16-bit
** machine id. */
static const ids_fieldspec sonyflake[] = {
  {"unused", "constant", 1, NULL, 0, 0},
  {"timestamp", "time", 39, "10ms", 1409529600000, 0},
  {"sequence", "sequence", 8, NULL, 0, 0},
  {"machine", "node", 16, NULL, 0, 0},
};

/* Instagram's sharded IDs: 41-bit ms since 2011-01-01Z, 13-bit shard,
** 10-bit sequence. */
static const ids_fieldspec instagram[] = {
  {"timestamp", "time", 41, "ms", 1293840000000, 0},
  {"shard", "node", 13, NULL, 0, 0},
  {"sequence", "sequence", 10, NULL, 0, 0},
};

/* KSUID (segmentio): 32-bit seconds since 1400000000 (2014-05-13) +
** 128-bit payload, 27 characters of base62. */
static const ids_fieldspec ksuid[] = {
  {"timestamp", "time", 32, "s", 1400000000000, 0},
  {"payload", "random", 128, NULL, 0, 0},
};
static const char *const ksuid_enc[] = {"base62", "hex"};

const ids_defspec ids_shipped[] = {
  {"instagram", instagram, N(instagram), dec_hex, N(dec_hex), NULL, 0},
  {"ksuid", ksuid, N(ksuid), ksuid_enc, N(ksuid_enc), NULL, 0},
  {"sonyflake", sonyflake, N(sonyflake), dec_hex, N(dec_hex), NULL, 0},
  {"twitter", twitter, N(twitter), dec_hex, N(dec_hex), NULL, 0},
  {"ulid", ulid, N(ulid), ulid_enc, N(ulid_enc), NULL, 0},
  {"uuidv7", uuidv7, N(uuidv7), uuidv7_enc, N(uuidv7_enc), NULL, 0},
};
const int ids_nshipped = N(ids_shipped);
