#include "heatmap_timeline.h"

#include "clock_ns.h"
#include "event_clock.h"
#include "log.h"
#include "out_heatmap.h"
#include "periodic.h"
#include "sample_ring_create.h"
#include "u64map.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#define RING_RECORDS (128 * 1024)   /* as the JFR writer's: 2 s of samples at 1 ms on 64 busy threads */
#define CELL_NS ((uint64_t)OUT_HEATMAP_CELL_MS * 1000000)

static sample_ring *ring;            /* kept for the life of the process: handlers may hold it after a session */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static u64map counts;                /* (cell << 32 | trace id) + 1 -> samples */
static bool counting, failed;
static uint64_t start_ticks, start_real;   /* the event clock's ticks (the records'), wall-clock ns */
static periodic drainer;

static void drain(void) {
    sample_record batch[512];
    size_t n;
    pthread_mutex_lock(&lock);
    while ((n = sample_ring_drain(ring, batch, sizeof(batch) / sizeof(batch[0]))) > 0) {
        for (size_t i = 0; i < n; i++) {
            uint64_t t = batch[i].ticks;
            uint64_t cell = t > start_ticks ? event_clock_ns_of_ticks(t - start_ticks) / CELL_NS : 0;
            uint64_t key = (cell << 32 | batch[i].trace_id) + 1, seen = 0;
            u64map_get(&counts, key, &seen);
            if (u64map_put(&counts, key, seen + 1)) failed = true;
        }
    }
    pthread_mutex_unlock(&lock);
}

sample_ring *heatmap_timeline_start(bool keep) {
    if (!ring && !(ring = sample_ring_create(RING_RECORDS))) return NULL;
    sample_record stale[256];
    while (sample_ring_drain(ring, stale, 256) > 0) {}
    if (!keep || !start_ticks) {
        heatmap_timeline_reset();
        start_ticks = event_clock_now();
        start_real = clock_ns(CLOCK_REALTIME);
    }
    if (periodic_start(&drainer, 100 * 1000000L, drain)) return NULL;
    counting = true;
    return ring;
}

void heatmap_timeline_stop(void) {
    if (!counting) return;
    periodic_stop(&drainer);
    drain();
    counting = false;
}

void heatmap_timeline_reset(void) {
    pthread_mutex_lock(&lock);
    u64map_free(&counts);
    u64map_init(&counts);
    failed = false;
    start_ticks = start_real = 0;
    pthread_mutex_unlock(&lock);
}

int heatmap_timeline_build(trace_table *table, const prof_options *o, event_kind event, profile *p) {
    if (counting) drain();
    pthread_mutex_lock(&lock);
    size_t n = 0;
    for (size_t i = 0; i < counts.capacity; i++) n += counts.keys[i] != 0;
    uint32_t *ids = malloc((n ? n : 1) * sizeof(uint32_t));
    uint64_t *cells = malloc((n ? n : 1) * sizeof(uint64_t)), *samples = malloc((n ? n : 1) * sizeof(uint64_t));
    long *stacks = malloc((n ? n : 1) * sizeof(long));
    int rc = ids && cells && samples && stacks ? 0 : -1;
    for (size_t i = 0, k = 0; rc == 0 && i < counts.capacity; i++) {
        if (!counts.keys[i]) continue;
        uint64_t key = counts.keys[i] - 1;
        ids[k] = (uint32_t)key;
        cells[k] = key >> 32;
        samples[k++] = counts.values[i];
    }
    if (rc == 0) rc = named_profile_build_ids(table, o, event, p, ids, n, stacks);
    /* Each counted sample at the middle of its cell: the page places it in that cell at any scale. */
    for (size_t k = 0; rc == 0 && k < n; k++) {
        for (uint64_t s = 0; stacks[k] >= 0 && s < samples[k] && rc == 0; s++)
            rc = profile_add_tick(p, (uint32_t)stacks[k], start_real + cells[k] * CELL_NS + CELL_NS / 2);
    }
    if (failed) log_warn("heatmap: out of memory counting samples by time; the strip misses some");
    pthread_mutex_unlock(&lock);
    p->meta.start_unix_ns = start_real;
    profile_sort_ticks(p);
    free(ids);
    free(cells);
    free(samples);
    free(stacks);
    return rc;
}
