/*
 * jfr_rchunk: see jfr_rchunk.h. The constant pools are indexed by scanning every event of the chunk once
 * and reading each checkpoint event (type 1) it meets, instead of following the chain of 'delta' offsets
 * back from the header: the scan needs no loop detection and finds every checkpoint of a chunk. A pool
 * entry is indexed as the file offset of its value; values are decoded only when a sample refers to them.
 */
#include "jfr_rchunk.h"

#include "jfr_value.h"

#include <string.h>

#define EVENT_METADATA 0
#define EVENT_CHECKPOINT 1

int jfr_rchunk_read_header(const uint8_t *data, size_t size, size_t offset, jfr_rheader *h, jfr_error *err) {
    jfr_cursor c = {data, offset, size, err};
    memset(h, 0, sizeof(*h));
    if (jfr_cursor_left(&c) < JFR_RHEADER_SIZE)
        return jfr_cursor_fail(&c, offset, "a chunk header needs %d bytes, only %zu left (truncated file?)", JFR_RHEADER_SIZE,
                        jfr_cursor_left(&c));
    if (memcmp(data + offset, "FLR", 4) != 0)
        return jfr_cursor_fail(&c, offset, "not a JFR chunk: expected the magic bytes 'FLR\\0', found %02x %02x %02x %02x",
                        data[offset], data[offset + 1], data[offset + 2], data[offset + 3]);
    c.pos += 4;
    h->major = (uint16_t)jfr_cursor_be(&c, 2, "major version");
    h->minor = (uint16_t)jfr_cursor_be(&c, 2, "minor version");
    h->size = jfr_cursor_be(&c, 8, "chunk size");
    h->cp_offset = jfr_cursor_be(&c, 8, "constant-pool offset");
    h->meta_offset = jfr_cursor_be(&c, 8, "metadata offset");
    h->start_nanos = jfr_cursor_be(&c, 8, "start time");
    h->duration_nanos = jfr_cursor_be(&c, 8, "duration");
    h->start_ticks = jfr_cursor_be(&c, 8, "start ticks");
    h->ticks_per_second = jfr_cursor_be(&c, 8, "ticks per second");
    if (h->major != 1 && h->major != 2)
        return jfr_cursor_fail(&c, offset + 4, "unsupported JFR version %u.%u (expected 1.x or 2.x)", h->major, h->minor);
    if (h->size < JFR_RHEADER_SIZE || h->size > size - offset)
        return jfr_cursor_fail(&c, offset + 8, "chunk size %llu does not fit: the file has %zu bytes from this chunk on "
                        "(truncated file, or a chunk still being written)", (unsigned long long)h->size, size - offset);
    if (h->meta_offset < JFR_RHEADER_SIZE || h->meta_offset >= h->size)
        return jfr_cursor_fail(&c, offset + 24, "metadata offset %llu is outside the chunk (size %llu)",
                        (unsigned long long)h->meta_offset, (unsigned long long)h->size);
    if (h->ticks_per_second == 0) return jfr_cursor_fail(&c, offset + 56, "ticks per second is 0");
    if (data[offset + 64] != 0)
        return jfr_cursor_fail(&c, offset + 64, "the chunk is still being written (state %u, a finished chunk has 0)",
                        data[offset + 64]);
    return 0;
}

bool jfr_rchunk_unfinished(const uint8_t *data, size_t size, size_t offset) {
    static const uint8_t magic[4] = {'F', 'L', 'R', 0};
    size_t left = offset < size ? size - offset : 0;
    if (left < JFR_RHEADER_SIZE) return memcmp(data + offset, magic, left < 4 ? left : 4) == 0;
    if (memcmp(data + offset, magic, 4) != 0) return false;
    uint64_t chunk_size = 0;
    for (int i = 0; i < 8; i++) chunk_size = chunk_size << 8 | data[offset + 8 + i];
    return data[offset + 64] != 0 || chunk_size > left;
}

/* One checkpoint event: pools of (key, value); each value's offset is indexed in its type's pool. */
static int read_checkpoint(jfr_rchunk *ch, jfr_cursor *c) {
    for (int i = 0; i < 3; i++) jfr_cursor_varint(c, "checkpoint header");  /* start, duration, delta */
    jfr_cursor_u8(c, "checkpoint type");
    uint64_t pools = jfr_cursor_count(c, "checkpoint pool count");
    for (uint64_t p = 0; p < pools && jfr_cursor_ok(c); p++) {
        size_t at = c->pos;
        uint64_t id = jfr_cursor_varint(c, "constant-pool type id");
        uint32_t t = jfr_meta_find_id(&ch->meta, id);
        if (jfr_cursor_ok(c) && t == JFR_NO_TYPE)
            return jfr_cursor_fail(c, at, "constant pool of type id %llu, which the metadata does not declare",
                            (unsigned long long)id);
        uint64_t n = jfr_cursor_count(c, "constant-pool entry count");
        for (uint64_t e = 0; e < n && jfr_cursor_ok(c); e++) {
            uint64_t key = jfr_cursor_varint(c, "constant-pool key");
            size_t value = c->pos;
            if (jfr_value_skip_type(ch, c, t)) return -1;
            /* Key 0 is a real key in some pools (the JDK's FrameType "Interpreted"): the map holds key + 1. */
            if (key != UINT64_MAX && u64map_put(&ch->meta.types[t].pool, key + 1, (uint64_t)value + 1))
                return jfr_cursor_fail(c, value, "out of memory indexing the constant pools");
        }
    }
    if (jfr_cursor_ok(c) && c->pos != c->end)
        return jfr_cursor_fail(c, c->pos, "checkpoint event: %zu bytes left over after its pools (corrupt)", jfr_cursor_left(c));
    return jfr_cursor_ok(c) ? 0 : -1;
}

int jfr_rchunk_next(jfr_rchunk *ch, size_t *pos, jfr_revent *ev) {
    if (*pos == 0) *pos = ch->start + JFR_RHEADER_SIZE;
    if (ch->error->failed) return -1;
    if (*pos >= ch->end) return 0;
    jfr_cursor c = jfr_rchunk_cursor(ch, *pos);
    uint64_t size = jfr_cursor_varint(&c, "event size");
    uint64_t type = jfr_cursor_varint(&c, "event type");
    if (!jfr_cursor_ok(&c)) return -1;
    if (size < c.pos - *pos || size > ch->end - *pos)
        return jfr_cursor_fail(&c, *pos, "event size %llu does not fit (the event's header alone takes %zu bytes, the chunk "
                        "has %zu left)", (unsigned long long)size, c.pos - *pos, ch->end - *pos);
    ev->start = *pos;
    ev->end = *pos + size;
    ev->payload = c.pos;
    ev->type_id = type;
    ev->type = type <= EVENT_CHECKPOINT ? JFR_NO_TYPE : jfr_meta_find_id(&ch->meta, type);
    if (type > EVENT_CHECKPOINT && ev->type == JFR_NO_TYPE)
        return jfr_cursor_fail(&c, *pos, "event of type id %llu, which the metadata does not declare", (unsigned long long)type);
    *pos = ev->end;
    return 1;
}

static int index_pools(jfr_rchunk *ch) {
    size_t pos = 0;
    jfr_revent ev;
    int rc;
    while ((rc = jfr_rchunk_next(ch, &pos, &ev)) == 1) {
        jfr_cursor c = {ch->data, ev.payload, ev.end, ch->error};
        if (ev.type_id == EVENT_CHECKPOINT && read_checkpoint(ch, &c)) return -1;
    }
    return rc;
}

int jfr_rchunk_open(jfr_rchunk *ch, const uint8_t *data, size_t size, size_t offset, jfr_error *err) {
    memset(ch, 0, sizeof(*ch));
    ch->data = data;
    ch->error = err;
    ch->string_type = JFR_NO_TYPE;
    if (jfr_rchunk_read_header(data, size, offset, &ch->header, err)) return -1;
    ch->start = offset;
    ch->end = offset + ch->header.size;
    ch->budget = 64 * (uint64_t)ch->header.size + 1000000;
    jfr_cursor c = jfr_rchunk_cursor(ch, offset + ch->header.meta_offset);
    if (jfr_meta_parse(&ch->meta, &c)) return -1;
    ch->string_type = jfr_meta_find_name(&ch->meta, "java.lang.String");
    return index_pools(ch) < 0 ? -1 : 0;
}

void jfr_rchunk_close(jfr_rchunk *ch) {
    jfr_meta_free(&ch->meta);
}

uint64_t jfr_rchunk_ticks_to_ns(const jfr_rchunk *ch, uint64_t ticks) {
    const jfr_rheader *h = &ch->header;
    /* Ticks before the chunk's start (clock skew between threads) count as its start. */
    uint64_t delta = ticks > h->start_ticks ? ticks - h->start_ticks : 0;
    return h->start_nanos + (uint64_t)((unsigned __int128)delta * 1000000000U / h->ticks_per_second);
}
