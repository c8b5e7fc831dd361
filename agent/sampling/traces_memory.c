/* traces_memory: what a trace table holds in memory, for the metrics (out_metrics.h). */
#include "traces.h"
#include "traces_table.h"

void traces_memory(const trace_table *t, uint64_t *reserved, uint64_t *used) {
    *reserved = (uint64_t)t->record_capacity * sizeof(trace_record) + t->lookup_words * sizeof(uint64_t) +
                t->word_capacity * sizeof(uint64_t);
    *used = (uint64_t)traces_records_taken(t) * sizeof(trace_record) +
            atomic_load(&((trace_table *)t)->words_used) * sizeof(uint64_t);
}
