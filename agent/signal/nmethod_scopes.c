/* [signal-safe] Runs in signal handlers: nmethod_scopes_at; nmethod_scopes_init.c fills the layout. */
/*
 * nmethod_scopes: the facts this relies on (HotSpot's code/pcDesc.hpp, scopeDesc.cpp,
 * debugInfoRec.hpp, compressedStream, utilities/unsigned5.hpp):
 *  - the pcs section is an array of PcDesc sorted by pc offset (from the nmethod's code begin), with a
 *    sentinel at each end; the PcDesc describing a pc is the first whose offset is >= the pc's (exact for
 *    return addresses, which are what every caller frame holds; the next safepoint or call for a leaf);
 *  - a scope decode offset of 0 is DebugInformationRecorder::serialized_null: no scope recorded, the
 *    nmethod's own method at its entry;
 *  - a scope starts with three compressed ints: the sender's decode offset (0 for the outermost scope),
 *    the metadata index of its Method* (index i is the (i-1)th word of the metadata section) and its
 *    bci + 1 (InvocationEntryBci is -1);
 *  - a compressed int is UNSIGNED5: a byte below L = 256 - 64 - X ends it; each byte adds (b - X) << 6i,
 *    at most five bytes, where X, the excluded low bytes, is 0 before JDK 20 and 1 since.
 */
#include "nmethod_scopes.h"

#include "codeblob.h"
#include "safe_read.h"

#define WORD sizeof(uintptr_t)
#define MAX_PC_DESCS (1u << 20)

nmethod_scopes_layout nmethod_scopes_vm;

bool nmethod_scopes_ready(void) { return nmethod_scopes_vm.ready; }

static bool field(uintptr_t base, nmethod_field f, int64_t *out) {
    return codeblob_read_field(base + f.offset, f.width, out);
}

/* A byte reader over memory that may be invalid: one safe word read per eight bytes. */
typedef struct {
    uintptr_t word_at, word;
    bool valid;
} byte_reader;

static bool read_byte(byte_reader *r, uintptr_t addr, unsigned *out) {
    uintptr_t at = addr & ~(uintptr_t)(WORD - 1);
    if (!r->valid || r->word_at != at) {
        if (!safe_read_word(at, &r->word)) return false;
        r->word_at = at;
        r->valid = true;
    }
    *out = (unsigned)(r->word >> ((addr - at) * 8)) & 0xFF;
    return true;
}

/* One UNSIGNED5 int at *pos, which moves past it. */
static bool read_int(byte_reader *r, uintptr_t *pos, uint32_t *out) {
    const unsigned x = nmethod_scopes_vm.unsigned5_excluded, low = 256 - 64 - x;
    uint32_t sum = 0;
    for (unsigned i = 0, shift = 0; i < 5; i++, shift += 6) {
        unsigned b;
        if (!read_byte(r, *pos + i, &b) || b < x) return false;
        sum += (uint32_t)(b - x) << shift;
        if (b < x + low || i == 4) {
            *pos += i + 1;
            *out = sum;
            return true;
        }
    }
    return false;
}

typedef struct {
    uintptr_t pcs, pcs_end, scopes, metadata;
} nmethod_sections;

static bool sections_of(uintptr_t blob, nmethod_sections *s) {
    const nmethod_scopes_layout *l = &nmethod_scopes_vm;
    int64_t base = (int64_t)blob, pcs, end, v;
    if (l->immutable_data && (!field(blob, l->immutable, &base) || !base)) return false;
    if (!field(blob, l->pcs_offset, &pcs) || !field(blob, l->pcs_end_offset, &end) || pcs < 0 || end < pcs)
        return false;
    s->pcs = (uintptr_t)base + (uintptr_t)pcs;
    s->pcs_end = (uintptr_t)base + (uintptr_t)end;
    if (l->scopes_data_pointer) {
        if (!field(blob, l->scopes_data, &v)) return false;
        s->scopes = (uintptr_t)v;
    } else {
        if (!field(blob, l->scopes_data, &v) || v < 0) return false;
        s->scopes = (uintptr_t)base + (uintptr_t)v;
    }
    if (l->metadata_in_mutable) {
        int64_t mutable_data, relocations;
        if (!field(blob, l->mutable_data, &mutable_data) || !mutable_data ||
            !field(blob, l->relocation_size, &relocations) || relocations < 0)
            return false;
        s->metadata = (uintptr_t)mutable_data + (uintptr_t)relocations;
    } else {
        if (!field(blob, l->metadata_offset, &v) || v < 0) return false;
        s->metadata = blob + (uintptr_t)v;
    }
    return s->scopes != 0;
}

/* The scope decode offset of the first PcDesc at or after pc_offset; false when none. */
static bool scope_offset_at(const nmethod_sections *s, int64_t pc_offset, int64_t *scope) {
    const nmethod_scopes_layout *l = &nmethod_scopes_vm;
    uintptr_t count = (s->pcs_end - s->pcs) / l->pc_desc_size;
    if (count == 0 || count > MAX_PC_DESCS) return false;
    uintptr_t lo = 0, hi = count;   /* the answer is in [lo, hi]; hi == count: none */
    while (lo < hi) {
        uintptr_t mid = lo + (hi - lo) / 2;
        int64_t at;
        if (!codeblob_read_field(s->pcs + mid * l->pc_desc_size + l->pc_desc_pc, 4, &at)) return false;
        if (at < pc_offset) lo = mid + 1;
        else hi = mid;
    }
    if (lo == count) return false;
    return codeblob_read_field(s->pcs + lo * l->pc_desc_size + l->pc_desc_scope, 4, scope);
}

nmethod_tier nmethod_scopes_tier(uintptr_t blob) {
    int64_t level;
    if (!nmethod_scopes_vm.ready || !field(blob, nmethod_scopes_vm.comp_level, &level)) return NMETHOD_TIER_UNKNOWN;
    return level >= 1 && level <= 3 ? NMETHOD_TIER_C1 : level >= 4 ? NMETHOD_TIER_C2 : NMETHOD_TIER_UNKNOWN;
}

bool nmethod_scopes_compile_id(uintptr_t blob, int64_t *id) {
    return nmethod_scopes_vm.ready && nmethod_scopes_vm.compile_id.width && field(blob, nmethod_scopes_vm.compile_id, id);
}

int nmethod_scopes_at(uintptr_t blob, uintptr_t code_begin, uintptr_t pc, uintptr_t method, nmethod_scope *out,
                      nmethod_tier *tier) {
    nmethod_sections s;
    int64_t decode;
    if (!nmethod_scopes_vm.ready || !sections_of(blob, &s)) return 0;
    *tier = nmethod_scopes_tier(blob);
    if (!scope_offset_at(&s, (int64_t)(pc - code_begin), &decode) || decode < 0) return 0;
    if (decode == 0) {   /* serialized_null: the method itself, at its entry */
        out[0] = (nmethod_scope){method, -1};
        return 1;
    }
    byte_reader r = {0, 0, false};
    int n = 0;
    while (decode > 0 && n < NMETHOD_SCOPES_MAX) {
        uintptr_t pos = s.scopes + (uintptr_t)decode, m;
        uint32_t sender, index, bci;
        if (!read_int(&r, &pos, &sender) || !read_int(&r, &pos, &index) || !read_int(&r, &pos, &bci) ||
            index == 0 || !safe_read_word(s.metadata + (index - 1) * WORD, &m) || !m)
            return 0;
        out[n++] = (nmethod_scope){m, (int32_t)bci - 1};
        /* A sender is written before its callees: its offset is smaller, which also ends any cycle. */
        if (sender != 0 && (int64_t)sender >= decode) return 0;
        decode = (int64_t)sender;
    }
    return decode == 0 ? n : 0;
}
