/* traces_memory: what a trace table holds in memory, for the metrics (out_metrics.h). */
#include "traces.h"
#include "traces_table.h"

void traces_memory(const trace_table *t, uint64_t *reserved, uint64_t *used) {
    *reserved = t->slots_bytes + t->frame_capacity * sizeof(trace_frame);
    *used = atomic_load(&t->slots_used) * sizeof(trace_slot) + atomic_load(&t->frames_used) * sizeof(trace_frame);
}
