/*
 * [signal-safe] receiver_class: see receiver_class.h.
 */
#include "receiver_class.h"

#include "codeblob.h"
#include "safe_read.h"

#include <stdatomic.h>

static receiver_class_layout layout;
static _Atomic bool layout_set;

void receiver_class_set_layout(const receiver_class_layout *l) {
    layout = *l;
    atomic_store_explicit(&layout_set, true, memory_order_release);
}

bool receiver_class_ready(void) {
    return atomic_load_explicit(&layout_set, memory_order_acquire);
}

uintptr_t receiver_class_symbol(uintptr_t oop) {
    int64_t word, name;
    if (!receiver_class_ready() || oop < 4096 || oop % 8) return 0;
    if (!codeblob_read_field(oop + layout.klass_offset, layout.compressed ? 4 : 8, &word) || !word) return 0;
    uintptr_t klass = layout.compressed ? layout.narrow_base + ((uintptr_t)(uint32_t)word << layout.narrow_shift)
                                        : (uintptr_t)word;
    if (klass < 4096 || klass % 8 || !codeblob_read_field(klass + layout.klass_name, 8, &name) || name < 4096 ||
        name % 8)
        return 0;
    return (uintptr_t)name;
}

/* Class names are printable: anything else is no (longer a) class name Symbol. */
static bool name_byte(int64_t c) {
    return c > 0x20 && c < 0x7f;
}

size_t receiver_class_text(uintptr_t symbol, char *buf, size_t len) {
    int64_t n, c;
    if (!len || !receiver_class_ready() || !symbol || !codeblob_read_field(symbol + layout.symbol_length, 2, &n))
        return 0;
    n &= 0xffff;
    if (n <= 0 || (size_t)n >= len) return 0;
    for (int64_t i = 0; i < n; i++) {
        if (!codeblob_read_field(symbol + layout.symbol_body + (uintptr_t)i, 1, &c) || !name_byte(c & 0xff)) return 0;
        buf[i] = (char)c;
    }
    buf[n] = 0;
    return (size_t)n;
}
