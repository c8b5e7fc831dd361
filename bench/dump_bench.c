/*
 * dump_bench: time and peak memory of turning stored samples into output, on a synthetic profile of
 * 1M samples over 100K distinct stacks of depth 40 (the sizes of a busy service profiled for minutes).
 * Stores the samples through traces_put_id, then names, merges and writes them as the agent's dump does;
 * JFR as the agent's writer does for one chunk holding every sample (dump_bench_jfr).
 * Each format is written by a child process of its own so that its peak memory is its own.
 * Prints "DUMP <format> <seconds> <bytes> <peak MB> <MB added by the write>" lines and "PEAK_RSS_MB <n>".
 * Usage: dump_bench <output dir> [stacks=100000] [samples=1000000]
 */
#include "dump_bench_jfr.h"
#include "out_collapsed.h"
#include "out_html.h"
#include "out_text.h"
#include "profile.h"
#include "traces.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DEPTH 40
#define VOCABULARY 5000
#define THREADS 8

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

static void add_stack(const trace_frame *frames, uint32_t depth, const trace_key *tid, uint64_t samples, uint64_t weight,
                      void *arg) {
    (void)tid;
    build_state *b = arg;
    uint32_t ids[DEPTH];
    for (uint32_t i = 0; i < depth; i++) ids[i] = b->names[frames[depth - 1 - i].id - 1];
    profile_add(b->p, ids, depth, samples, weight);
}

typedef enum { AS_COLLAPSED, AS_TEXT, AS_HTML, AS_JFR } dump_format;
static const char *const format_names[] = {"collapsed", "text", "html", "jfr"};

typedef struct {
    const profile *p;
    trace_table *table;
    const uint32_t *ids, *tids;
    uint64_t samples;
} dump_input;

static double rss_mb(void) {
    long size = 0, pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &size, &pages) != 2) pages = 0;
        fclose(f);
    }
    return pages * (double)sysconf(_SC_PAGESIZE) / (1024 * 1024);
}

static double peak_mb(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024.0;
}

static int write_format(const char *path, const dump_input *in, dump_format format) {
    if (format == AS_JFR) return dump_bench_jfr(path, in->table, in->ids, in->tids, in->samples);
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    out_html_options html = {0};
    int rc = format == AS_TEXT ? out_text_write(in->p, f, 200, 200)
             : format == AS_HTML ? out_html_write(in->p, f, &html)
                                 : out_collapsed_write(in->p, f);
    return fclose(f) || rc ? -1 : 0;
}

/* In a child process: its peak RSS is then this format's alone (on top of the stored profile). */
static int dump_in_child(const char *dir, const char *file, const dump_input *in, dump_format format) {
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, file);
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid == 0) {
        double base = rss_mb(), t0 = now();
        if (write_format(path, in, format)) {
            fprintf(stderr, "writing %s failed\n", path);
            _exit(1);
        }
        double seconds = now() - t0;
        struct stat st;
        if (stat(path, &st) != 0) st.st_size = -1;
        double peak = peak_mb();
        printf("DUMP %s %.3f %lld %.1f %.1f\n", format_names[format], seconds, (long long)st.st_size, peak,
               peak - base);
        fflush(stdout);
        _exit(0);
    }
    int status;
    return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    uint64_t stacks = argc > 2 ? strtoull(argv[2], NULL, 10) : 100000;
    uint64_t samples = argc > 3 ? strtoull(argv[3], NULL, 10) : 1000000;
    trace_table *t = traces_create(stacks * 2, stacks * DEPTH + 1024);
    trace_frame f[DEPTH];
    uint32_t *ids = malloc(samples * sizeof(*ids)), *tids = malloc(samples * sizeof(*tids));
    if (!ids || !tids) return 1;
    double t0 = now();
    for (uint64_t i = 0; i < samples; i++) {
        make_stack(mix(i) % stacks, f);
        tids[i] = 1000 + (uint32_t)(i % THREADS);
        if (traces_put_id(t, f, DEPTH, &(trace_key){0, 0, 0}, 1000000, &ids[i]) != TRACES_STORED) {
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
        snprintf(name, sizeof(name), "com/example/module%d/Service%d.handle%d", v % DUMP_BENCH_MODULES, v,
                 v % DUMP_BENCH_HANDLERS);
        names[v] = profile_intern(&p, name, FTYPE_JAVA);
    }
    build_state b = {&p, names};
    traces_for_each(t, add_stack, &b);
    printf("BUILD %.3f %zu\n", now() - t0, p.stack_count);
    dump_input in = {&p, t, ids, tids, samples};
    if (dump_in_child(dir, "bench.collapsed", &in, AS_COLLAPSED) || dump_in_child(dir, "bench.txt", &in, AS_TEXT) ||
        dump_in_child(dir, "bench.html", &in, AS_HTML) || dump_in_child(dir, "bench.jfr", &in, AS_JFR))
        return 1;
    printf("PEAK_RSS_MB %.1f\n", peak_mb());
    profile_free(&p);
    traces_destroy(t);
    free(ids);
    free(tids);
    return 0;
}
