/* [signal-safe] code_bytes: reading generated machine code (code_bytes.h). */
#include "code_bytes.h"

#include "codeblob.h"

#include <string.h>

bool code_bytes_read(uintptr_t at, uint8_t *buf, unsigned n) {
    uintptr_t word_at = 0, word = 0;
    for (unsigned i = 0; i < n; i++) {
        uintptr_t a = at + i;
        if ((a & ~(uintptr_t)7) != word_at || !word_at) {
            int64_t v;
            word_at = a & ~(uintptr_t)7;
            if (!codeblob_read_field(word_at, sizeof(uintptr_t), &v)) return false;
            word = (uintptr_t)v;
        }
        buf[i] = (uint8_t)(word >> ((a & 7) * 8));
    }
    return true;
}

bool code_bytes_are(uintptr_t at, const uint8_t *want, unsigned n) {
    uint8_t got[16];
    return n <= sizeof(got) && code_bytes_read(at, got, n) && memcmp(got, want, n) == 0;
}

int32_t code_bytes_i32(const uint8_t *p) {
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

uintptr_t code_bytes_find_unique(uintptr_t from, uintptr_t to, const uint8_t *want, unsigned n) {
    uintptr_t found = 0;
    if (to - from > CODE_BYTES_MAX_SCAN) to = from + CODE_BYTES_MAX_SCAN;
    for (uintptr_t at = from; at + n <= to; at++) {
        if (!code_bytes_are(at, want, n)) continue;
        if (found) return 0;
        found = at;
    }
    return found;
}
