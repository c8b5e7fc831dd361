/* Runs in signal handlers: async-signal-safe code only (codeblob_find and the readers). */
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
 * created with the name "nmethod" (a single string in libjvm), so the name pointer tells, once its text
 * has been read; the few name pointers seen are cached.
 */
#include "codeblob.h"

#include "safe_read.h"
#include "vmstructs.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#define MAX_HEAPS 8
#define SEGMAP_FREE 0xFF
#define MAX_SEGMAP_HOPS 4096
#define MAX_FRAME_WORDS (1 << 16)

typedef struct {
    uintptr_t low;                 /* VirtualSpace::_low of the heap's memory: segment 0 */
    const uintptr_t *high_at;      /* its committed end, live */
    uintptr_t segmap_low;
    const uintptr_t *segmap_high_at;
    int log2_segment;
} heap;

typedef struct {
    uint64_t offset;
    unsigned width;
} field;

static heap heaps[MAX_HEAPS];
static int heap_count;
static bool ready;

static uint64_t heap_block_size, used_at;
static unsigned used_width;
static field blob_size, frame_complete, frame_size, code_begin, code_end, code_offset, data_offset, kind, name;
static field method;
static bool has_kind, has_code_pointers;
static int64_t kind_nmethod, kind_deopt = -1;
static uintptr_t call_stub_return, interp_low, interp_high;
static int interp_method_slot, interp_sender_sp_slot;

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

static bool read_at(uintptr_t base, field f, int64_t *out) {
    return codeblob_read_field(base + f.offset, f.width, out);
}

static bool need_field(const char *type, const char *name_, field *f, char *err, size_t errlen) {
    if (vmstructs_field(type, name_, &f->offset, &f->width)) return true;
    snprintf(err, errlen, "this JVM does not describe %s::%s", type, name_);
    return false;
}

static bool need_static(const char *type, const char *name_, void **at, char *err, size_t errlen) {
    if (vmstructs_static_address(type, name_, at)) return true;
    snprintf(err, errlen, "this JVM does not describe %s::%s", type, name_);
    return false;
}

static bool need_int(const char *name_, int64_t *v, char *err, size_t errlen) {
    if (vmstructs_int_constant(name_, v)) return true;
    snprintf(err, errlen, "this JVM does not export the constant %s", name_);
    return false;
}

static int init_heaps(char *err, size_t errlen) {
    void *heaps_at;
    field len, data, memory, segmap, log2, vs_low, vs_high;
    if (!need_static("CodeCache", "_heaps", &heaps_at, err, errlen) ||
        !need_field("GrowableArrayBase", "_len", &len, err, errlen) ||
        !need_field("GrowableArray<int>", "_data", &data, err, errlen) ||
        !need_field("CodeHeap", "_memory", &memory, err, errlen) ||
        !need_field("CodeHeap", "_segmap", &segmap, err, errlen) ||
        !need_field("CodeHeap", "_log2_segment_size", &log2, err, errlen) ||
        !need_field("VirtualSpace", "_low", &vs_low, err, errlen) ||
        !need_field("VirtualSpace", "_high", &vs_high, err, errlen))
        return -1;
    /* Outside handlers, on VM data the tables just described: plain loads. */
    const char *array = *(const char *const *)heaps_at;
    if (!array) return snprintf(err, errlen, "CodeCache::_heaps is not set up yet"), -1;
    int n = *(const int *)(array + len.offset);
    const char *const *elements = *(const char *const *const *)(array + data.offset);
    if (n <= 0 || n > MAX_HEAPS || !elements)
        return snprintf(err, errlen, "CodeCache::_heaps holds %d code heaps (accepted: 1..%d)", n, MAX_HEAPS), -1;
    for (int i = 0; i < n; i++) {
        const char *h = elements[i];
        heap *out = &heaps[i];
        out->low = *(const uintptr_t *)(h + memory.offset + vs_low.offset);
        out->high_at = (const uintptr_t *)(h + memory.offset + vs_high.offset);
        out->segmap_low = *(const uintptr_t *)(h + segmap.offset + vs_low.offset);
        out->segmap_high_at = (const uintptr_t *)(h + segmap.offset + vs_high.offset);
        out->log2_segment = *(const int *)(h + log2.offset);
        if (!out->low || !out->segmap_low || out->log2_segment < 4 || out->log2_segment > 16)
            return snprintf(err, errlen, "code heap %d does not look initialised (segment size 2^%d)", i,
                            out->log2_segment), -1;
    }
    for (int i = 0; i < n; i++) {
        if (safe_read_add_growing_region(heaps[i].low, heaps[i].high_at) ||
            safe_read_add_growing_region(heaps[i].segmap_low, heaps[i].segmap_high_at))
            return snprintf(err, errlen, "too many memory regions for safe_read"), -1;
    }
    heap_count = n;
    return 0;
}

static int init_blob_layout(char *err, size_t errlen) {
    field header_used;
    if (!vmstructs_type_size("HeapBlock", &heap_block_size) || heap_block_size == 0)
        return snprintf(err, errlen, "this JVM does not describe the type HeapBlock"), -1;
    if (!need_field("HeapBlock::Header", "_used", &header_used, err, errlen) ||
        !need_field("CodeBlob", "_size", &blob_size, err, errlen) ||
        !need_field("CodeBlob", "_frame_complete_offset", &frame_complete, err, errlen) ||
        !need_field("CodeBlob", "_frame_size", &frame_size, err, errlen))
        return -1;
    used_at = header_used.offset;
    used_width = header_used.width;
    /* JDK 17 keeps code bounds as pointers; later JDKs as offsets from the blob. */
    has_code_pointers = vmstructs_field("CodeBlob", "_code_begin", &code_begin.offset, &code_begin.width);
    if (has_code_pointers) {
        if (!need_field("CodeBlob", "_code_end", &code_end, err, errlen)) return -1;
    } else if (!need_field("CodeBlob", "_code_offset", &code_offset, err, errlen) ||
               !need_field("CodeBlob", "_data_offset", &data_offset, err, errlen)) {
        return -1;
    }
    has_kind = vmstructs_field("CodeBlob", "_kind", &kind.offset, &kind.width);
    if (has_kind) {
        if (!need_int("CodeBlobKind::Nmethod", &kind_nmethod, err, errlen)) return -1;
        if (!vmstructs_int_constant("CodeBlobKind::Deoptimization", &kind_deopt)) kind_deopt = -1;
    } else if (!need_field("CodeBlob", "_name", &name, err, errlen)) {
        return -1;
    }
    if (!vmstructs_field("nmethod", "_method", &method.offset, &method.width) &&
        !need_field("CompiledMethod", "_method", &method, err, errlen))
        return -1;
    return 0;
}

static int init_entry_points(char *err, size_t errlen) {
    void *at;
    field stub_buffer, buffer_limit;
    int64_t last_sp, sender_sp;
    if (!need_static("StubRoutines", "_call_stub_return_address", &at, err, errlen)) return -1;
    call_stub_return = *(const uintptr_t *)at;
    if (!need_static("AbstractInterpreter", "_code", &at, err, errlen) ||
        !need_field("StubQueue", "_stub_buffer", &stub_buffer, err, errlen) ||
        !need_field("StubQueue", "_buffer_limit", &buffer_limit, err, errlen))
        return -1;
    const char *queue = *(const char *const *)at;
    if (!queue || !call_stub_return) return snprintf(err, errlen, "the interpreter is not generated yet"), -1;
    interp_low = *(const uintptr_t *)(queue + stub_buffer.offset);
    interp_high = interp_low + (uintptr_t)*(const int *)(queue + buffer_limit.offset);
    /* The slot of the Method* in an interpreted frame is not exported; x86_64's frame layout puts it right
     * below the last-sp slot (frame_x86.hpp: interpreter_frame_method_offset = last_sp_offset - 1), and
     * the walker checks every Method* it reads from there against AsyncGetCallTrace's frames. */
    if (!need_int("frame::interpreter_frame_last_sp_offset", &last_sp, err, errlen) ||
        !need_int("frame::interpreter_frame_sender_sp_offset", &sender_sp, err, errlen))
        return -1;
    interp_method_slot = (int)last_sp - 1;
    interp_sender_sp_slot = (int)sender_sp;
    if (interp_method_slot != -3 || interp_sender_sp_slot != -1)
        return snprintf(err, errlen, "unexpected interpreter frame layout (method slot %d, sender sp slot %d)",
                        interp_method_slot, interp_sender_sp_slot), -1;
    return 0;
}

int codeblob_init(char *err, size_t errlen) {
    if (ready) return 0;
    if (vmstructs_init(err, errlen) || init_blob_layout(err, errlen) || init_entry_points(err, errlen) ||
        init_heaps(err, errlen))
        return -1;
    ready = true;
    return 0;
}

bool codeblob_ready(void) { return ready; }
uintptr_t codeblob_call_stub_return(void) { return call_stub_return; }
int codeblob_interp_method_slot(void) { return interp_method_slot; }
int codeblob_interp_sender_sp_slot(void) { return interp_sender_sp_slot; }

/* What the name text at 'text' says; 0 when it cannot be read. */
static int read_name_kind(uintptr_t text) {
    char buf[24] = {0};
    for (unsigned b = 0; b < sizeof(buf) - 1; b++) {
        int64_t c;
        if (!codeblob_read_field(text + b, 1, &c)) return 0;
        buf[b] = (char)c;
        if (!c) break;
    }
    return strcmp(buf, "nmethod") == 0 ? NAME_NMETHOD : strcmp(buf, "DeoptimizationBlob") == 0 ? NAME_DEOPT : NAME_OTHER;
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

static const heap *heap_of(uintptr_t pc) {
    for (int i = 0; i < heap_count; i++) {
        if (pc >= heaps[i].low && pc < __atomic_load_n(heaps[i].high_at, __ATOMIC_ACQUIRE)) return &heaps[i];
    }
    return NULL;
}

/* The start of the block holding pc, by the segment map. 0 when the segment is unused. */
static uintptr_t block_of(const heap *h, uintptr_t pc) {
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
    if (has_kind) {
        if (!read_at(blob, kind, &v)) return BLOB_NONE;
        *deopt = v == kind_deopt;
        return v == kind_nmethod ? BLOB_NMETHOD : BLOB_STUB;
    }
    if (!read_at(blob, name, &v) || !v) return BLOB_NONE;
    int k = name_kind((uintptr_t)v);
    *deopt = k == NAME_DEOPT;
    return k == NAME_NMETHOD ? BLOB_NMETHOD : k ? BLOB_STUB : BLOB_NONE;
}

static bool code_range(uintptr_t blob, uintptr_t *begin, uintptr_t *end) {
    int64_t a, b;
    if (has_code_pointers) {
        if (!read_at(blob, code_begin, &a) || !read_at(blob, code_end, &b)) return false;
        *begin = (uintptr_t)a;
        *end = (uintptr_t)b;
    } else {
        if (!read_at(blob, code_offset, &a) || !read_at(blob, data_offset, &b)) return false;
        *begin = blob + (uintptr_t)a;
        *end = blob + (uintptr_t)b;
    }
    return true;
}

bool codeblob_find(uintptr_t pc, codeblob *out) {
    memset(out, 0, sizeof(*out));
    if (!ready) return false;
    if (pc >= interp_low && pc < interp_high) {
        out->kind = BLOB_INTERPRETER;
        out->code_begin = interp_low;
        out->code_end = interp_high;
        return true;
    }
    const heap *h = heap_of(pc);
    uintptr_t block = h ? block_of(h, pc) : 0;
    int64_t used, size, complete, words;
    if (!block || !codeblob_read_field(block + used_at, used_width, &used) || !used) return false;
    uintptr_t blob = block + heap_block_size;
    if (!read_at(blob, blob_size, &size) || size <= 0 || pc >= blob + (uintptr_t)size ||
        !code_range(blob, &out->code_begin, &out->code_end) || pc < out->code_begin || pc >= out->code_end ||
        out->code_begin < blob || out->code_end > blob + (uintptr_t)size)
        return false;
    if (!read_at(blob, frame_size, &words) || words > MAX_FRAME_WORDS || !read_at(blob, frame_complete, &complete))
        return false;
    /* Some stubs say -1 (JDK 17's vtable and method handle stubs): no frame of their own. */
    out->frame_bytes = words > 0 ? (uintptr_t)words * sizeof(uintptr_t) : 0;
    out->frame_complete = complete >= 0 ? out->code_begin + (uintptr_t)complete : 0;
    out->kind = kind_of(blob, &out->deopt);
    if (out->kind == BLOB_NMETHOD) {
        int64_t m;
        if (!read_at(blob, method, &m) || !m) return false;
        out->method = (uintptr_t)m;
    }
    return out->kind != BLOB_NONE;
}
