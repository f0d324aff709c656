/*
** pg_idscheme.h: the PostgreSQL extension's rooms, each a file: module.c
** (settings, errors, a scheme by name), generate.c (a generator per
** scheme per backend), read.c (time, fields, encodings, key ranges),
** inspect.c (which scheme wrote this text), define.c (schemes as rows of
** idscheme_defined).  PostgreSQL's headers come first (postgres.h), then
** the library's.
*/
#ifndef PG_IDSCHEME_H
#define PG_IDSCHEME_H

#include "postgres.h"
#include "fmgr.h"

#include "idscheme.h"

/* ------------------------------------------------------------- module */

/* Settings (GUCs, docs/POSTGRESQL.md): generators made after a change
** take the new values; pg_settings_gen counts the changes. */
extern char *pg_ids_slots;          /* idscheme.slots: the slot store */
extern char *pg_ids_namespace;      /* idscheme.slot_namespace */
extern int pg_ids_policy;           /* idscheme.policy: IDS_POLICY_* */
extern int pg_ids_node;             /* idscheme.node: -1, or by hand */
extern int pg_ids_max_wait_ms;      /* idscheme.max_wait_ms */
extern int pg_ids_slot_ttl_ms;      /* idscheme.slot_ttl_ms: 0, the store's */
extern unsigned pg_ids_settings_gen;

/* Waits (docs/POSTGRESQL.md, "Waits"): a call that may wait begins with
** pg_ids_wait_begin, which sets its bound (the smallest of
** idscheme.max_wait_ms, statement_timeout and lock_timeout); the library
** asks the module's interrupt check during every wait.  A call that
** returns IDS_EINTR goes to pg_ids_wait_interrupted: it raises the
** pending cancel or termination (PostgreSQL's own error, the wait named
** in its context) or the bound's error, and returns when the interrupt
** was served without one (the caller calls again). */
void pg_ids_wait_begin (void);
void pg_ids_wait_end (void);
void pg_ids_wait_interrupted (const ids_error *e);

/* Raises e as a PostgreSQL error of the SQLSTATE its code maps to
** (einval: the one for IDS_EINVAL, which depends on what was malformed). */
pg_attribute_noreturn()
void pg_ids_raise (const ids_error *e, int einval);

/* The scheme a text argument names: a shipped one (with its default
** parameters), an alias that one scheme answers to, or a row of
** idscheme_defined.  Cached in fcinfo's flinfo for argument `arg`:
** calls in one statement look it up once. */
const ids_scheme *pg_ids_scheme (FunctionCallInfo fcinfo, int arg);
/* Marks fcinfo's call site as an IMMUTABLE variant's (idscheme_*_shipped):
** its pg_ids_scheme finds shipped schemes only, by name or by an alias of
** shipped schemes, whatever idscheme_defined holds. */
void pg_ids_shipped_only (FunctionCallInfo fcinfo);

/* The schemes a name answers to (a scheme's own, a defined row's, else
** an alias's: "uuid" is every UUID version), at most max into out: their
** count. */
size_t pg_ids_answering (const char *name, const ids_scheme **out,
                         size_t max);

/* An encoding argument of s: NULL for a NULL argument, an argument the
** call does not have, or arg -1 (then the scheme's default or detection). */
const ids_codec *pg_ids_codec (FunctionCallInfo fcinfo, int arg,
                               const ids_scheme *s);

/* ----------------------------------------------------------- generate */

/* DISCARD ALL or pg_advisory_unlock_all() is about to release the nodes'
** locks: every generator of a node given by hand waits until the clock has
** passed its last ID. */
void pg_ids_nodes_retire (void);

/* ------------------------------------------------------------- define */

/* The scheme defined by idscheme_defined's row of that name (defining it
** in this backend at first use), or NULL if there is none. */
const ids_scheme *pg_ids_defined (const char *name);
/* Whether s was defined from a row (not shipped). */
bool pg_ids_is_defined (const ids_scheme *s);
/* A count that changes when idscheme_defined may have (a relcache
** invalidation of the table): a cached defined scheme is looked up again. */
unsigned pg_ids_defgen (void);
/* Defines every row not yet defined here (for inspect and the list). */
void pg_ids_define_all (void);

/* --------------------------------------------------------------- read */

/* v's fields as a jsonb object (qualifiers by name, fields over 64 bits
** as hex text). */
Datum pg_ids_fields_jsonb (const ids_scheme *s, const ids_value *v);
/* v's time as a timestamptz into *out: 1, 0 if it has none, -1 if it
** lies outside timestamptz's range. */
int pg_ids_time (const ids_scheme *s, const ids_value *v, Datum *out);

#endif
