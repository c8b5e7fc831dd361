/* traces_memory: what a trace table holds in memory, for the metrics (out_metrics.h). */
#include "traces.h"
#include "traces_table.h"

void traces_memory(const trace_table *t, uint64_t *reserved, uint64_t *used) {
    *reserved = t->slots_bytes + t->word_capacity * sizeof(uint64_t);
    *used = atomic_load(&t->slots_used) * sizeof(trace_slot) + atomic_load(&t->words_used) * sizeof(uint64_t);
}
