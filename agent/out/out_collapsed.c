#include "out_collapsed.h"

#include "completeness.h"
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
    /* Samples dropped before they had a stack: one marker stack per reason, so that the file says how
     * complete it is in the only form every collapsed-stack reader accepts (flamegraph.pl and others take
     * no comment lines). Failed walks are already marker frames in their stacks. */
    /* With 'total' the weight of a dropped sample is unknown: the mean weight of the stored ones stands in. */
    uint64_t mean = p->total_samples ? p->total_weight / p->total_samples : 0;
    for (int i = 0; i < p->meta.drop_count; i++) {
        uint64_t n = p->meta.drops[i].count;
        if (p->meta.total) n *= mean;
        if (!n) continue;   /* collapsed readers refuse a zero count (no stored sample gives 'total' no mean) */
        char frame[128];
        completeness_drop_frame(p->meta.drops[i].name, frame, sizeof(frame));
        fprintf(out, "%s %llu\n", frame, (unsigned long long)n);
    }
    return ferror(out) ? -1 : 0;
}
