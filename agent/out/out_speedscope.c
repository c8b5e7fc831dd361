#include "out_speedscope.h"

#include "completeness.h"
#include "json_out.h"
#include "profile_threads.h"

#include <string.h>

/* speedscope's unit names for ours; anything else is a plain count. */
static const char *unit_of(const profile *p) {
    if (!p->meta.total && strcmp(p->meta.units, "ns") != 0) return "none";
    if (strcmp(p->meta.units, "ns") == 0 || !p->meta.units[0]) return "nanoseconds";
    if (strcmp(p->meta.units, "bytes") == 0) return "bytes";
    return "none";
}

/* The weight of a stack: CPU time (or bytes) when the profile has it, else samples. */
static uint64_t weight_of(const profile *p, const profile_stack *s) {
    return strcmp(unit_of(p), "none") == 0 ? profile_value(p, s) : s->weight;
}

static void write_thread_profile(const profile *p, const profile_threads *t, uint32_t group, FILE *out) {
    uint64_t total = 0;
    for (size_t i = 0; i < p->stack_count; i++)
        if (t->of_stack[i] == group) total += weight_of(p, &p->stacks[i]);
    fputs("{\"type\":\"sampled\",\"name\":", out);
    json_out_string(out, profile_threads_name(p, t, group));
    fprintf(out, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%llu,\n\"samples\":[", unit_of(p),
            (unsigned long long)total);
    bool first = true;
    for (size_t i = 0; i < p->stack_count; i++) {
        const profile_stack *s = &p->stacks[i];
        if (t->of_stack[i] != group || !weight_of(p, s)) continue;
        fputs(first ? "[" : ",\n[", out);
        first = false;
        for (uint32_t f = profile_threads_first_frame(p, s); f < s->depth; f++)
            fprintf(out, "%s%u", f > profile_threads_first_frame(p, s) ? "," : "", s->frames[f]);
        fputc(']', out);
    }
    fputs("],\n\"weights\":[", out);
    first = true;
    for (size_t i = 0; i < p->stack_count; i++) {
        const profile_stack *s = &p->stacks[i];
        if (t->of_stack[i] != group || !weight_of(p, s)) continue;
        fprintf(out, "%s%llu", first ? "" : ",", (unsigned long long)weight_of(p, s));
        first = false;
    }
    fputs("]}", out);
}

int out_speedscope_write(const profile *p, FILE *out) {
    profile_threads t;
    if (profile_threads_build(p, &t)) return -1;
    char completeness[1024], name[1400];
    completeness_summary(p, completeness, sizeof(completeness));
    snprintf(name, sizeof(name), "%s (%s)", p->meta.title[0] ? p->meta.title : "libprof", completeness);
    fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"exporter\":\"libprof\",\"name\":", out);
    json_out_string(out, name);
    fputs(",\"activeProfileIndex\":0,\n\"libprof\":{\"completeness\":", out);
    json_out_string(out, completeness);
    fprintf(out, ",\"dropped\":%llu,\"failed\":%llu,\"event\":", (unsigned long long)completeness_dropped(p),
            (unsigned long long)completeness_failed(p));
    json_out_string(out, p->meta.event);
    fputs(",\"warning\":", out);
    json_out_string(out, p->meta.warning);
    fputs("},\n\"shared\":{\"frames\":[", out);
    for (uint32_t i = 0; i < p->name_count; i++) {
        fputs(i ? ",\n{\"name\":" : "{\"name\":", out);
        json_out_string(out, p->names[i]);
        /* The function's file and first line: speedscope tells frames apart by name, file and line, so a
         * per-line frame would split one method into several. */
        profile_source src = profile_source_of(p, i);
        if (src.file[0]) {
            fputs(",\"file\":", out);
            json_out_string(out, src.file);
        }
        if (src.start_line > 0) fprintf(out, ",\"line\":%d", src.start_line);
        fputc('}', out);
    }
    fputs("]},\n\"profiles\":[", out);
    for (uint32_t g = 0; g < t.count; g++) {
        if (g) fputs(",\n", out);
        write_thread_profile(p, &t, g, out);
    }
    fputs("]}\n", out);
    profile_threads_free(&t);
    return ferror(out) ? -1 : 0;
}
