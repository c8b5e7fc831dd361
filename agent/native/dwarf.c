/*
 * dwarf: building unwind tables from .eh_frame (the format: the LSB's "Exception Frames" chapter and DWARF 4
 * section 6.4). For every FDE we run its CIE's initial instructions and its own, and emit one row each time
 * the location advances. Rows from all FDEs are then sorted, each FDE's end is marked with an UNWIND_NONE
 * row, and consecutive rows with the same rule are merged, which leaves about two rows per function in
 * typical -O2 code without frame pointers.
 *
 * Every read goes through a cursor bounded by its record, so a corrupt length or pointer ends that record.
 */
#include "dwarf.h"

#include <stdlib.h>
#include <string.h>

enum {
    DW_EH_PE_absptr = 0x00, DW_EH_PE_uleb128 = 0x01, DW_EH_PE_udata2 = 0x02, DW_EH_PE_udata4 = 0x03,
    DW_EH_PE_udata8 = 0x04, DW_EH_PE_sleb128 = 0x09, DW_EH_PE_sdata2 = 0x0a, DW_EH_PE_sdata4 = 0x0b,
    DW_EH_PE_sdata8 = 0x0c, DW_EH_PE_pcrel = 0x10, DW_EH_PE_datarel = 0x30, DW_EH_PE_omit = 0xff,
};

enum {
    DW_CFA_nop = 0x00, DW_CFA_set_loc = 0x01, DW_CFA_advance_loc1 = 0x02, DW_CFA_advance_loc2 = 0x03,
    DW_CFA_advance_loc4 = 0x04, DW_CFA_offset_extended = 0x05, DW_CFA_restore_extended = 0x06,
    DW_CFA_undefined = 0x07, DW_CFA_same_value = 0x08, DW_CFA_register = 0x09,
    DW_CFA_remember_state = 0x0a, DW_CFA_restore_state = 0x0b, DW_CFA_def_cfa = 0x0c,
    DW_CFA_def_cfa_register = 0x0d, DW_CFA_def_cfa_offset = 0x0e, DW_CFA_def_cfa_expression = 0x0f,
    DW_CFA_expression = 0x10, DW_CFA_offset_extended_sf = 0x11, DW_CFA_def_cfa_sf = 0x12,
    DW_CFA_def_cfa_offset_sf = 0x13, DW_CFA_val_offset = 0x14, DW_CFA_val_offset_sf = 0x15,
    DW_CFA_val_expression = 0x16, DW_CFA_GNU_window_save = 0x2d, DW_CFA_GNU_args_size = 0x2e,
    DW_CFA_GNU_negative_offset_extended = 0x2f,
    DW_CFA_advance_loc = 0x40, DW_CFA_offset = 0x80, DW_CFA_restore = 0xc0,
};

/* ---- bounded reading ---- */

typedef struct {
    const uint8_t *p, *end;
    const uint8_t *sec;    /* start of the section, whose link-time address is vaddr */
    uint64_t vaddr;
    uint64_t datarel;      /* base for DW_EH_PE_datarel (the .eh_frame_hdr address) */
    uint64_t *budget;      /* call frame instructions left to run for the whole table (see dwarf_build_frames) */
    bool debug_frame;      /* reading .debug_frame: other CIE ids, absolute CIE pointers and addresses */
    bool bad;
} cursor;

static uint64_t rd(cursor *c, size_t n) {
    if (c->bad || (size_t)(c->end - c->p) < n) {
        c->bad = true;
        return 0;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) v |= (uint64_t)c->p[i] << (8 * i);
    c->p += n;
    return v;
}

static uint64_t uleb(cursor *c) {
    uint64_t v = 0;
    for (unsigned shift = 0; !c->bad; shift += 7) {
        uint8_t b = (uint8_t)rd(c, 1);
        if (shift < 64) v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) break;
    }
    return v;
}

static int64_t sleb(cursor *c) {
    uint64_t v = 0;
    unsigned shift = 0;
    uint8_t b = 0;
    do {
        b = (uint8_t)rd(c, 1);
        if (shift < 64) v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
    } while ((b & 0x80) && !c->bad);
    if (shift < 64 && (b & 0x40)) v |= ~(uint64_t)0 << shift;
    return (int64_t)v;
}

static void skip(cursor *c, uint64_t n) {
    if (c->bad || (uint64_t)(c->end - c->p) < n) c->bad = true;
    else c->p += n;
}

/* A pointer in the given DW_EH_PE encoding. Indirect pointers (0x80) are only used for personality
 * routines, which we skip, so their target is never read. */
static uint64_t encoded(cursor *c, uint8_t enc) {
    if (enc == DW_EH_PE_omit) return 0;
    uint64_t here = c->vaddr + (uint64_t)(c->p - c->sec), v;
    switch (enc & 0x0f) {
    case DW_EH_PE_absptr: case DW_EH_PE_udata8: case DW_EH_PE_sdata8: v = rd(c, 8); break;
    case DW_EH_PE_uleb128: v = uleb(c); break;
    case DW_EH_PE_udata2: v = rd(c, 2); break;
    case DW_EH_PE_sdata2: v = (uint64_t)(int64_t)(int16_t)rd(c, 2); break;
    case DW_EH_PE_udata4: v = rd(c, 4); break;
    case DW_EH_PE_sdata4: v = (uint64_t)(int64_t)(int32_t)rd(c, 4); break;
    case DW_EH_PE_sleb128: v = (uint64_t)sleb(c); break;
    default: c->bad = true; return 0;
    }
    switch (enc & 0x70) {
    case 0: break;
    case DW_EH_PE_pcrel: v += here; break;
    case DW_EH_PE_datarel: v += c->datarel; break;
    default: c->bad = true; break;  /* textrel, funcrel, aligned: not emitted for x86_64 */
    }
    return v;
}

/* ---- CIE ---- */

typedef struct {
    uint64_t code_align;
    int64_t data_align;
    uint64_t ra_reg;
    uint8_t fde_enc;
    bool has_aug_data;
    const uint8_t *insns, *insns_end;
} cie_info;

/* The id field of a CIE: 0 in .eh_frame; all ones (in the record's offset size) in .debug_frame. */
static bool is_cie_id(const cursor *c, uint64_t id, bool is64) {
    if (!c->debug_frame) return id == 0;
    return id == (is64 ? UINT64_MAX : 0xffffffff);
}

/* Opens the record at off: bounds the cursor to it and returns the id field's position (or NULL). */
static const uint8_t *record_open(cursor *c, const uint8_t *sec, size_t size, size_t off, uint64_t *id,
                                  bool *is64) {
    c->p = sec + off;
    c->end = sec + size;
    uint64_t len = rd(c, 4);
    *is64 = len == 0xffffffff;
    if (*is64) len = rd(c, 8);
    if (c->bad || len == 0 || len > (uint64_t)(c->end - c->p)) return NULL;
    c->end = c->p + len;
    const uint8_t *id_pos = c->p;
    *id = rd(c, *is64 ? 8 : 4);
    return c->bad ? NULL : id_pos;
}

static bool parse_cie(cursor base, const uint8_t *sec, size_t size, size_t off, cie_info *cie) {
    cursor c = base;
    uint64_t id;
    bool is64;
    if (!record_open(&c, sec, size, off, &id, &is64) || !is_cie_id(&c, id, is64)) return false;
    uint8_t version = (uint8_t)rd(&c, 1);
    if (version != 1 && version != 3 && version != 4) return false;
    const char *aug = (const char *)c.p;
    const uint8_t *nul = memchr(c.p, 0, (size_t)(c.end - c.p));
    if (!nul) return false;
    c.p = nul + 1;
    if (strcmp(aug, "eh") == 0) skip(&c, 8);  /* an old GCC's pointer to exception data */
    uint8_t address_size = 8;
    if (version == 4) {
        address_size = (uint8_t)rd(&c, 1);
        if ((address_size != 4 && address_size != 8) || rd(&c, 1) != 0) return false;  /* no segments */
    }
    *cie = (cie_info){0};
    cie->code_align = uleb(&c);
    cie->data_align = sleb(&c);
    cie->ra_reg = version == 1 ? rd(&c, 1) : uleb(&c);
    /* .eh_frame: absolute pointers unless 'R' says otherwise. .debug_frame: target addresses of the CIE's
     * address_size (8 before version 4 on x86_64), unless a 'z' augmentation's 'R' says otherwise. */
    cie->fde_enc = address_size == 4 ? DW_EH_PE_udata4 : DW_EH_PE_absptr;
    if (aug[0] == 'z') {
        uint64_t len = uleb(&c);
        if (c.bad || len > (uint64_t)(c.end - c.p)) return false;
        const uint8_t *data_end = c.p + len;
        cie->has_aug_data = true;
        for (const char *a = aug + 1; *a && !c.bad; a++) {
            if (*a == 'R') cie->fde_enc = (uint8_t)rd(&c, 1);
            else if (*a == 'L') rd(&c, 1);
            else if (*a == 'P') encoded(&c, (uint8_t)rd(&c, 1) & 0x7f);
            else if (*a == 'S' || *a == 'B') continue;
            else break;  /* unknown letter: the length lets us skip the rest */
        }
        c.p = data_end;
    } else if (aug[0] != 0 && strcmp(aug, "eh") != 0) {
        return false;  /* unknown augmentation without a length: nothing after it can be located */
    }
    if (c.bad || cie->code_align == 0) return false;
    cie->insns = c.p;
    cie->insns_end = c.end;
    return true;
}

/* ---- running call frame instructions ---- */

enum { RULE_SAME, RULE_UNDEFINED, RULE_OFFSET, RULE_OTHER };

typedef struct {
    uint8_t kind;
    int64_t offset;
} reg_rule;

typedef struct {
    uint64_t cfa_reg;
    int64_t cfa_offset;
    bool cfa_expression;
    reg_rule rbp, ra;
} cfa_state;

#define STATE_STACK 16

typedef struct {
    uint64_t start, end;
} addr_range;

typedef struct {
    unwind_row *rows;
    size_t n, cap;
    size_t fdes;
    bool failed;
    const addr_range *covered;  /* while reading .debug_frame: .eh_frame's extents, disjoint and sorted */
    size_t ncovered;
} row_builder;

/* Whether [start, end) overlaps an extent .eh_frame already describes. */
static bool covered(const row_builder *b, uint64_t start, uint64_t end) {
    size_t lo = 0, hi = b->ncovered;  /* the first extent ending after start */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->covered[mid].end <= start) lo = mid + 1;
        else hi = mid;
    }
    return lo < b->ncovered && b->covered[lo].start < end;
}

static void add_row(row_builder *b, uint64_t pc, uint8_t reg, int64_t cfa_offset, int64_t fp_offset) {
    if (b->failed || pc > UINT32_MAX) return;
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        unwind_row *r = realloc(b->rows, cap * sizeof(*r));
        if (!r) {
            b->failed = true;
            return;
        }
        b->rows = r;
        b->cap = cap;
    }
    b->rows[b->n++] = (unwind_row){(uint32_t)pc, (int32_t)cfa_offset, (int16_t)fp_offset, reg, 0};
}

static void emit_state(row_builder *b, uint64_t pc, const cfa_state *s, size_t fde_first_row) {
    uint8_t reg = UNWIND_UNKNOWN;
    int64_t cfa = 0, fp = UNWIND_FP_UNKNOWN;
    if (s->ra.kind == RULE_UNDEFINED) {
        reg = UNWIND_END;
    } else if (!s->cfa_expression && (s->cfa_reg == UNWIND_RSP || s->cfa_reg == UNWIND_RBP) &&
               s->ra.kind == RULE_OFFSET && s->ra.offset == -8 && s->cfa_offset >= INT32_MIN &&
               s->cfa_offset <= INT32_MAX) {
        reg = (uint8_t)s->cfa_reg;
        cfa = s->cfa_offset;
        if (s->rbp.kind == RULE_SAME || s->rbp.kind == RULE_UNDEFINED) fp = UNWIND_FP_SAME;
        else if (s->rbp.kind == RULE_OFFSET && s->rbp.offset > UNWIND_FP_UNKNOWN && s->rbp.offset <= INT16_MAX)
            fp = s->rbp.offset;
    }
    /* Several instructions at one location (advance by 0): the last state wins. */
    if (b->n > fde_first_row && b->rows[b->n - 1].pc_offset == pc) b->n--;
    add_row(b, pc, reg, cfa, fp);
}

/* An offset factored by the CIE's alignment. Computed in unsigned arithmetic: crafted values may overflow,
 * and must then give a wrong number (caught by the range checks of emit_state), not undefined behaviour. */
static int64_t scaled(uint64_t value, int64_t align) { return (int64_t)(value * (uint64_t)align); }

static reg_rule *rule_for(cfa_state *s, uint64_t reg, uint64_t ra_reg) {
    if (reg == UNWIND_RBP) return &s->rbp;
    if (reg == ra_reg) return &s->ra;
    return NULL;  /* other registers do not matter to a walker that tracks pc, sp and fp */
}

static void set_rule(cfa_state *s, uint64_t reg, uint64_t ra_reg, uint8_t kind, int64_t offset) {
    reg_rule *r = rule_for(s, reg, ra_reg);
    if (r) *r = (reg_rule){kind, offset};
}

/* Runs instructions [c.p, c.end). With rows == NULL (the CIE's initial instructions) locations are not
 * tracked. Returns false when an instruction could not be decoded. */
static bool run_cfa(cursor c, const cie_info *cie, cfa_state *s, const cfa_state *initial, row_builder *b,
                    uint64_t *loc, uint64_t end_loc, size_t fde_first_row) {
    cfa_state stack[STATE_STACK];
    size_t depth = 0;
    uint64_t ra = cie->ra_reg;
    while (c.p < c.end && !c.bad) {
        if (*c.budget == 0) return false;
        (*c.budget)--;
        uint8_t op = (uint8_t)rd(&c, 1);
        uint64_t advance = 0, reg;
        switch (op & 0xc0) {
        case DW_CFA_advance_loc: advance = (op & 0x3f) * cie->code_align; goto advance;
        case DW_CFA_offset:
            set_rule(s, op & 0x3f, ra, RULE_OFFSET, scaled(uleb(&c), cie->data_align));
            continue;
        case DW_CFA_restore:
            reg = op & 0x3f;
            goto restore;
        }
        switch (op) {
        case DW_CFA_nop: break;
        case DW_CFA_set_loc: {
            uint64_t to = encoded(&c, cie->fde_enc);
            if (!b || to < *loc) return false;
            advance = to - *loc;
            goto advance;
        }
        case DW_CFA_advance_loc1: advance = rd(&c, 1) * cie->code_align; goto advance;
        case DW_CFA_advance_loc2: advance = rd(&c, 2) * cie->code_align; goto advance;
        case DW_CFA_advance_loc4: advance = rd(&c, 4) * cie->code_align; goto advance;
        case DW_CFA_offset_extended:
            reg = uleb(&c);
            set_rule(s, reg, ra, RULE_OFFSET, scaled(uleb(&c), cie->data_align));
            break;
        case DW_CFA_offset_extended_sf:
            reg = uleb(&c);
            set_rule(s, reg, ra, RULE_OFFSET, scaled((uint64_t)sleb(&c), cie->data_align));
            break;
        case DW_CFA_GNU_negative_offset_extended:
            reg = uleb(&c);
            set_rule(s, reg, ra, RULE_OFFSET, scaled(0 - uleb(&c), cie->data_align));
            break;
        case DW_CFA_restore_extended: reg = uleb(&c); goto restore;
        case DW_CFA_undefined: set_rule(s, uleb(&c), ra, RULE_UNDEFINED, 0); break;
        case DW_CFA_same_value: set_rule(s, uleb(&c), ra, RULE_SAME, 0); break;
        case DW_CFA_register:
            reg = uleb(&c);
            uleb(&c);
            set_rule(s, reg, ra, RULE_OTHER, 0);
            break;
        case DW_CFA_val_offset: case DW_CFA_val_offset_sf:
            reg = uleb(&c);
            if (op == DW_CFA_val_offset) uleb(&c);
            else sleb(&c);
            set_rule(s, reg, ra, RULE_OTHER, 0);
            break;
        case DW_CFA_expression: case DW_CFA_val_expression:
            reg = uleb(&c);
            skip(&c, uleb(&c));
            set_rule(s, reg, ra, RULE_OTHER, 0);
            break;
        case DW_CFA_remember_state:
            if (depth == STATE_STACK) return false;
            stack[depth++] = *s;
            break;
        case DW_CFA_restore_state: {
            if (depth == 0) return false;
            /* The CFA rule is part of the remembered state too (DWARF 5 clarified this; GCC relies on it). */
            *s = stack[--depth];
            break;
        }
        case DW_CFA_def_cfa:
            s->cfa_reg = uleb(&c);
            s->cfa_offset = (int64_t)uleb(&c);
            s->cfa_expression = false;
            break;
        case DW_CFA_def_cfa_sf:
            s->cfa_reg = uleb(&c);
            s->cfa_offset = scaled((uint64_t)sleb(&c), cie->data_align);
            s->cfa_expression = false;
            break;
        case DW_CFA_def_cfa_register:
            s->cfa_reg = uleb(&c);
            s->cfa_expression = false;
            break;
        case DW_CFA_def_cfa_offset: s->cfa_offset = (int64_t)uleb(&c); break;
        case DW_CFA_def_cfa_offset_sf: s->cfa_offset = scaled((uint64_t)sleb(&c), cie->data_align); break;
        case DW_CFA_def_cfa_expression:
            skip(&c, uleb(&c));
            s->cfa_expression = true;
            break;
        case DW_CFA_GNU_args_size: uleb(&c); break;
        case DW_CFA_GNU_window_save: break;
        default: return false;
        }
        continue;
    restore:
        if (!initial) return false;
        if (reg == UNWIND_RBP) s->rbp = initial->rbp;
        else if (reg == ra) s->ra = initial->ra;
        continue;
    advance:
        if (!b) return false;  /* no locations in a CIE */
        if (*loc < end_loc) emit_state(b, *loc, s, fde_first_row);
        if (advance >= end_loc - *loc) {  /* at or past the FDE's end: the rest cannot apply */
            *loc = end_loc;
            return true;
        }
        *loc += advance;
    }
    return !c.bad;
}

/* ---- FDEs ---- */

typedef struct {
    size_t cie_off;
    bool valid;
    cie_info cie;
    cfa_state initial;
} cie_cache;

static void parse_fde(row_builder *b, cursor base, const uint8_t *sec, size_t size, size_t off,
                      cie_cache *cache) {
    cursor c = base;
    uint64_t id;
    bool is64;
    const uint8_t *id_pos = record_open(&c, sec, size, off, &id, &is64);
    if (!id_pos || is_cie_id(&c, id, is64)) return;  /* a CIE */
    /* The CIE pointer: back from the id field in .eh_frame, from the section's start in .debug_frame. */
    size_t cie_off;
    if (c.debug_frame) {
        if (id >= size) return;
        cie_off = (size_t)id;
    } else {
        if (id > (uint64_t)(id_pos - sec)) return;
        cie_off = (size_t)(id_pos - sec) - id;
    }
    if (!cache->valid || cache->cie_off != cie_off) {
        cache->valid = parse_cie(base, sec, size, cie_off, &cache->cie);
        cache->cie_off = cie_off;
        if (cache->valid) {
            /* The CIE's instructions give the state at every FDE's first address: rbp unchanged, the
             * return address where the CIE puts it. */
            cache->initial = (cfa_state){.cfa_reg = UNWIND_RSP, .cfa_offset = 8};
            cursor ci = base;
            ci.p = cache->cie.insns;
            ci.end = cache->cie.insns_end;
            uint64_t loc = 0;
            cache->valid = run_cfa(ci, &cache->cie, &cache->initial, NULL, NULL, &loc, 0, 0);
        }
    }
    if (!cache->valid) return;
    const cie_info *cie = &cache->cie;
    uint64_t start = encoded(&c, cie->fde_enc);
    uint64_t range = encoded(&c, cie->fde_enc & 0x0f);
    if (cie->has_aug_data) skip(&c, uleb(&c));
    if (c.bad || range == 0 || start > UINT32_MAX || range > UINT32_MAX - start) return;
    /* .debug_frame keeps FDEs of functions the linker dropped, relocated to address 0; and it only fills
     * the gaps .eh_frame leaves (.eh_frame is what the program itself unwinds with, so it wins). */
    if (c.debug_frame && (start == 0 || covered(b, start, start + range))) return;
    uint64_t loc = start, end = start + range;
    size_t first = b->n;
    cfa_state s = cache->initial;
    if (!run_cfa(c, cie, &s, &cache->initial, b, &loc, end, first)) {
        /* Undecodable from here on: what follows is unknown rather than wrong. */
        s.cfa_expression = true;
    }
    if (loc < end) emit_state(b, loc, &s, first);
    add_row(b, end, UNWIND_NONE, 0, 0);
    b->fdes++;
}

/* Enumerates FDEs through the binary search table of .eh_frame_hdr. False when the table is absent or in
 * an encoding we do not read (the caller then scans .eh_frame). */
static bool fdes_from_hdr(row_builder *b, cursor base, const elf_section *eh, const elf_section *hdr) {
    if (!hdr || hdr->size < 12) return false;
    const uint8_t *h = hdr->data;
    /* version 1; the table must be datarel sdata4 (the only form linkers write) */
    if (h[0] != 1 || h[3] != (DW_EH_PE_datarel | DW_EH_PE_sdata4) || h[2] == DW_EH_PE_omit) return false;
    cursor c = {.p = h + 4, .end = h + hdr->size, .sec = h, .vaddr = hdr->addr, .datarel = hdr->addr,
                .budget = base.budget};
    encoded(&c, h[1]);
    uint64_t count = encoded(&c, h[2]);
    if (c.bad || count > (uint64_t)(c.end - c.p) / 8) return false;
    cie_cache cache = {0};
    for (uint64_t i = 0; i < count && !b->failed && *base.budget; i++) {
        rd(&c, 4);  /* initial location: the FDE has it too */
        uint64_t fde = hdr->addr + (uint64_t)(int64_t)(int32_t)rd(&c, 4);
        if (fde < eh->addr || fde - eh->addr >= eh->size) continue;
        parse_fde(b, base, eh->data, eh->size, (size_t)(fde - eh->addr), &cache);
    }
    return true;
}

static void fdes_from_scan(row_builder *b, cursor base, const elf_section *eh) {
    cie_cache cache = {0};
    size_t off = 0;
    while (eh->size - off >= 4 && !b->failed && *base.budget) {
        cursor c = base;
        c.p = eh->data + off;
        c.end = eh->data + eh->size;
        uint64_t len = rd(&c, 4);
        if (len == 0) break;  /* the terminator */
        if (len == 0xffffffff) len = rd(&c, 8);
        if (c.bad || len > (uint64_t)(c.end - c.p)) break;
        parse_fde(b, base, eh->data, eh->size, off, &cache);
        off = (size_t)(c.p - eh->data) + len;
    }
}

static int compare_rows(const void *pa, const void *pb) {
    const unwind_row *a = pa, *b = pb;
    if (a->pc_offset != b->pc_offset) return a->pc_offset < b->pc_offset ? -1 : 1;
    /* At one address an FDE's end marker loses to the next FDE's first row. */
    bool na = a->cfa_reg == UNWIND_NONE, nb = b->cfa_reg == UNWIND_NONE;
    return na == nb ? 0 : na ? 1 : -1;
}

static bool same_rule(const unwind_row *a, const unwind_row *b) {
    return a->cfa_reg == b->cfa_reg && a->cfa_offset == b->cfa_offset && a->fp_offset == b->fp_offset;
}

static int compare_ranges(const void *pa, const void *pb) {
    const addr_range *a = pa, *b = pb;
    return a->start < b->start ? -1 : a->start > b->start;
}

/* The extents of the FDEs whose rows are b->rows[0, n) (each FDE's rows end with its UNWIND_NONE row),
 * sorted and merged into disjoint ranges. False when out of memory. */
static bool collect_extents(row_builder *b, addr_range **out, size_t *count) {
    size_t n = 0;
    for (size_t i = 0; i < b->n; i++) n += b->rows[i].cfa_reg == UNWIND_NONE;
    addr_range *r = malloc((n ? n : 1) * sizeof(*r));
    if (!r) return false;
    size_t k = 0;
    for (size_t i = 0, first = 0; i < b->n; i++) {
        if (b->rows[i].cfa_reg != UNWIND_NONE) continue;
        if (first < i) r[k++] = (addr_range){b->rows[first].pc_offset, b->rows[i].pc_offset};
        first = i + 1;
    }
    qsort(r, k, sizeof(*r), compare_ranges);
    size_t m = 0;
    for (size_t i = 0; i < k; i++) {
        if (m && r[i].start <= r[m - 1].end) {
            if (r[i].end > r[m - 1].end) r[m - 1].end = r[i].end;
        } else {
            r[m++] = r[i];
        }
    }
    *out = r;
    *count = m;
    return true;
}

unwind_table *dwarf_build_frames(const elf_section *eh_frame, const elf_section *hdr,
                                 const elf_section *debug_frame) {
    unwind_table *t = calloc(1, sizeof(*t));
    if (!t) return NULL;
    bool has_eh = eh_frame && eh_frame->data && eh_frame->size;
    bool has_debug = debug_frame && debug_frame->data && debug_frame->size;
    if (!has_eh && !has_debug) return t;
    row_builder b = {0};
    /* A valid .eh_frame runs each instruction once (CIEs a few times more). A crafted one could make us run
     * the same instructions again and again (a search table listing one long FDE thousands of times, FDEs
     * alternating between long CIEs): the budget bounds the work, and so the rows, to a few times the
     * sections' size. */
    uint64_t budget = 8 * ((has_eh ? (uint64_t)eh_frame->size : 0) + (has_debug ? debug_frame->size : 0)) + 4096;
    if (has_eh) {
        cursor base = {.sec = eh_frame->data, .vaddr = eh_frame->addr, .datarel = hdr ? hdr->addr : 0,
                       .budget = &budget};
        if (!fdes_from_hdr(&b, base, eh_frame, hdr)) fdes_from_scan(&b, base, eh_frame);
    }
    if (has_debug && !b.failed) {
        /* Not loaded, so no address of its own: pointers in it are absolute, never pc- or data-relative. */
        cursor base = {.sec = debug_frame->data, .vaddr = 0, .budget = &budget, .debug_frame = true};
        addr_range *extents = NULL;
        if (!collect_extents(&b, &extents, &b.ncovered)) b.failed = true;
        b.covered = extents;
        if (!b.failed) fdes_from_scan(&b, base, debug_frame);
        free(extents);
        b.covered = NULL;
    }
    if (b.failed) {
        free(b.rows);
        free(t);
        return NULL;
    }
    /* Rows of one FDE are in order, and so are FDEs taken from the .eh_frame_hdr table: sort only when
     * needed (a linear scan of an unusual .eh_frame, rows added from .debug_frame). */
    bool sorted = true;
    for (size_t i = 1; i < b.n && sorted; i++) sorted = b.rows[i - 1].pc_offset <= b.rows[i].pc_offset;
    if (!sorted) qsort(b.rows, b.n, sizeof(unwind_row), compare_rows);
    size_t n = 0;
    for (size_t i = 0, j; i < b.n; i = j) {
        /* One address, several rows: an FDE's end and the next FDE's start (the start wins), or overlapping
         * FDEs (the first wins). */
        unwind_row win = b.rows[i];
        for (j = i + 1; j < b.n && b.rows[j].pc_offset == win.pc_offset; j++)
            if (win.cfa_reg == UNWIND_NONE) win = b.rows[j];
        if (n ? same_rule(&win, &b.rows[n - 1]) : win.cfa_reg == UNWIND_NONE) continue;
        b.rows[n++] = win;
    }
    t->rows = n ? realloc(b.rows, n * sizeof(unwind_row)) : NULL;
    if (!t->rows) free(b.rows);
    t->nrows = t->rows ? n : 0;
    t->nfdes = b.fdes;
    dwarf_index_build(t, DWARF_INDEX_SHIFT);
    return t;
}

unwind_table *dwarf_build_sections(const elf_section *eh_frame, const elf_section *hdr) {
    return dwarf_build_frames(eh_frame, hdr, NULL);
}

unwind_table *dwarf_build_with_debug(const elf_image *img, const elf_image *debug) {
    elf_section eh, hdr, dbg;
    bool has_hdr = elf_eh_frame_hdr(img, &hdr);
    bool has_eh = elf_eh_frame(img, &eh);
    /* The object's own .debug_frame, else its separate debug file's (objcopy --only-keep-debug keeps it
     * there, with the link-time addresses of the object). */
    bool has_debug = elf_section_by_name(img, ".debug_frame", &dbg) ||
                     (debug && elf_section_by_name(debug, ".debug_frame", &dbg));
    return dwarf_build_frames(has_eh ? &eh : NULL, has_eh && has_hdr ? &hdr : NULL, has_debug ? &dbg : NULL);
}

unwind_table *dwarf_build(const elf_image *img) { return dwarf_build_with_debug(img, NULL); }

void dwarf_free(unwind_table *t) {
    if (!t) return;
    free(t->page_first);
    free(t->rows);
    free(t);
}

size_t dwarf_row_count(const unwind_table *t) { return t ? t->nrows : 0; }
size_t dwarf_fde_count(const unwind_table *t) { return t ? t->nfdes : 0; }
