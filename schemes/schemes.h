/*
** schemes.h: the built-in scheme descriptors, for builtin.c.
*/
#ifndef IDS_SCHEMES_H
#define IDS_SCHEMES_H

#include "idscheme.h"
#include "codec/codecs.h"

extern const ids_scheme ids_fluid;
int ids_fluid_prepare (void);

#endif
