/*
 * The JFR part of dump_bench: the work the agent's JFR writer does for a chunk holding every stored
 * sample (one jdk.ExecutionSample per sample, then the constant pools of every stack, method, class,
 * symbol and thread they refer to, the metadata and the completed header), through the writer's own
 * modules. Java methods are described by a synthetic source instead of JVMTI (there is no JVM here).
 */
#ifndef LIBPROF_DUMP_BENCH_JFR_H
#define LIBPROF_DUMP_BENCH_JFR_H

#include "traces.h"

#include <stdint.h>

/* Frame ids of the synthetic profile are 1 + an index into this naming: "com/example/module<i % 17>/
 * Service<i>.handle<i % 5>", as dump_bench's other formats name them. */
#define DUMP_BENCH_MODULES 17
#define DUMP_BENCH_HANDLERS 5

/* Writes 'count' samples (stack ids[i] of 'table', thread tids[i]) as one chunk to 'path'. 0 or -1. */
int dump_bench_jfr(const char *path, trace_table *table, const uint32_t *ids, const uint32_t *tids, uint64_t count);

#endif
