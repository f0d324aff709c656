/* idc.h: the id-compressor's private state, shared by its source files. */
#ifndef IDS_IDC_PRIVATE_H
#define IDS_IDC_PRIVATE_H

#include "idcompressor.h"

typedef unsigned __int128 idc_u128;

#define IDC_MAX_SAFE  ((int64_t)9007199254740991)   /* 2^53 - 1 */
#define IDC_NONE      UINT32_MAX

/* Finals are contiguous: base_final is the sum of the earlier capacities.
** Gens of one session are contiguous too, in chain order. */
typedef struct idc_cluster {
  int64_t base_final, base_gen, capacity, count;
  uint32_t sess;
} idc_cluster;

typedef struct idc_session {
  char *id;                 /* the string the session was first seen as */
  size_t idlen;             /* its length */
  idc_u128 n;               /* the 122-bit number */
  uint32_t *chain;          /* cluster indexes in gen order */
  int64_t *gens;            /* their base gens, for the binary search */
  uint32_t nchain, chaincap;
  uint64_t per_gen;         /* the guess's ratio (idc_cluster_by_gen) */
} idc_session;

/* a session's number and index, in byn: the searches by number read
** the numbers in one array, not through the sessions */
typedef struct idc_byn {
  idc_u128 n;
  uint32_t si;
} idc_byn;

struct ids_idc {
  idc_session *sess;        /* first-seen order; the local session is 0 */
  uint32_t nsess, sesscap;
  idc_byn *byn;             /* the sessions sorted by n */
  uint32_t *ht;             /* string -> session index + 1, open addressing */
  uint32_t htcap;
  idc_cluster *cl;          /* final-space order */
  int64_t *bf;              /* their base finals, for the binary search */
  uint32_t ncl, clcap;
  uint64_t per_final;       /* clusters per allocated final, in 2^-64ths */
  int64_t (*runs)[2];       /* normalizer: gens handed out as local ids */
  size_t nruns, runcap;
  int64_t gen_count, next_base, cluster_size;
  uint32_t local_last;      /* local session's last cluster or IDC_NONE */
  int ghost;                /* inside ids_idc_ghost_session */
  char *ghost_id;
  uint32_t ghost_cl;        /* its cluster once the first ID is minted */
  int64_t (*rbuf)[2];       /* local ranges of the last take */
  size_t rbufcap;
};

/* stableid.c */
int  idc_parse (const char *s, idc_u128 *n, const char *what, ids_error *e);
void idc_format (idc_u128 n, char *out);
/* a UUID's 128 bits without its version's and variant's: its number */
idc_u128 idc_strip (idc_u128 u);

/* state.c: the tables, their lookups and their growth */
uint32_t idc_find_session (const ids_idc *c, const char *id);
uint32_t idc_pred_session (const ids_idc *c, idc_u128 q);
int  idc_runs_contain (const ids_idc *c, int64_t g);
uint32_t idc_cluster_near (const ids_idc *c, int64_t f, size_t guess);
void idc_retile (ids_idc *c, uint32_t si);
uint32_t idc_cluster_by_gen (const ids_idc *c, const idc_session *s,
                             int64_t g);
int  idc_reserve_sessions (ids_idc *c, uint32_t more);
int  idc_add_session (ids_idc *c, const char *id, idc_u128 n);
int  idc_add_cluster (ids_idc *c, uint32_t si, int64_t capacity,
                      int64_t count);
int  idc_reserve_clusters (ids_idc *c, uint32_t more, uint32_t si,
                           uint32_t n);
int  idc_reserve_runs (ids_idc *c, size_t more);
ids_idc *idc_alloc (void);

/* the high 64 bits of a * b: one instruction on a 64-bit target; on a
** 32-bit one (WebAssembly) four 32 x 32 products, where the 128-bit
** multiplication is a library call (__multi3) and a third of decompress */
static inline uint64_t idc_mulhi (uint64_t a, uint64_t b) {
#if SIZE_MAX > UINT32_MAX
  return (uint64_t)(((idc_u128)a * b) >> 64);
#else
  uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
  uint64_t m = ah * bl + (al * bl >> 32), n = al * bh + (uint32_t)m;
  return ah * bh + (m >> 32) + (n >> 32);
#endif
}

/* the index that a ratio kept by idc_retile guesses for the offset x,
** among n */
static inline size_t idc_guess (int64_t x, uint64_t ratio, size_t n) {
  size_t i = (size_t)idc_mulhi((uint64_t)x, ratio);
  return i < n ? i : n - 1;
}

/* The cluster whose allocated finals hold f.  Clusters tile the finals
** from 0 up, so the mean capacity guesses the index (exactly, when the
** clusters are of one size: the common document), and one load of that
** cluster confirms it; idc_cluster_near searches when it does not.  The
** guess is a multiplication by idc_retile's ratio, and a stale ratio costs
** time, never the answer.  Inline: decompress's one memory access. */
static inline uint32_t idc_cluster_by_final (const ids_idc *c, int64_t f) {
  size_t i;
  const idc_cluster *k;
  if (c->ncl == 0 || f < 0) return IDC_NONE;
  i = idc_guess(f, c->per_final, c->ncl);
  k = &c->cl[i];
  if (f >= k->base_final && f - k->base_final < k->capacity)
    return (uint32_t)i;
  return idc_cluster_near(c, f, i);
}

/* appends gens start..start+count-1, merging with an adjacent last run;
** inline, since a deserialized document appends all of its runs */
static inline int idc_push_run (ids_idc *c, int64_t start, int64_t count) {
  int64_t (*last)[2] = c->nruns ? &c->runs[c->nruns - 1] : NULL;
  if (last && (*last)[0] + (*last)[1] == start) {
    (*last)[1] += count;
    return 0;
  }
  if (c->nruns == c->runcap && idc_reserve_runs(c, 1)) return -1;
  c->runs[c->nruns][0] = start;
  c->runs[c->nruns][1] = count;
  c->nruns++;
  return 0;
}

#endif
