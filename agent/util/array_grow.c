/* array_grow: room for more elements of a growable array (array_grow.h). */
#include "array_grow.h"

#include <stdint.h>
#include <stdlib.h>

#define FIRST_CAPACITY 16

int array_grow(void **array, size_t elem, size_t need, size_t *capacity) {
    if (need <= *capacity) return 0;
    size_t cap = *capacity ? *capacity : FIRST_CAPACITY;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) return -1;
        cap *= 2;
    }
    if (elem && cap > SIZE_MAX / elem) return -1;
    void *grown = realloc(*array, cap * elem);
    if (!grown) return -1;
    *array = grown;
    *capacity = cap;
    return 0;
}
