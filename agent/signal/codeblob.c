/* [signal-safe] Runs in signal handlers: codeblob_find and the readers; codeblob_init.c fills the layout. */
/*
 * codeblob: HotSpot splits its code cache into code heaps (non-method code, profiled and non-profiled
 * methods). Each heap is divided into segments of 2^log2_segment_size bytes; a byte map (the segment map)
 * says for each segment how many segments to go back towards the start of its block (0: the block starts
 * here, 0xFF: unused). A block is a HeapBlock header followed by the CodeBlob. Every read of the map and
 * of blob headers goes through safe_read: the committed part of each heap is registered with safe_read as
 * a region that stays mapped (HotSpot never uncommits code cache memory), so these reads are plain loads
 * bounded by the live committed end, never a fault. A blob freed or being written while we look can give
 * inconsistent fields: every field is checked against the pc (inside the blob's code, sane frame size).
 *
 * What a blob is: JDK 25 says it in CodeBlob::_kind; JDK 17 has no kind field, but every nmethod is
 * created with the name "nmethod" or, a native method's wrapper, "native nmethod" (single strings in
 * libjvm), so the name pointer tells, once its text
 * has been read; the few name pointers seen are cached.
 */
#include "codeblob.h"

#include "safe_read.h"

#include <stdatomic.h>
#include <string.h>

#define SEGMAP_FREE 0xFF
#define MAX_SEGMAP_HOPS 4096
#define MAX_FRAME_WORDS (1 << 16)

codeblob_layout codeblob_vm;

/* JDK 17: name pointer -> what it names, filled in by handlers as names are met. */
#define NAME_CACHE 64
enum { NAME_OTHER = 1, NAME_NMETHOD, NAME_DEOPT };
static _Atomic uintptr_t name_keys[NAME_CACHE];
static _Atomic int name_kinds[NAME_CACHE];

bool codeblob_read_field(uintptr_t addr, unsigned width, int64_t *out) {
    uintptr_t word;
    unsigned shift = (unsigned)(addr & 7) * 8;
    if (width == 0 || width > 8 || (addr & (width - 1)) || !safe_read_word(addr & ~(uintptr_t)7, &word))
        return false;
    if (width == 8) {
        *out = (int64_t)word;
        return true;
    }
    uint64_t v = (word >> shift) & ((1ULL << (width * 8)) - 1);
    uint64_t sign = 1ULL << (width * 8 - 1);
    *out = (int64_t)((v ^ sign) - sign);
    return true;
}

static bool read_at(uintptr_t base, codeblob_field f, int64_t *out) {
    return codeblob_read_field(base + f.offset, f.width, out);
}

bool codeblob_ready(void) { return codeblob_vm.ready; }
uintptr_t codeblob_call_stub_return(void) { return codeblob_vm.call_stub_return; }
int codeblob_interp_method_slot(void) { return codeblob_vm.interp_method_slot; }
int codeblob_interp_sender_sp_slot(void) { return codeblob_vm.interp_sender_sp_slot; }

/* What the name text at 'text' says; 0 when it cannot be read. */
static int read_name_kind(uintptr_t text) {
    char buf[24] = {0};
    for (unsigned b = 0; b < sizeof(buf) - 1; b++) {
        int64_t c;
        if (!codeblob_read_field(text + b, 1, &c)) return 0;
        buf[b] = (char)c;
        if (!c) break;
    }
    /* A native method's wrapper is an nmethod too, named "native nmethod". */
    if (strcmp(buf, "nmethod") == 0 || strcmp(buf, "native nmethod") == 0) return NAME_NMETHOD;
    return strcmp(buf, "DeoptimizationBlob") == 0 ? NAME_DEOPT : NAME_OTHER;
}

/* JDK 17: what a blob's name pointer names. Reads the text once per distinct pointer while the cache has
 * room, every time after. */
static int name_kind(uintptr_t text) {
    unsigned slot = (unsigned)((text >> 3) * 0x9e3779b97f4a7c15ULL >> 58) % NAME_CACHE;
    for (unsigned i = 0; i < NAME_CACHE; i++) {
        unsigned s = (slot + i) % NAME_CACHE;
        uintptr_t key = atomic_load_explicit(&name_keys[s], memory_order_acquire);
        if (key == text) {
            int k = atomic_load_explicit(&name_kinds[s], memory_order_acquire);
            if (k) return k;
            break;
        }
        if (key) continue;
        int k = read_name_kind(text);
        uintptr_t expected = 0;
        if (k && atomic_compare_exchange_strong(&name_keys[s], &expected, text))
            atomic_store_explicit(&name_kinds[s], k, memory_order_release);
        return k;
    }
    return read_name_kind(text);
}

static const codeblob_heap *heap_of(uintptr_t pc) {
    for (int i = 0; i < codeblob_vm.heap_count; i++) {
        const codeblob_heap *h = &codeblob_vm.heaps[i];
        if (pc >= h->low && pc < __atomic_load_n(h->high_at, __ATOMIC_ACQUIRE)) return h;
    }
    return NULL;
}

/* The start of the block holding pc, by the segment map. 0 when the segment is unused. */
static uintptr_t block_of(const codeblob_heap *h, uintptr_t pc) {
    uintptr_t index = (pc - h->low) >> h->log2_segment;
    for (int hops = 0; hops < MAX_SEGMAP_HOPS; hops++) {
        int64_t back;
        if (!codeblob_read_field(h->segmap_low + index, 1, &back)) return 0;
        back &= 0xFF;
        if (back == SEGMAP_FREE) return 0;
        if (back == 0) return h->low + (index << h->log2_segment);
        if ((uintptr_t)back > index) return 0;
        index -= (uintptr_t)back;
    }
    return 0;
}

static blob_kind kind_of(uintptr_t blob, bool *deopt) {
    int64_t v;
    if (codeblob_vm.has_kind) {
        if (!read_at(blob, codeblob_vm.kind, &v)) return BLOB_NONE;
        *deopt = v == codeblob_vm.kind_deopt;
        return v == codeblob_vm.kind_nmethod ? BLOB_NMETHOD : BLOB_STUB;
    }
    if (!read_at(blob, codeblob_vm.name, &v) || !v) return BLOB_NONE;
    int k = name_kind((uintptr_t)v);
    *deopt = k == NAME_DEOPT;
    return k == NAME_NMETHOD ? BLOB_NMETHOD : k ? BLOB_STUB : BLOB_NONE;
}

static bool code_range(uintptr_t blob, uintptr_t *begin, uintptr_t *end) {
    int64_t a, b;
    if (codeblob_vm.has_code_pointers) {
        if (!read_at(blob, codeblob_vm.code_begin, &a) || !read_at(blob, codeblob_vm.code_end, &b)) return false;
        *begin = (uintptr_t)a;
        *end = (uintptr_t)b;
    } else {
        if (!read_at(blob, codeblob_vm.code_offset, &a) || !read_at(blob, codeblob_vm.data_offset, &b)) return false;
        *begin = blob + (uintptr_t)a;
        *end = blob + (uintptr_t)b;
    }
    return true;
}

bool codeblob_find(uintptr_t pc, codeblob *out) {
    memset(out, 0, sizeof(*out));
    if (!codeblob_vm.ready) return false;
    if (pc >= codeblob_vm.interp_low && pc < codeblob_vm.interp_high) {
        out->kind = BLOB_INTERPRETER;
        out->code_begin = codeblob_vm.interp_low;
        out->code_end = codeblob_vm.interp_high;
        return true;
    }
    const codeblob_heap *h = heap_of(pc);
    uintptr_t block = h ? block_of(h, pc) : 0;
    int64_t used, size, complete, words;
    if (!block || !codeblob_read_field(block + codeblob_vm.used_at, codeblob_vm.used_width, &used) || !used)
        return false;
    uintptr_t blob = block + codeblob_vm.heap_block_size;
    out->blob = blob;
    if (!read_at(blob, codeblob_vm.blob_size, &size) || size <= 0 || pc >= blob + (uintptr_t)size ||
        !code_range(blob, &out->code_begin, &out->code_end) || pc < out->code_begin || pc >= out->code_end ||
        out->code_begin < blob || out->code_end > blob + (uintptr_t)size)
        return false;
    if (!read_at(blob, codeblob_vm.frame_size, &words) || words > MAX_FRAME_WORDS ||
        !read_at(blob, codeblob_vm.frame_complete, &complete))
        return false;
    /* Some stubs say -1 (JDK 17's vtable and method handle stubs): no frame of their own. */
    out->frame_bytes = words > 0 ? (uintptr_t)words * sizeof(uintptr_t) : 0;
    out->frame_complete = complete >= 0 ? out->code_begin + (uintptr_t)complete : 0;
    out->kind = kind_of(blob, &out->deopt);
    if (out->kind == BLOB_NMETHOD) {
        int64_t m;
        if (!read_at(blob, codeblob_vm.method, &m) || !m) return false;
        out->method = (uintptr_t)m;
    }
    return out->kind != BLOB_NONE;
}

/* HotSpot (frame::deoptimize) saves the frame's pc at unextended sp + _orig_pc_offset, then patches the
 * return address into the frame to the nmethod's deoptimisation handler: the frame is intact until it is
 * resumed, and is the compiled method it was at the saved pc. The saved pc must be inside the same
 * nmethod's code, or it is not one. */
/* 1: pc is b's deoptimisation handler, 0: it is not, -1: the handler's address cannot be read. */
static int at_deopt_handler(const codeblob *b, uintptr_t pc) {
    int64_t handler, mh_handler = 0;
    if (!read_at(b->blob, codeblob_vm.deopt_handler, &handler)) return -1;
    if (codeblob_vm.deopt_handler_is_offset) handler += (int64_t)b->blob;
    if (codeblob_vm.has_deopt_mh_handler && !read_at(b->blob, codeblob_vm.deopt_mh_handler, &mh_handler)) return -1;
    return pc == (uintptr_t)handler || (mh_handler && pc == (uintptr_t)mh_handler);
}

bool codeblob_may_be_deopt_handler(const codeblob *b, uintptr_t pc) {
    /* Without the saved pc's offset a deoptimised frame is named at the handler's own pc like any other. */
    if (!codeblob_vm.has_orig_pc || b->kind != BLOB_NMETHOD) return false;
    return at_deopt_handler(b, pc) != 0;
}

uintptr_t codeblob_deopt_original_pc(const codeblob *b, uintptr_t pc, uintptr_t usp) {
    if (!codeblob_vm.has_orig_pc || b->kind != BLOB_NMETHOD) return 0;
    int64_t off, orig;
    if (at_deopt_handler(b, pc) != 1) return 0;
    if (!read_at(b->blob, codeblob_vm.orig_pc_offset, &off) || off <= 0 || off > MAX_FRAME_WORDS * 8 ||
        !codeblob_read_field(usp + (uintptr_t)off, sizeof(uintptr_t), &orig) || (uintptr_t)orig < b->code_begin ||
        (uintptr_t)orig >= b->code_end || (uintptr_t)orig == pc)
        return 0;
    return (uintptr_t)orig;
}

bool codeblob_name_at(uintptr_t pc, char *name, size_t len) {
    codeblob b;
    int64_t text;
    if (!codeblob_vm.has_name || len == 0 || !codeblob_find(pc, &b) ||
        !codeblob_read_field(b.blob + codeblob_vm.name.offset, sizeof(void *), &text) || !text)
        return false;
    /* The names are string literals of libjvm; read through safe_read all the same, bounded. */
    size_t n = 0;
    for (; n + 1 < len; n++) {
        int64_t c;
        if (!codeblob_read_field((uintptr_t)text + n, 1, &c)) return false;
        if (!(name[n] = (char)c)) return n > 0;
    }
    name[n] = 0;
    return n > 0;
}

bool codeblob_nmethod_at(uintptr_t pc, uintptr_t *blob, uintptr_t *method) {
    if (!codeblob_vm.ready || (pc >= codeblob_vm.interp_low && pc < codeblob_vm.interp_high)) return false;
    const codeblob_heap *h = heap_of(pc);
    uintptr_t block = h ? block_of(h, pc) : 0;
    int64_t used, m;
    bool deopt = false;
    if (!block || !codeblob_read_field(block + codeblob_vm.used_at, codeblob_vm.used_width, &used) || !used)
        return false;
    *blob = block + codeblob_vm.heap_block_size;
    if (kind_of(*blob, &deopt) != BLOB_NMETHOD || !read_at(*blob, codeblob_vm.method, &m) || !m) return false;
    *method = (uintptr_t)m;
    return true;
}
