/*
 * html_asprof_frames: see the header for the layout. Names are numbered in order of first use in a preorder
 * walk (the same walk writes the frames), so the two passes agree; prefixes are counted in UTF-16 units, as
 * the Java reader counts a string's characters, and end on a character boundary.
 */
#include "html_asprof_frames.h"

#include <stdlib.h>
#include <string.h>

#define MAX_SHARED_PREFIX 95

static int asprof_type(frame_type t) {
    switch (t) {
    case FTYPE_INTERPRETED: return 0;
    case FTYPE_JAVA:
    case FTYPE_JIT: return 1;
    case FTYPE_INLINED:
    case FTYPE_CLASS: return 2;   /* async-profiler's type for an allocated object's or a lock's class */
    case FTYPE_KERNEL: return 5;
    case FTYPE_C1: return 6;
    case FTYPE_NATIVE:
    case FTYPE_MARKER:
    case FTYPE_THREAD: break;
    }
    return 3;
}

/* The length in bytes of a UTF-8 character from its first byte (a stray continuation byte counts alone). */
static size_t char_bytes(unsigned char lead) {
    return lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
}

/* The bytes of the longest common prefix of a and b made of whole characters and at most 'max' UTF-16 units
 * long; *units its length in them. */
static size_t shared_prefix(const char *a, const char *b, int max, int *units) {
    size_t n = 0;
    int count = 0;
    while (a[n]) {
        size_t len = char_bytes((unsigned char)a[n]);
        for (size_t i = 1; i < len; i++)
            if (!a[n + i]) len = i;   /* a name cut inside a character */
        int width = len == 4 ? 2 : 1;   /* a 4-byte character is a surrogate pair in UTF-16 */
        if (count + width > max || strncmp(a + n, b + n, len) != 0) break;
        n += len;
        count += width;
    }
    *units = count;
    return n;
}

/* The rest of a name, quoted for the reader: \ and ' escaped; line ends, which would end the line, and "</",
 * which could end the script element, changed. */
static void put_rest(FILE *out, const char *s) {
    for (; *s; s++) {
        if (*s == '\\' || *s == '\'') fputc('\\', out);
        if (*s == '\n' || *s == '\r') fputc(' ', out);
        else fputc(*s, out);
        if (*s == '<' && s[1] == '/') fputs("\\", out);
    }
}

typedef struct {
    uint32_t node;
    int level;
    uint64_t x;
} pending;

int html_asprof_frames_write(const calltree *t, const profile *p, uint64_t min_total, FILE *out) {
    size_t names = p->name_count ? p->name_count : 1;
    uint32_t *index = malloc(names * sizeof(uint32_t)), *order = malloc(names * sizeof(uint32_t));
    pending *todo = malloc(((size_t)t->count + 1) * sizeof(pending));
    int rc = -1;
    if (!index || !order || !todo) goto done;
    memset(index, 0, names * sizeof(uint32_t));   /* 0: not yet numbered ('all' is 0) */
    uint32_t used = 0;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1) {
            fputs("<script type=\"text/x-async-profiler-frames\">\nconst cpool = [\n'all'", out);
            const char *prev = "";
            for (uint32_t i = 0; i < used; i++) {
                const char *name = p->names[order[i]];
                int units;
                size_t bytes = shared_prefix(prev, name, MAX_SHARED_PREFIX, &units);
                fprintf(out, ",\n'%c", ' ' + units);
                put_rest(out, name + bytes);
                fputc('\'', out);
                prev = name;
            }
            fprintf(out, "\n];\n\nf(3,0,0,%llu)\n", (unsigned long long)t->nodes[0].total);
        }
        size_t top = 0;
        uint64_t last_x = 0;
        todo[top++] = (pending){0, 0, 0};
        while (top) {
            pending at = todo[--top];
            const calltree_node *n = &t->nodes[at.node];
            if (at.node != 0) {
                if (!index[n->name]) {
                    order[used] = n->name;
                    index[n->name] = ++used;
                }
                if (pass == 1)
                    fprintf(out, "f(%u,%d,%llu,%llu)\n", index[n->name] << 3 | (uint32_t)asprof_type(p->types[n->name]),
                            at.level, (unsigned long long)(at.x - last_x), (unsigned long long)n->total);
                last_x = at.x;
            }
            /* Children go on the stack last first, so the first is written first; each starts where the
             * ones before it end. */
            size_t first = top;
            uint64_t x = at.x;
            for (uint32_t c = n->first_child; c != CALLTREE_NONE; c = t->nodes[c].next_sibling) {
                if (!t->nodes[c].total || t->nodes[c].total < min_total) continue;
                todo[top++] = (pending){c, at.level + 1, x};
                x += t->nodes[c].total;
            }
            for (size_t i = first, j = top - 1; i < j && top > first; i++, j--) {
                pending swap = todo[i];
                todo[i] = todo[j];
                todo[j] = swap;
            }
        }
    }
    fputs("\n</script>\n", out);
    rc = 0;
done:
    free(index);
    free(order);
    free(todo);
    return rc;
}
