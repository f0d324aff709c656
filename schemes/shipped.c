/*
** shipped.c: the schemes that fields alone describe, as ids_defspec data.
** ids_init() hands each to ids_scheme_define, the checked path a Lua
** idscheme.define or a plugin takes, so they need no operations of their
** own.  examples/schemes/NAME.lua is each one written as a define; the
** busted spec examples_spec.lua proves the two give one scheme.
*/
#include <stdint.h>

#include "schemes.h"

#define N(a) (int)(sizeof a / sizeof *a)

static const char *const dec_hex[] = {"dec", "hex"};

/* ULID: 48-bit Unix ms + 80 random bits, 26 characters of Crockford
** base32.  Within one ms each ID adds a random step to the last one. */
static const ids_fieldspec ulid[] = {
  {"timestamp", "time", 48, "ms", 0, 0, NULL},
  {"random", "random", 80, NULL, 0, 0, NULL},
};
static const char *const ulid_enc[] = {"crockford", "uuid", "hex"};

/* UUIDv7 (RFC 9562): 48-bit Unix ms, version 7, a 12-bit sub-ms sequence
** (method 1 of section 6.2), the variant, 62 random bits. */
static const ids_fieldspec uuidv7[] = {
  {"timestamp", "time", 48, "ms", 0, 0, NULL},
  {"version", "constant", 4, NULL, 0, 7, NULL},
  {"sequence", "sequence", 12, NULL, 0, 0, NULL},
  {"variant", "constant", 2, NULL, 0, 2, NULL},
  {"random", "random", 62, NULL, 0, 0, NULL},
};
static const char *const uuidv7_enc[] = {"uuid", "hex", "base58", "urn",
                                         "braced", "dec", "base57",
                                         "flickr58"};

/* Twitter's Snowflake: 41-bit ms since 2010-11-04T01:42:54.657Z, 10-bit
** worker, 12-bit sequence. */
static const ids_fieldspec twitter[] = {
  {"unused", "constant", 1, NULL, 0, 0, NULL},
  {"timestamp", "time", 41, "ms", 1288834974657, 0, NULL},
  {"worker", "node", 10, NULL, 0, 0, NULL},
  {"sequence", "sequence", 12, NULL, 0, 0, NULL},
};

/* Sonyflake: 39 bits of 10 ms since 2014-09-01Z, 8-bit sequence, 16-bit
** machine id. */
static const ids_fieldspec sonyflake[] = {
  {"unused", "constant", 1, NULL, 0, 0, NULL},
  {"timestamp", "time", 39, "10ms", 1409529600000, 0, NULL},
  {"sequence", "sequence", 8, NULL, 0, 0, NULL},
  {"machine", "node", 16, NULL, 0, 0, NULL},
};

/* Instagram's sharded IDs: 41-bit ms since 2011-01-01Z, 13-bit shard,
** 10-bit sequence. */
static const ids_fieldspec instagram[] = {
  {"timestamp", "time", 41, "ms", 1293840000000, 0, NULL},
  {"shard", "node", 13, NULL, 0, 0, NULL},
  {"sequence", "sequence", 10, NULL, 0, 0, NULL},
};

/* KSUID (segmentio): 32-bit seconds since 1400000000 (2014-05-13) +
** 128-bit payload, 27 characters of base62. */
static const ids_fieldspec ksuid[] = {
  {"timestamp", "time", 32, "s", 1400000000000, 0, NULL},
  {"payload", "random", 128, NULL, 0, 0, NULL},
};
static const char *const ksuid_enc[] = {"base62", "hex"};

/* Mastodon's snowflake: 48-bit Unix ms, 16 bits of sequence (Mastodon
** seeds them from a hash of the table and the time; any value will do). */
static const ids_fieldspec mastodon[] = {
  {"timestamp", "time", 48, "ms", 0, 0, NULL},
  {"sequence", "sequence", 16, NULL, 0, 0, NULL},
};
static const char *const mastodon_enc[] = {"dec", "hex"};

/* TSID (tsid-creator): 42-bit ms since 2020-01-01Z, 10-bit node, 12-bit
** counter; 13 characters of Crockford base32. */
static const ids_fieldspec tsid[] = {
  {"timestamp", "time", 42, "ms", 1577836800000, 0, NULL},
  {"node", "node", 10, NULL, 0, 0, NULL},
  {"counter", "sequence", 12, NULL, 0, 0, NULL},
};
static const char *const tsid_enc[] = {"crockford", "dec", "hex"};

/* Timeflake: 48-bit Unix ms + 80 random bits, 22 characters of base62. */
static const ids_fieldspec timeflake[] = {
  {"timestamp", "time", 48, "ms", 0, 0, NULL},
  {"random", "random", 80, NULL, 0, 0, NULL},
};
static const char *const timeflake_enc[] = {"base62", "hex", "uuid", "dec"};

/* Firebase push IDs: 48-bit Unix ms + 72 random bits, 20 characters of
** the sortable base64 whose alphabet begins at '-'. */
static const ids_fieldspec pushid[] = {
  {"timestamp", "time", 48, "ms", 0, 0, NULL},
  {"random", "random", 72, NULL, 0, 0, NULL},
};
static const char *const pushid_enc[] = {
  "b64sort:-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz",
  "hex"};

/* UUID versions 1 and 6 (RFC 9562): 60-bit time in 100 ns since
** 1582-10-15 (the Gregorian calendar) around the version, the variant, a
** 14-bit clock sequence, a 48-bit node (drawn at random per ID here, as
** section 6.10 allows).  Version 1 writes the time's low 32 bits first,
** then the middle 16, then the high 12, so its IDs do not sort; version 6
** writes it from the top. */
#define UUID_TICK  "1/10000000 s"
#define GREGORIAN  (-12219292800000)
static const ids_fieldspec uuidv1[] = {
  {"timestamp", "time", 32, UUID_TICK, GREGORIAN, 0, "low first"},
  {"timestamp", NULL, 16, NULL, 0, 0, NULL},
  {"version", "constant", 4, NULL, 0, 1, NULL},
  {"timestamp", NULL, 12, NULL, 0, 0, NULL},
  {"variant", "constant", 2, NULL, 0, 2, NULL},
  {"clock_seq", "sequence", 14, NULL, 0, 0, NULL},
  {"node", "random", 48, NULL, 0, 0, NULL},
};
static const ids_fieldspec uuidv6[] = {
  {"timestamp", "time", 48, UUID_TICK, GREGORIAN, 0, NULL},
  {"version", "constant", 4, NULL, 0, 6, NULL},
  {"timestamp", NULL, 12, NULL, 0, 0, NULL},
  {"variant", "constant", 2, NULL, 0, 2, NULL},
  {"clock_seq", "sequence", 14, NULL, 0, 0, NULL},
  {"node", "random", 48, NULL, 0, 0, NULL},
};

/* TypeID (jetify): a UUIDv7 written as a type prefix, '_' and 26
** lowercase Crockford digits.  This one writes no prefix and reads any;
** a scheme of one type defines its own with the encoding "typeid:user".
** Its spec lets a TypeID hold any UUID (its valid.yml has the nil UUID):
** version and variant are "version" fields, written and not required; a
** value of another version has no time. */
static const ids_fieldspec typeid[] = {
  {"timestamp", "time", 48, "ms", 0, 0, NULL},
  {"version", "version", 4, NULL, 0, 7, NULL},
  {"sequence", "sequence", 12, NULL, 0, 0, NULL},
  {"variant", "version", 2, NULL, 0, 2, NULL},
  {"random", "random", 62, NULL, 0, 0, NULL},
};
static const char *const typeid_enc[] = {"typeid"};

/* MongoDB's ObjectId: 32-bit Unix seconds, 5 random bytes drawn once per
** generator (the driver's per process), a 3-byte counter that carries on
** across seconds from a random start; 24 hex digits.  xid (rs/xid) is the
** same layout (its machine and pid bytes: any 5 bytes will do) in 20
** characters of base32hex.  Each has its own text alone: 24 hex digits
** are an ObjectId, 20 base32hex characters an xid. */
static const ids_fieldspec objectid[] = {
  {"timestamp", "time", 32, "s", 0, 0, NULL},
  {"random", "instance", 40, NULL, 0, 0, NULL},
  {"counter", "counter", 24, NULL, 0, 0, NULL},
};
static const char *const objectid_enc[] = {"hex"};
static const ids_fieldspec xid[] = {
  {"timestamp", "time", 32, "s", 0, 0, NULL},
  {"machine_pid", "instance", 40, NULL, 0, 0, NULL},
  {"counter", "counter", 24, NULL, 0, 0, NULL},
};
static const char *const xid_enc[] = {"base32hex"};

/* UUID versions 3 and 5 (RFC 9562): the MD5 or SHA-1 hash of a namespace
** and a name around the version and the variant.  Read and composed; a
** generator has no name to hash. */
static const ids_fieldspec uuidv3[] = {
  {"hash_a", "hash", 48, NULL, 0, 0, NULL},
  {"version", "constant", 4, NULL, 0, 3, NULL},
  {"hash_b", "hash", 12, NULL, 0, 0, NULL},
  {"variant", "constant", 2, NULL, 0, 2, NULL},
  {"hash_c", "hash", 62, NULL, 0, 0, NULL},
};
static const ids_fieldspec uuidv5[] = {
  {"hash_a", "hash", 48, NULL, 0, 0, NULL},
  {"version", "constant", 4, NULL, 0, 5, NULL},
  {"hash_b", "hash", 12, NULL, 0, 0, NULL},
  {"variant", "constant", 2, NULL, 0, 2, NULL},
  {"hash_c", "hash", 62, NULL, 0, 0, NULL},
};

/* UUID version 4 (RFC 9562): 122 random bits around the version and the
** variant. */
static const ids_fieldspec uuidv4[] = {
  {"random_a", "random", 48, NULL, 0, 0, NULL},
  {"version", "constant", 4, NULL, 0, 4, NULL},
  {"random_b", "random", 12, NULL, 0, 0, NULL},
  {"variant", "constant", 2, NULL, 0, 2, NULL},
  {"random_c", "random", 62, NULL, 0, 0, NULL},
};
/* UUID version 8: its maker's own 122 bits (drawn at random here). */
static const ids_fieldspec uuidv8[] = {
  {"custom_a", "random", 48, NULL, 0, 0, NULL},
  {"version", "constant", 4, NULL, 0, 8, NULL},
  {"custom_b", "random", 12, NULL, 0, 0, NULL},
  {"variant", "constant", 2, NULL, 0, 2, NULL},
  {"custom_c", "random", 62, NULL, 0, 0, NULL},
};
/* The nil and max UUIDs: every bit 0, every bit 1.  Nothing to generate. */
static const ids_fieldspec uuidnil[] = {
  {"high", "constant", 64, NULL, 0, 0, NULL},
  {"low", "constant", 64, NULL, 0, 0, NULL},
};
static const ids_fieldspec uuidmax[] = {
  {"high", "constant", 64, NULL, 0, UINT64_MAX, NULL},
  {"low", "constant", 64, NULL, 0, UINT64_MAX, NULL},
};
/* Every UUID reads and writes the forms the UUID world writes: the
** 8-4-4-4-12 digits, 32 hex digits, RFC 9562's URN ("urn:uuid:..."),
** Microsoft's registry form ("{...}"), the 128-bit number in decimal
** (ITU-T X.667's single integer value, OSSP uuid's -F SIV), and 22 digits
** of base 57 (Python's shortuuid) or Flickr's base58 (npm's short-uuid). */
static const char *const uuid_enc[] = {"uuid", "hex", "urn", "braced", "dec",
                                       "base57", "flickr58"};

/* nanoid: 126 random bits, 21 characters of its URL alphabet. */
static const ids_fieldspec nanoid[] = {
  {"random", "random", 126, NULL, 0, 0, NULL},
};
static const char *const nanoid_enc[] = {"nanoid"};

/* What inspect and info tell of each (since: the format's first IDs,
** where its epoch does not say; 2016-01-01 ULID's spec, 2021-01-01 the
** first UUIDv7 draft, 2017-01-01 KSUID's release, 2017-09-01 Mastodon
** 2.0's snowflakes, 2015-02-01 Firebase's push IDs, 2020-01-01
** Timeflake's release, 1990-01-01 for UUIDv1 (DCE's), 2020-01-01 the
** first UUIDv6 draft, 2009-01-01 MongoDB's first, 2015-01-01 rs/xid, 2023-01-01
** TypeID). */
static const ids_about a_instagram = {.title = "Instagram's sharded ID"};
static const ids_about a_ksuid = {.title = "KSUID (Segment)",
                                  .since_ms = 1483228800000};
static const ids_about a_mastodon = {.title = "Mastodon's snowflake",
                                     .since_ms = 1504224000000};
static const ids_about a_pushid = {.title = "Firebase push ID",
                                   .since_ms = 1422748800000,
                                   .aliases = {"firebase"}};
static const ids_about a_timeflake = {.title = "Timeflake",
                                      .since_ms = 1577836800000};
static const ids_about a_tsid = {.title = "TSID (tsid-creator)"};
static const ids_about a_uuidv4 = {.title = "UUID version 4 (RFC 9562)",
                                   .note = "none: random data only",
                                   .aliases = {"uuid"}};
static const ids_about a_typeid = {.title = "TypeID (jetify)",
                                   .since_ms = 1672531200000};
static const ids_about a_objectid = {.title = "MongoDB ObjectId",
                                     .since_ms = 1230768000000,
                                     .aliases = {"mongo", "bson"}};
static const ids_about a_xid = {.title = "xid (rs/xid)",
                                .since_ms = 1420070400000};
static const ids_about a_uuidv1 = {.title = "UUID version 1 (RFC 9562)",
                                   .since_ms = 631152000000,
                                   .aliases = {"uuid"}};
static const ids_about a_uuidv6 = {.title = "UUID version 6 (RFC 9562)",
                                   .since_ms = 1577836800000,
                                   .aliases = {"uuid"}};
static const ids_about a_uuidv3 = {.title = "UUID version 3 (RFC 9562)",
                                   .note = "none: name-based (an MD5 hash)",
                                   .aliases = {"uuid"}};
static const ids_about a_uuidv5 = {.title = "UUID version 5 (RFC 9562)",
                                   .note = "none: name-based (a SHA-1 hash)",
                                   .aliases = {"uuid"}};
static const ids_about a_uuidv8 = {.title = "UUID version 8 (RFC 9562)",
                                   .note = "none: custom data, laid out by "
                                           "its maker",
                                   .aliases = {"uuid"}};
static const ids_about a_uuidnil = {.title = "the nil UUID",
                                    .note = "none: every bit 0",
                                    .aliases = {"uuid"}};
static const ids_about a_uuidmax = {.title = "the max UUID",
                                    .note = "none: every bit 1",
                                    .aliases = {"uuid"}};
static const ids_about a_nanoid = {.title = "nanoid",
                                   .note = "none: random data only",
                                   .lengths = {10, IDS_TEXTMAX - 1}};
static const ids_about a_sonyflake = {.title = "Sonyflake (Sony)"};
static const ids_about a_twitter = {.title = "Twitter's Snowflake"};
static const ids_about a_ulid = {.title = "ULID", .since_ms = 1451606400000};
static const ids_about a_uuidv7 = {.title = "UUID version 7 (RFC 9562)",
                                   .since_ms = 1609459200000,
                                   .aliases = {"uuid"}};

#define SPEC(name, enc, about) \
  {#name, name, N(name), enc, N(enc), NULL, 0, &about}
const ids_defspec ids_shipped[] = {
  SPEC(instagram, dec_hex, a_instagram),
  SPEC(ksuid, ksuid_enc, a_ksuid),
  SPEC(mastodon, mastodon_enc, a_mastodon),
  SPEC(nanoid, nanoid_enc, a_nanoid),
  SPEC(objectid, objectid_enc, a_objectid),
  SPEC(pushid, pushid_enc, a_pushid),
  SPEC(sonyflake, dec_hex, a_sonyflake),
  SPEC(timeflake, timeflake_enc, a_timeflake),
  SPEC(tsid, tsid_enc, a_tsid),
  SPEC(twitter, dec_hex, a_twitter),
  {"typeid", typeid, N(typeid), typeid_enc, N(typeid_enc), NULL, 0, &a_typeid},
  SPEC(ulid, ulid_enc, a_ulid),
  SPEC(uuidmax, uuid_enc, a_uuidmax),
  SPEC(uuidnil, uuid_enc, a_uuidnil),
  SPEC(uuidv1, uuid_enc, a_uuidv1),
  SPEC(uuidv3, uuid_enc, a_uuidv3),
  SPEC(uuidv4, uuid_enc, a_uuidv4),
  SPEC(uuidv5, uuid_enc, a_uuidv5),
  SPEC(uuidv6, uuid_enc, a_uuidv6),
  SPEC(uuidv7, uuidv7_enc, a_uuidv7),
  SPEC(uuidv8, uuid_enc, a_uuidv8),
  SPEC(xid, xid_enc, a_xid),
};
const int ids_nshipped = N(ids_shipped);
