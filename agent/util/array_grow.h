/*
 * array_grow: how the growable arrays of the profile model, the writers, the symbol tables and the JFR
 * reader make room: the capacity doubles, so adding n elements one at a time costs O(n) copying. Not for
 * signal handlers (realloc).
 */
#ifndef LIBPROF_ARRAY_GROW_H
#define LIBPROF_ARRAY_GROW_H

#include <stddef.h>

/* Makes *array (elements of 'elem' bytes, room for *capacity of them) hold at least 'need': the capacity
 * doubles, from 16 when there is none, until it does. 0, or -1 when out of memory (the array and the
 * capacity are then as they were). */
int array_grow(void **array, size_t elem, size_t need, size_t *capacity);

#endif
