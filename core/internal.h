/*
** internal.h: what core files share that is no part of the public API.
*/
#ifndef IDS_INTERNAL_H
#define IDS_INTERNAL_H

#include "idscheme.h"

/* Forks seen by this process: bumped in the child (pthread_atfork).  A
** generation mismatch is how generators and the pool notice a fork. */
extern _Atomic unsigned ids__forks;

#endif
