/*
** schemes.h: the built-in scheme descriptors and the shipped specs, for
** builtin.c.
*/
#ifndef IDS_SCHEMES_H
#define IDS_SCHEMES_H

#include "idscheme.h"
#include "codec/codecs.h"

extern const ids_scheme ids_fluid, ids_flax, ids_snowflake, ids_siq;
extern const ids_scheme ids_kuid64, ids_kuid96;
extern const ids_defspec ids_shipped[];      /* shipped.c */
extern const int ids_nshipped;
uint32_t ids_phash2_atom (const char *name, size_t n);

#endif
