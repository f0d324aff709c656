#include "test.h"
int main (void) { return t_done(); }
