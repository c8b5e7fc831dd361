#include "pb_strings.h"

#include "array_grow.h"

#include <stdlib.h>

int64_t pb_strings_add(pb_strings *t, const char *s) {
    if (array_grow((void **)&t->strings, sizeof(char *), t->count + 1, &t->capacity)) return -1;
    t->strings[t->count] = (char *)s;
    return (int64_t)t->count++;
}

void pb_strings_free(pb_strings *t) {
    free(t->strings);
    t->strings = NULL;
    t->count = t->capacity = 0;
}
