/*
** idcompressor.h: a byte-compatible port of Fluid Framework's id-compressor
** (@fluidframework/id-compressor 3.1.0): compressed IDs (small integers) for
** UUIDs, shared by the clients of one document through creation ranges
** applied in one total order, and serialized in format version 2.
**
** Every function returns IDS_OK or a negative IDS_E* code and fills the
** ids_error.  A call that fails changes nothing: the compressor serializes
** to the same bytes before and after.  There is no global state; a
** compressor may be used by one thread at a time.
**
** Local IDs are negative (-gen count), finals are >= 0.  UUIDs are 36
** characters of text.  See docs/API.md and docs/COMPAT.md.
**
** Compiles as C99 and as C++ (C++11 and later).
*/
#ifndef IDS_IDCOMPRESSOR_H
#define IDS_IDCOMPRESSOR_H

#include <stddef.h>
#include <stdint.h>

#include "idscheme.h"

/* idscheme.h marks exports with IDS_API where it has it */
#ifndef IDS_API
#define IDS_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define IDS_IDC_UUID_LEN          36
#define IDS_IDC_DEFAULT_CLUSTER   512
#define IDS_IDC_MAX_CLUSTER       (1 << 20)

typedef struct ids_idc ids_idc;

/* A creation range.  From a take: every pointer is owned by the compressor
** and valid until the next call on it.  To finalize: owned by the caller;
** the local ranges are not read (as in the reference). */
typedef struct ids_idc_range {
  const char *session_id;
  int has_ids;                     /* 0: the reference's ids is undefined */
  int64_t first_gen_count;
  int64_t count;
  int64_t requested_cluster_size;
  size_t nlocal;                   /* number of (gen, count) pairs */
  const int64_t (*local)[2];       /* localIdRanges */
} ids_idc_range;

/* session_id NULL: a random v4 UUID (libsodium).  Any text the reference
** reads as hex is accepted and kept as given (see docs/COMPAT.md). */
IDS_API
int  ids_idc_new (ids_idc **out, const char *session_id, ids_error *e);
IDS_API
void ids_idc_free (ids_idc *c);

IDS_API
const char *ids_idc_local_session_id (const ids_idc *c);
/* The requested cluster size of ranges taken afterwards, 1..2^20. */
IDS_API
int ids_idc_set_cluster_size (ids_idc *c, int64_t size, ids_error *e);
IDS_API
int64_t ids_idc_cluster_size (const ids_idc *c);
/* The reference's equals: 1 if a and b hold the same sessions, clusters
** and final space, and with_local, the same local session, IDs made,
** next range base and normalizer; else 0. */
IDS_API
int ids_idc_equals (const ids_idc *a, const ids_idc *b, int with_local);

IDS_API
int ids_idc_generate (ids_idc *c, int64_t *id, ids_error *e);
/* How many of the next generates make eager finals (the local session's
** last cluster has room for them), the first in *first: they are
** *first, *first + 1, ..., and each changes nothing but the count of IDs
** made, so that a binding may hand them out itself and then make as many
** ids_idc_generate calls.  0 in a ghost session, or when the next is not
** one. */
IDS_API
int64_t ids_idc_eager (const ids_idc *c, int64_t *first);
/* n such generates at once (n at most ids_idc_eager's count): the state
** is as after n ids_idc_generate calls.  IDS_ERANGE for another n. */
IDS_API
int ids_idc_eager_apply (ids_idc *c, int64_t n, ids_error *e);
/* *id >= 0 and uuid untouched, or uuid filled (37 bytes) and *is_uuid 1 */
IDS_API
int ids_idc_generate_unique (ids_idc *c, int64_t *id, char *uuid,
                             int *is_uuid, ids_error *e);

IDS_API
int ids_idc_take_next_range (ids_idc *c, ids_idc_range *r, ids_error *e);
IDS_API
int ids_idc_take_unfinalized_range (ids_idc *c, ids_idc_range *r,
                                    ids_error *e);
IDS_API
int ids_idc_reset_unfinalized_range (ids_idc *c, ids_error *e);
IDS_API
int ids_idc_finalize_range (ids_idc *c, const ids_idc_range *r, ids_error *e);

IDS_API
int ids_idc_normalize_to_op_space (ids_idc *c, int64_t id, int64_t *out,
                                   ids_error *e);
IDS_API
int ids_idc_normalize_to_session_space (ids_idc *c, int64_t id,
                                        const char *origin, int64_t *out,
                                        ids_error *e);
/* *found 0 where the reference returns undefined */
IDS_API
int ids_idc_try_normalize_without_session (ids_idc *c, int64_t id,
                                           int64_t *out, int *found,
                                           ids_error *e);

/* uuid: 37 bytes */
IDS_API
int ids_idc_decompress (ids_idc *c, int64_t id, char *uuid, ids_error *e);
IDS_API
int ids_idc_recompress (ids_idc *c, const char *uuid, int64_t *out,
                        ids_error *e);
IDS_API
int ids_idc_try_recompress (ids_idc *c, const char *uuid, int64_t *out,
                            int *found, ids_error *e);

/* A NUL-terminated base64 string from malloc (the caller frees it). */
IDS_API
int ids_idc_serialize (ids_idc *c, int with_session, char **out, size_t *len,
                       ids_error *e);
/* The same blob as bytes (the text is their base64), from malloc. */
IDS_API
int ids_idc_serialize_bytes (ids_idc *c, int with_session, uint8_t **out,
                             size_t *len, ids_error *e);
/* new_session_id NULL: resume the blob's local session (it must have one) */
IDS_API
int ids_idc_deserialize (ids_idc **out, const char *text, size_t len,
                         const char *new_session_id, ids_error *e);
/* The same from the blob's bytes (ids_idc_serialize_bytes'). */
IDS_API
int ids_idc_deserialize_bytes (ids_idc **out, const uint8_t *bytes,
                               size_t len, const char *new_session_id,
                               ids_error *e);

/* Runs fn(c, ud, e) in a ghost session: each ids_idc_generate inside mints
** a final for ghost_id directly.  Taking, resetting, finalizing,
** serializing and nesting fail inside.  fn returns IDS_OK, or a negative
** code with e filled, which this returns; the IDs minted before stay (they
** are a consensus point's, as in the reference). */
IDS_API
int ids_idc_ghost_session (ids_idc *c, const char *ghost_id,
                           int (*fn) (ids_idc *c, void *ud, ids_error *e),
                           void *ud, ids_error *e);

/* Stable-ID arithmetic.  uuid_numeric: the 122-bit number of a UUID text
** (hi holds bits 64..121); uuid_offset: the canonical UUID `off` after
** `uuid`, modulo 2^122; is_stable_id: the reference's isStableId. */
IDS_API
int ids_idc_uuid_numeric (const char *uuid, uint64_t *hi, uint64_t *lo,
                          ids_error *e);
IDS_API
int ids_idc_uuid_offset (const char *uuid, int64_t off, char *out,
                         ids_error *e);
IDS_API
int ids_idc_is_stable_id (const char *s);

#ifdef __cplusplus
}
#endif

#endif
