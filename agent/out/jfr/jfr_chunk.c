#include "jfr_chunk.h"

#include "jfr_types.h"

static void be(uint8_t *p, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; i++) p[i] = (uint8_t)(v >> (8 * (bytes - 1 - i)));
}

void jfr_chunk_header_encode(const jfr_chunk_header *h, uint8_t out[JFR_HEADER_SIZE]) {
    out[0] = 'F', out[1] = 'L', out[2] = 'R', out[3] = 0;
    be(out + 4, 2, 2);   /* major */
    be(out + 6, 0, 2);   /* minor */
    be(out + 8, h->size, 8);
    be(out + 16, h->cp_offset, 8);
    be(out + 24, h->meta_offset, 8);
    be(out + 32, h->start_nanos, 8);
    be(out + 40, h->duration_nanos, 8);
    be(out + 48, h->start_ticks, 8);
    be(out + 56, h->ticks_per_second, 8);
    /* Bytes 64..67: state (0 finished, 255 being written), a pad byte, and flags with bit 0 = compressed
     * integers. JMC reads the four bytes as one feature word, hence 00 00 00 01 once finished. */
    out[64] = h->finished ? 0 : 255;
    out[65] = 0;
    out[66] = 0;
    out[67] = 1;
}

void jfr_chunk_checkpoint_begin(jfr_buf *b, jfr_checkpoint *c, uint64_t ticks) {
    c->at = jfr_buf_event_begin(b, JFR_CHECKPOINT);
    jfr_buf_put_varint(b, ticks);
    jfr_buf_put_varint(b, 0);   /* duration */
    jfr_buf_put_varint(b, 0);   /* delta to the previous checkpoint: this is the only one in its chunk */
    jfr_buf_put_u8(b, 1);       /* type flags: flush */
    c->count_at = b->len;
    jfr_buf_put_varint5(b, 0);
    c->pools = 0;
}

void jfr_chunk_pool_begin(jfr_buf *b, jfr_checkpoint *c, uint64_t type_id) {
    c->pool_at = b->len;
    jfr_buf_put_varint(b, type_id);
    c->pool_count_at = b->len;
    jfr_buf_put_varint5(b, 0);
}

void jfr_chunk_pool_end(jfr_buf *b, jfr_checkpoint *c, uint64_t count) {
    if (count == 0) {
        if (!b->failed) b->len = c->pool_at;
        return;
    }
    jfr_patch_varint5(b, c->pool_count_at, count);
    c->pools++;
}

void jfr_chunk_checkpoint_end(jfr_buf *b, jfr_checkpoint *c) {
    jfr_patch_varint5(b, c->count_at, c->pools);
    jfr_buf_event_end(b, c->at);
}
