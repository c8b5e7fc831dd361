#include "out_collapsed.h"

#include "names.h"

int out_collapsed_write(const profile *p, FILE *out) {
    for (size_t i = 0; i < p->stack_count; i++) {
        const profile_stack *s = &p->stacks[i];
        uint64_t value = profile_value(p, s);
        if (value == 0) continue;
        for (uint32_t f = 0; f < s->depth; f++) {
            if (f) fputc(';', out);
            /* ';' separates frames: a name holding one would split into two. */
            names_fputs_escaped(p->names[s->frames[f]], ";", out);
        }
        fprintf(out, " %llu\n", (unsigned long long)value);
    }
    return ferror(out) ? -1 : 0;
}
