/* [signal-safe] stub_frames: the caller of a pc in HotSpot code the blob's frame size does not describe (stub_frames.h). */
#include "stub_frames.h"

#include "code_bytes.h"

#include <stdatomic.h>
#include <string.h>

#define WORD sizeof(uintptr_t)
#define NAME_CACHE 32
#define NAME_MAX_LEN 48

static bool starts_with(const char *text, const char *part) {
    while (*part && *text == *part) text++, part++;
    return !*part;
}

static bool contains(const char *text, const char *part) {
    for (; *text; text++) {
        size_t i = 0;
        while (part[i] && text[i] == part[i]) i++;
        if (!part[i]) return true;
    }
    return false;
}

/* The stub a name text names: JDK 17 "ExceptionBlob", "slow_subtype_check Runtime1 stub"; JDK 21+
 * "ExceptionBlob", "C1 Runtime slow_subtype_check_blob". 0 when the text cannot be read. */
static int kind_of_name(uintptr_t text) {
    char name[NAME_MAX_LEN] = {0};
    for (unsigned i = 0; i + 1 < sizeof(name); i++) {
        int64_t c;
        if (!codeblob_read_field(text + i, 1, &c)) return 0;
        if (!(name[i] = (char)c)) break;
    }
    if (strcmp(name, "ExceptionBlob") == 0) return STUB_EXCEPTION_BLOB + 1;
    if (strcmp(name, "UncommonTrapBlob") == 0) return STUB_UNCOMMON_TRAP + 1;
    /* JDK 25 appends the adapter's fingerprint: "I2C/C2I adapters(0xbebeabbea7e)" */
    if (starts_with(name, "I2C/C2I adapters")) return STUB_ADAPTER + 1;
    /* JDK 25 "StubRoutines (continuationstubs)" */
    if (contains(name, "continuation")) return STUB_CONTINUATION + 1;
    if (starts_with(name, "vtable chunks")) return STUB_VTABLE + 1;
    return (contains(name, "slow_subtype_check") ? STUB_C1_SUBTYPE_CHECK : STUB_OTHER) + 1;
}

/* Name pointer -> stub kind + 1 (blob names are string literals of libjvm: one pointer per name). */
static _Atomic uintptr_t name_keys[NAME_CACHE];
static _Atomic int name_kinds[NAME_CACHE];

stub_kind stub_frames_kind(const codeblob *b) {
    int64_t text;
    if (!codeblob_vm.has_name || !codeblob_read_field(b->blob + codeblob_vm.name.offset, WORD, &text) || !text)
        return STUB_OTHER;
    unsigned slot = (unsigned)(((uintptr_t)text >> 3) * 0x9e3779b97f4a7c15ULL >> 59) % NAME_CACHE;
    for (unsigned i = 0; i < NAME_CACHE; i++) {
        unsigned s = (slot + i) % NAME_CACHE;
        uintptr_t key = atomic_load_explicit(&name_keys[s], memory_order_acquire);
        if (key == (uintptr_t)text) {
            int k = atomic_load_explicit(&name_kinds[s], memory_order_acquire);
            if (k) return (stub_kind)(k - 1);
            break;
        }
        if (key) continue;
        int k = kind_of_name((uintptr_t)text);
        uintptr_t expected = 0;
        if (k && atomic_compare_exchange_strong(&name_keys[s], &expected, (uintptr_t)text))
            atomic_store_explicit(&name_kinds[s], k, memory_order_release);
        return k ? (stub_kind)(k - 1) : STUB_OTHER;
    }
    int k = kind_of_name((uintptr_t)text);
    return k ? (stub_kind)(k - 1) : STUB_OTHER;
}

/* The exception blob's epilogue `add rsp, 8; pop rdx` (its offset from the code's start), found once. */
static _Atomic uintptr_t exception_blob, exception_epilogue;

bool stub_frames_exception_blob(const codeblob *b, uintptr_t pc, int *ret_words) {
    static const uint8_t entry[] = {0x52, 0x48, 0x83, 0xEC, 0x08};        /* push rdx; sub rsp, 8 */
    static const uint8_t epilogue[] = {0x48, 0x83, 0xC4, 0x08, 0x5A};     /* add rsp, 8; pop rdx */
    uintptr_t begin = b->code_begin, add_at;
    if (atomic_load_explicit(&exception_blob, memory_order_acquire) == b->blob) {
        add_at = begin + atomic_load_explicit(&exception_epilogue, memory_order_relaxed);
    } else {
        if (!code_bytes_are(begin, entry, sizeof(entry))) return false;
        add_at = code_bytes_find_unique(begin + sizeof(entry), b->code_end, epilogue, sizeof(epilogue));
        if (!add_at) return false;
        atomic_store_explicit(&exception_epilogue, add_at - begin, memory_order_relaxed);
        atomic_store_explicit(&exception_blob, b->blob, memory_order_release);
    }
    uintptr_t pop_at = add_at + 4;
    if (pc == begin || pc > pop_at) *ret_words = -1;   /* before `push rdx`, after `pop rdx` */
    else if (pc == begin + 1 || pc == pop_at) *ret_words = 0;
    else *ret_words = 1;                               /* the frame: rbp's slot, then the exception pc */
    return true;
}

/* slow_subtype_check's shape, found once: pushes at entry, the words of its `sub rsp, n` (0 without one)
 * and the offsets where that area is allocated and freed. */
typedef struct {
    unsigned pushes, extra;
    uintptr_t grown, shrunk;   /* offsets just after `sub rsp, n` and after the matching `lea`/`add` */
} subtype_shape;

static _Atomic uintptr_t subtype_blob, subtype_entry;
static _Atomic uint64_t subtype_packed;

static bool subtype_shape_of(const codeblob *b, subtype_shape *s) {
    uintptr_t begin = b->code_begin;
    uint8_t c[16];
    memset(s, 0, sizeof(*s));
    if (!code_bytes_read(begin, c, 8)) return false;
    while (s->pushes < 8 && c[s->pushes] >= 0x50 && c[s->pushes] <= 0x57) s->pushes++;   /* push r64 */
    if (!s->pushes) return false;
    /* mov rsi, [rsp + 8 * (pushes + 2)] (the sub klass); mov rax, [rsp + 8 * (pushes + 1)] (the super) */
    uintptr_t at = begin + s->pushes;
    const uint8_t loads[] = {0x48, 0x8B, 0x74, 0x24, (uint8_t)((s->pushes + 2) * WORD),
                             0x48, 0x8B, 0x44, 0x24, (uint8_t)((s->pushes + 1) * WORD)};
    if (!code_bytes_are(at, loads, sizeof(loads)) || !code_bytes_read(at + sizeof(loads), c, 4)) return false;
    at += sizeof(loads);
    if (c[0] == 0x48 && c[1] == 0x83 && c[2] == 0xEC && c[3] % WORD == 0) {   /* sub rsp, imm8 */
        const uint8_t lea[] = {0x48, 0x8D, 0x64, 0x24, c[3]}, add[] = {0x48, 0x83, 0xC4, c[3]};
        s->extra = c[3] / WORD;
        s->grown = at + 4 - begin;
        uintptr_t free_at = code_bytes_find_unique(at + 4, b->code_end, lea, sizeof(lea));
        unsigned len = sizeof(lea);
        if (!free_at) {
            free_at = code_bytes_find_unique(at + 4, b->code_end, add, sizeof(add));
            len = sizeof(add);
        }
        if (!free_at) return false;
        s->shrunk = free_at + len - begin;
    }
    return true;
}

static uint64_t pack_shape(const subtype_shape *s) {
    return (uint64_t)s->pushes | (uint64_t)s->extra << 8 | (uint64_t)s->grown << 16 | (uint64_t)s->shrunk << 32;
}

static subtype_shape unpack_shape(uint64_t v) {
    return (subtype_shape){(unsigned)(v & 0xFF), (unsigned)(v >> 8 & 0xFF), (uintptr_t)(v >> 16 & 0xFFFF),
                           (uintptr_t)(v >> 32 & 0xFFFF)};
}

int stub_frames_subtype_check_depth(const codeblob *b, uintptr_t pc) {
    subtype_shape s;
    if (atomic_load_explicit(&subtype_blob, memory_order_acquire) == b->blob) {
        s = unpack_shape(atomic_load_explicit(&subtype_packed, memory_order_relaxed));
    } else {
        if (!subtype_shape_of(b, &s) || s.grown > 0xFFFF || s.shrunk > 0xFFFF) return -1;
        atomic_store_explicit(&subtype_packed, pack_shape(&s), memory_order_relaxed);
        atomic_store_explicit(&subtype_blob, b->blob, memory_order_release);
        atomic_store_explicit(&subtype_entry, b->code_begin, memory_order_release);
    }
    uintptr_t off = pc - b->code_begin;
    if (off < s.pushes) return (int)off;
    if (s.extra && off >= s.grown && off < s.shrunk) return (int)(s.pushes + s.extra);
    /* In the pops before a `ret`: the registers not yet popped. */
    uint8_t c[9];
    if (!code_bytes_read(pc, c, sizeof(c))) return -1;
    for (unsigned k = 0; k < sizeof(c) && k <= s.pushes; k++) {
        if (c[k] == 0xC3) return (int)k;
        if (c[k] < 0x58 || c[k] > 0x5F) break;
    }
    return (int)s.pushes;
}

bool stub_frames_prologue_unsaved_rbp(uintptr_t pc, uintptr_t *ret_offset) {
    uint8_t at[8], before[7];
    if (!code_bytes_read(pc, at, sizeof(at)) || !code_bytes_read(pc - sizeof(before), before, sizeof(before))) return false;
    /* sub rsp, imm32 (subptr_imm32 in verified_entry), then mov [rsp + imm32 - 8], rbp */
    if (before[0] != 0x48 || before[1] != 0x81 || before[2] != 0xEC) return false;
    int32_t size = code_bytes_i32(before + 3);
    if (size < (int32_t)(2 * WORD) || size % WORD) return false;
    bool short_store = at[0] == 0x48 && at[1] == 0x89 && at[2] == 0x6C && at[3] == 0x24 && at[4] == (uint8_t)(size - WORD) &&
                       size - WORD < 0x80;
    bool long_store = at[0] == 0x48 && at[1] == 0x89 && at[2] == 0xAC && at[3] == 0x24 && code_bytes_i32(at + 4) == size - (int32_t)WORD;
    if (!short_store && !long_store) return false;
    *ret_offset = (uintptr_t)size;
    return true;
}

/* `push [rsp+d]` (ff 74 24 d8 / ff b4 24 d32, REX.W optional) ending exactly at 'end'. */
static bool push_rsp_slot_ends_at(uintptr_t end) {
    uint8_t c[8];
    if (!code_bytes_read(end - sizeof(c), c, sizeof(c))) return false;
    bool short_push = c[4] == 0xFF && c[5] == 0x74 && c[6] == 0x24;
    bool long_push = c[1] == 0xFF && c[2] == 0xB4 && c[3] == 0x24;
    return short_push || long_push;
}

bool stub_frames_in_spill_copy(uintptr_t pc) {
    uint8_t c[4];
    if (!code_bytes_read(pc, c, sizeof(c))) return false;
    unsigned rex = c[0] == 0x48;
    /* pop [rsp+d8] / pop [rsp+d32] */
    if (c[rex] != 0x8F || (c[rex + 1] != 0x44 && c[rex + 1] != 0x84) || c[rex + 2] != 0x24) return false;
    return push_rsp_slot_ends_at(pc);
}

/* Around a leaf pc in C1 code: the bytes from pc - CALL_BACK to pc + CALL_AHEAD, read once. */
#define CALL_BACK 7
#define CALL_AHEAD 9

/* True when c[at] starts a `call rel32` (at is an index into the window, whose byte 0 is at 'base') whose
 * target is 'target'. */
static bool call_in(const uint8_t *c, int at, uintptr_t base, uintptr_t target) {
    return at >= 0 && at + 5 <= CALL_BACK + CALL_AHEAD && c[at] == 0xE8 &&
           base + (uintptr_t)at + 5 + (uintptr_t)(intptr_t)code_bytes_i32(c + at + 1) == target;
}

/* The length of the push (opcode 0x50) or pop (0x58) of a 64-bit register starting at c[at] (REX.B or not),
 * or 0. */
static int push_pop_in(const uint8_t *c, int at, uint8_t opcode) {
    if (at < 0 || at >= CALL_BACK + CALL_AHEAD) return 0;
    if (c[at] >= opcode && c[at] <= opcode + 7) return 1;
    return at + 1 < CALL_BACK + CALL_AHEAD && c[at] == 0x41 && c[at + 1] >= opcode && c[at + 1] <= opcode + 7 ? 2 : 0;
}

unsigned stub_frames_subtype_args_pushed(uintptr_t pc) {
    uintptr_t entry = atomic_load_explicit(&subtype_entry, memory_order_acquire);
    uint8_t c[CALL_BACK + CALL_AHEAD];
    if (!entry) return 0;   /* no sample has met the stub yet: its callers are rare */
    uintptr_t base = pc - CALL_BACK;
    if (!code_bytes_read(base, c, sizeof(c))) return 0;
    /* push a; push b; call stub; pop; pop: at the call, or right after it, both are pushed */
    if (call_in(c, CALL_BACK, base, entry) || call_in(c, CALL_BACK - 5, base, entry)) return 2;
    int len = push_pop_in(c, CALL_BACK, 0x50);   /* at the second push */
    if (len && call_in(c, CALL_BACK + len, base, entry)) return 1;
    for (len = 1; len <= 2; len++) {              /* after the first pop */
        if (push_pop_in(c, CALL_BACK - len, 0x58) == len && call_in(c, CALL_BACK - len - 5, base, entry)) return 1;
    }
    return 0;
}

enter_position stub_frames_enter_at(uintptr_t pc) {
    static const uint8_t mov[] = {0x48, 0x8B, 0xEC}, mov_other[] = {0x48, 0x89, 0xE5};
    uint8_t c[1];
    if (!code_bytes_read(pc, c, 1)) return ENTER_ELSEWHERE;
    if (c[0] == 0x55) return ENTER_AT_PUSH;   /* push rbp */
    if (c[0] == 0xC3) return ENTER_AT_RET;    /* ret */
    return code_bytes_are(pc, mov, sizeof(mov)) || code_bytes_are(pc, mov_other, sizeof(mov_other)) ? ENTER_AT_MOV : ENTER_ELSEWHERE;
}
