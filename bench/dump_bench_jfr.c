#include "dump_bench_jfr.h"

#include "jfr_chunk.h"
#include "jfr_event.h"
#include "jfr_pools.h"
#include "jvm.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SAMPLE_SPACING_TICKS 1000000ULL   /* 1 ms apart, as at interval=1ms on one thread */
#define FLUSH_BYTES (256 * 1024)          /* as the agent's writer */

/* The synthetic stand-in for JVMTI: a method, its class and a two-entry line table. */
int jvm_method_describe(jmethodID method, jvm_method_info *out) {
    uint64_t v = (uint64_t)(uintptr_t)method - 1;
    memset(out, 0, sizeof(*out));
    snprintf(out->class_name, sizeof(out->class_name), "com/example/module%llu/Service%llu",
             (unsigned long long)(v % DUMP_BENCH_MODULES), (unsigned long long)v);
    snprintf(out->name, sizeof(out->name), "handle%llu", (unsigned long long)(v % DUMP_BENCH_HANDLERS));
    snprintf(out->descriptor, sizeof(out->descriptor), "()V");
    out->modifiers = out->class_modifiers = 1;   /* public */
    out->lines = malloc(2 * sizeof(*out->lines));
    if (!out->lines) return -1;
    out->lines[0] = (struct jvm_line){0, 10 + (int32_t)(v % 100)};
    out->lines[1] = (struct jvm_line){8, 11 + (int32_t)(v % 100)};
    out->line_count = 2;
    return 0;
}

/* The pools name only non-Java frames through frame_names; its JVMTI path is not reached here. */
int jvm_method_name(jmethodID method, names_style style, char *buf, size_t len) {
    (void)method, (void)style, (void)buf, (void)len;
    return -1;
}

static uint64_t clock_ns(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int flush(int fd, jfr_buf *b, uint64_t *written) {
    if (b->failed || (b->len && write(fd, b->data, b->len) != (ssize_t)b->len)) return -1;
    *written += b->len;
    jfr_buf_clear(b);
    return 0;
}

int dump_bench_jfr(const char *path, trace_table *table, const uint32_t *ids, const uint32_t *tids, uint64_t count) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return -1;
    jfr_pools pools;
    jfr_pools_init(&pools, table, NULL, false);
    jfr_buf b;
    jfr_buf_init(&b);
    uint64_t start = clock_ns(CLOCK_MONOTONIC), written = 0;
    jfr_chunk_header h = {.start_nanos = clock_ns(CLOCK_REALTIME), .start_ticks = start,
                          .ticks_per_second = JFR_TICKS_PER_SECOND};
    uint8_t header[JFR_HEADER_SIZE];
    jfr_chunk_header_encode(&h, header);
    jfr_buf_put_bytes(&b, header, sizeof(header));
    int rc = 0;
    for (uint64_t i = 0; i < count && rc == 0; i++) {
        jfr_event_execution_sample(&b, start + i * SAMPLE_SPACING_TICKS, jfr_pools_thread_key(&pools, tids[i]),
                                   jfr_pools_trace_key(&pools, ids[i]), 0);
        jfr_pools_note(&pools, ids[i], tids[i]);
        if (b.len >= FLUSH_BYTES) rc = flush(fd, &b, &written);
    }
    uint64_t end = start + count * SAMPLE_SPACING_TICKS;
    if (rc == 0 && jfr_pools_end_chunk(&pools, &b, end, written, &h)) rc = -1;
    if (rc == 0) rc = flush(fd, &b, &written);
    h.size = written;
    h.duration_nanos = end - start;
    h.finished = true;
    jfr_chunk_header_encode(&h, header);
    if (rc == 0 && pwrite(fd, header, sizeof(header), 0) != (ssize_t)sizeof(header)) rc = -1;
    jfr_buf_free(&b);
    jfr_pools_free(&pools);
    if (close(fd)) rc = -1;
    return rc;
}
