/*
 * [signal-safe] perf_ring: the ring holds variable-size records one after another, each starting with a
 * perf_event_header whose size covers the whole record. A record may straddle the end of the data area,
 * so every read goes through ring_copy, which splits it in two. Only the newest sample written before the
 * handler began matters (older ones belong to signals already handled or lost), but finding it means
 * walking the records from the tail, since sizes vary.
 */
#include "perf_ring.h"

#include <linux/perf_event.h>
#include <string.h>

static void ring_copy(const uint8_t *data, uint64_t size, uint64_t pos, void *dst, uint64_t len) {
    uint64_t offset = pos & (size - 1);
    uint64_t first = size - offset < len ? size - offset : len;
    memcpy(dst, data + offset, first);
    if (first < len) memcpy((uint8_t *)dst + first, data, len - first);
}

int perf_ring_newest_kernel_frames(const uint8_t *data, uint64_t size, uint64_t tail, uint64_t head,
                                   uintptr_t *out, int max) {
    if (!data || size < sizeof(struct perf_event_header) || (size & (size - 1)) || head < tail ||
        head - tail > size)
        return -1;
    uint64_t newest = UINT64_MAX, newest_size = 0;
    for (uint64_t pos = tail; pos < head;) {
        struct perf_event_header h;
        if (head - pos < sizeof(h)) return -1;
        ring_copy(data, size, pos, &h, sizeof(h));
        if (h.size < sizeof(h) || h.size > head - pos) return -1;
        if (h.type == PERF_RECORD_SAMPLE) {
            newest = pos;
            newest_size = h.size;
        }
        pos += h.size;
    }
    if (newest == UINT64_MAX) return -1;
    uint64_t nr;
    if (newest_size < sizeof(struct perf_event_header) + sizeof(nr)) return -1;
    ring_copy(data, size, newest + sizeof(struct perf_event_header), &nr, sizeof(nr));
    if (nr > (newest_size - sizeof(struct perf_event_header) - sizeof(nr)) / sizeof(uint64_t)) return -1;
    uint64_t pos = newest + sizeof(struct perf_event_header) + sizeof(nr);
    int n = 0;
    for (uint64_t i = 0; i < nr && n < max; i++, pos += sizeof(uint64_t)) {
        uint64_t ip;
        ring_copy(data, size, pos, &ip, sizeof(ip));
        if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
            if (ip == (uint64_t)PERF_CONTEXT_KERNEL) continue;
            break;   /* user (or guest) context: not ours to report */
        }
        out[n++] = (uintptr_t)ip;
    }
    return n;
}

bool perf_ring_period_ended(const uint8_t *data, uint64_t size, uint64_t from, uint64_t to) {
    if (to <= from) return false;
    if (!data || size < sizeof(struct perf_event_header) || (size & (size - 1)) || to - from > size) return true;
    for (uint64_t pos = from; pos < to;) {
        struct perf_event_header h;
        if (to - pos < sizeof(h)) return true;
        ring_copy(data, size, pos, &h, sizeof(h));
        if (h.size < sizeof(h) || h.size > to - pos) return true;
        if (h.type == PERF_RECORD_SAMPLE || h.type == PERF_RECORD_LOST) return true;
        pos += h.size;
    }
    return false;
}
