/*
 * dump_bench: time and peak memory of turning stored samples into output, on a synthetic profile of
 * 1M samples over 100K distinct stacks of depth 40 (the sizes of a busy service profiled for minutes).
 * Stores the samples through traces_put, then names, merges and writes them as the agent's dump does.
 * Prints "DUMP <format> <seconds> <bytes>" lines and "PEAK_RSS_MB <n>".
 * Usage: dump_bench <output dir> [stacks=100000] [samples=1000000]
 */
#include "out_collapsed.h"
#include "out_html.h"
#include "out_text.h"
#include "profile.h"
#include "traces.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#define DEPTH 40
#define VOCABULARY 5000

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t mix(uint64_t x) {
    x ^= x >> 31;
    x *= 0x9e3779b97f4a7c15ULL;
    return x ^ (x >> 29);
}

/* Stack s: shared root frames (as real programs have), then frames that depend on s. */
static void make_stack(uint64_t s, trace_frame *f) {
    for (int j = 0; j < DEPTH; j++) {
        uint64_t v = j < 10 ? (uint64_t)j : mix(s * 131 + (uint64_t)j) % VOCABULARY;
        f[DEPTH - 1 - j] = (trace_frame){v + 1, 0, FRAME_JAVA};  /* leaf first */
    }
}

typedef struct {
    profile *p;
    uint32_t *names;
} build_state;

static void add_stack(const trace_frame *frames, uint32_t depth, uint32_t tid, uint64_t samples, uint64_t weight,
                      void *arg) {
    (void)tid;
    build_state *b = arg;
    uint32_t ids[DEPTH];
    for (uint32_t i = 0; i < depth; i++) ids[i] = b->names[frames[depth - 1 - i].id - 1];
    profile_add(b->p, ids, depth, samples, weight);
}

typedef enum { AS_COLLAPSED, AS_TEXT, AS_HTML } dump_format;

static int write_file(const char *dir, const char *name, const profile *p, dump_format format) {
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    static const char *const names[] = {"collapsed", "text", "html"};
    out_html_options html = {0};
    double t0 = now();
    int rc = format == AS_TEXT ? out_text_write(p, f, 200, 200)
             : format == AS_HTML ? out_html_write(p, f, &html)
                                 : out_collapsed_write(p, f);
    fclose(f);
    struct stat st;
    stat(path, &st);
    printf("DUMP %s %.3f %lld\n", names[format], now() - t0, (long long)st.st_size);
    return rc;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    uint64_t stacks = argc > 2 ? strtoull(argv[2], NULL, 10) : 100000;
    uint64_t samples = argc > 3 ? strtoull(argv[3], NULL, 10) : 1000000;
    trace_table *t = traces_create(stacks * 2, stacks * DEPTH + 1024);
    trace_frame f[DEPTH];
    double t0 = now();
    for (uint64_t i = 0; i < samples; i++) {
        make_stack(mix(i) % stacks, f);
        if (traces_put(t, f, DEPTH, 0, 1000000) != TRACES_STORED) {
            fprintf(stderr, "storage refused sample %llu\n", (unsigned long long)i);
            return 1;
        }
    }
    printf("STORE %.3f %zu\n", now() - t0, traces_distinct(t));

    t0 = now();
    profile p;
    profile_init(&p);
    uint32_t names[VOCABULARY + 10];
    char name[128];
    for (int v = 0; v < VOCABULARY + 10; v++) {
        snprintf(name, sizeof(name), "com/example/module%d/Service%d.handle%d", v % 17, v, v % 5);
        names[v] = profile_intern(&p, name, FTYPE_JAVA);
    }
    build_state b = {&p, names};
    traces_for_each(t, add_stack, &b);
    printf("BUILD %.3f %zu\n", now() - t0, p.stack_count);
    if (write_file(dir, "bench.collapsed", &p, AS_COLLAPSED) || write_file(dir, "bench.txt", &p, AS_TEXT) ||
        write_file(dir, "bench.html", &p, AS_HTML))
        return 1;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("PEAK_RSS_MB %.1f\n", ru.ru_maxrss / 1024.0);
    profile_free(&p);
    traces_destroy(t);
    return 0;
}
