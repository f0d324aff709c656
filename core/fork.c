/*
** fork.c: counts the forks this process has seen.  Generators and the
** entropy pool remember the count they were made under; a different count
** is how they notice that they now run in a child.
*/
#include <pthread.h>

#include "internal.h"

_Atomic unsigned ids__forks;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void inchild (void) { ids__forks++; }
static void watch (void) { pthread_atfork(NULL, NULL, inchild); }

unsigned ids__forkgen (void) {
  pthread_once(&once, watch);
  return ids__forks;
}
