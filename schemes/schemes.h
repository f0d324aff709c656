/*
** schemes.h: the built-in scheme descriptors, for builtin.c.
*/
#ifndef IDS_SCHEMES_H
#define IDS_SCHEMES_H

#include "idscheme.h"
#include "codec/codecs.h"

extern const ids_scheme ids_fluid, ids_flax, ids_snowflake, ids_siq;
int ids_siq_prepare (void);
int ids_fluid_prepare (void);
int ids_flax_prepare (void);
int ids_snowflake_prepare (void);

#endif
