/* [signal-safe] transit_frames: a leaf between a caller and the method it calls (transit_frames.h). */
#include "transit_frames.h"

#include "code_bytes.h"

#include <string.h>

#define WORD sizeof(uintptr_t)

/* Bytes around pc read once: 'back' before it (not before 'lowest') and 'ahead' from it. c[at] is pc. */
typedef struct {
    uint8_t c[1088];
    unsigned at, len;
} code_window;

static bool read_window(uintptr_t pc, uintptr_t lowest, unsigned back, unsigned ahead, code_window *w) {
    if (back + ahead > sizeof(w->c)) return false;
    if (pc - lowest < back) back = (unsigned)(pc - lowest);
    w->at = back;
    w->len = back + ahead;
    return code_bytes_read(pc - back, w->c, w->len);
}

static bool matches(const code_window *w, unsigned i, const uint8_t *want, unsigned n) {
    return i + n <= w->len && memcmp(w->c + i, want, n) == 0;
}

/* The last start of 'want' at or before index 'to' (and not before 'from'), or -1. */
static int last_match(const code_window *w, int from, int to, const uint8_t *want, unsigned n) {
    for (int i = to; i >= from && i >= 0; i--) {
        if (matches(w, (unsigned)i, want, n)) return i;
    }
    return -1;
}

/* The first start of 'want' at or after index 'from' (and not after 'to'), or -1. */
static int first_match(const code_window *w, int from, int to, const uint8_t *want, unsigned n) {
    for (int i = from; i <= to && i + (int)n <= (int)w->len; i++) {
        if (matches(w, (unsigned)i, want, n)) return i;
    }
    return -1;
}

/* `sub rsp, imm8` or `sub rsp, imm32` at index i: its length, the amount in *n; 0 when it is neither. */
static unsigned sub_rsp_at(const code_window *w, unsigned i, uintptr_t *n) {
    if (i + 7 > w->len || w->c[i] != 0x48 || w->c[i + 2] != 0xEC) return 0;
    if (w->c[i + 1] == 0x83) {
        *n = w->c[i + 3];
        return 4;
    }
    if (w->c[i + 1] == 0x81) {
        *n = (uintptr_t)(uint32_t)code_bytes_i32(w->c + i + 3);
        return 7;
    }
    return 0;
}

#define C2I_BACK 512
#define C2I_AHEAD 512

transit_ret transit_c2i(const codeblob *b, uintptr_t pc, uintptr_t sp, uintptr_t r13, uintptr_t *caller_sp) {
    static const uint8_t head17[] = {0x58, 0x4C, 0x8B, 0xEC};              /* pop rax; mov r13, rsp */
    static const uint8_t head21[] = {0x4C, 0x8D, 0x6C, 0x24, 0x08, 0x58};  /* lea r13, [rsp+8]; pop rax */
    static const uint8_t store17[] = {0x48, 0x89, 0x04, 0x24};             /* mov [rsp], rax */
    static const uint8_t jump[] = {0xFF, 0xE1};                            /* jmp rcx */
    code_window w;
    unsigned ahead = b->code_end - pc < C2I_AHEAD ? (unsigned)(b->code_end - pc) : C2I_AHEAD;
    if (pc < b->code_begin || !read_window(pc, b->code_begin, C2I_BACK, ahead, &w)) return TRANSIT_ELSEWHERE;
    int h17 = last_match(&w, 0, (int)w.at, head17, sizeof(head17)), h21 = last_match(&w, 0, (int)w.at, head21, sizeof(head21));
    bool jdk17 = h17 > h21;
    int h = jdk17 ? h17 : h21;
    if (h < 0) return TRANSIT_ELSEWHERE;
    uintptr_t n, off = w.at - (unsigned)h;   /* pc's offset from the sequence's first instruction */
    unsigned sub_at = (unsigned)h + (jdk17 ? sizeof(head17) : sizeof(head21)), sub_len = sub_rsp_at(&w, sub_at, &n);
    if (!sub_len || !n || n % WORD) return TRANSIT_ELSEWHERE;
    /* The return address goes back on the stack at 'stored' (the store, or the push); the body follows. */
    unsigned stored = sub_at + sub_len, body = stored + (jdk17 ? sizeof(store17) : 1);
    if (jdk17 ? !matches(&w, stored, store17, sizeof(store17)) : w.c[stored] != 0x50) return TRANSIT_ELSEWHERE;
    int jump_at = first_match(&w, (int)(body > w.at ? body : w.at), (int)w.len, jump, sizeof(jump));
    if (jump_at < 0) return TRANSIT_ELSEWHERE;
    transit_ret ret;
    uintptr_t csp, r13_wanted = 0;   /* r13 once the sequence has set it, else 0 */
    if (jdk17) {
        if (off == 0) ret = TRANSIT_RET_AT_SP, csp = sp + WORD;           /* at pop rax */
        else if (off == 1) ret = TRANSIT_RET_IN_RAX, csp = sp;            /* at mov r13, rsp */
        else if (w.at == sub_at) ret = TRANSIT_RET_IN_RAX, csp = sp, r13_wanted = csp;
        else if (w.at <= stored) ret = TRANSIT_RET_IN_RAX, csp = sp + n, r13_wanted = csp;
        else ret = TRANSIT_RET_AT_SP, csp = sp + n, r13_wanted = csp;
    } else {
        if (off == 0) ret = TRANSIT_RET_AT_SP, csp = sp + WORD;           /* at lea r13 */
        else if (off == 5) ret = TRANSIT_RET_AT_SP, csp = sp + WORD, r13_wanted = csp;   /* at pop rax */
        else if (w.at == sub_at) ret = TRANSIT_RET_IN_RAX, csp = sp, r13_wanted = csp;
        else if (w.at == stored) ret = TRANSIT_RET_IN_RAX, csp = sp + n, r13_wanted = csp;   /* at push rax */
        else if (w.at > stored) ret = TRANSIT_RET_AT_SP, csp = sp + n + WORD, r13_wanted = csp;
        else return TRANSIT_ELSEWHERE;
    }
    if (w.at > (unsigned)jump_at || (r13_wanted && r13 != r13_wanted)) return TRANSIT_ELSEWHERE;
    *caller_sp = csp;
    return ret;
}

#define ENTRY_BACK 40
#define ENTRY_AHEAD 40

/* pc between the end of 'head' (popped) and the start of 'tail' (inclusive), both within ENTRY_BACK/AHEAD. */
static bool between(uintptr_t pc, const uint8_t *head, unsigned head_len, const uint8_t *tail, unsigned tail_len,
                    unsigned popped_at) {
    code_window w;
    if (!read_window(pc, pc - ENTRY_BACK, ENTRY_BACK, ENTRY_AHEAD, &w)) return false;
    int h = last_match(&w, 0, (int)w.at - (int)popped_at, head, head_len);
    if (h < 0) return false;
    int t = first_match(&w, h + (int)head_len, (int)w.len, tail, tail_len);
    return t >= (int)w.at;
}

bool transit_interp_entry_popped(uintptr_t pc) {
    static const uint8_t head[] = {0x58, 0x4C, 0x8D, 0x74, 0xCC, 0xF8};   /* pop rax; lea r14, [rsp+rcx*8-8] */
    static const uint8_t tail[] = {0x50, 0x55, 0x48, 0x8B, 0xEC};         /* push rax; push rbp; mov rbp, rsp */
    return between(pc, head, sizeof(head), tail, sizeof(tail), 1);
}

bool transit_interp_return_popped(uintptr_t pc) {
    static const uint8_t head[] = {0x41, 0x5D, 0x48, 0x8B, 0xE3};   /* pop r13; mov rsp, rbx */
    static const uint8_t tail[] = {0x41, 0xFF, 0xE5};               /* jmp r13 */
    return between(pc, head, sizeof(head), tail, sizeof(tail), 2);
}

bool transit_interp_exception_popped(uintptr_t pc) {
    static const uint8_t head[] = {0x5A, 0x48, 0x8B, 0xE3};   /* pop rdx; mov rsp, rbx */
    static const uint8_t tail[] = {0x50, 0x52};               /* push rax (the exception); push rdx */
    return between(pc, head, sizeof(head), tail, sizeof(tail), 1) ||
           between(pc, head, sizeof(head), tail + 1, 1, 1);   /* at push rdx itself */
}

/* The end of the interpreter's exception continuation: mov rbx, rax; pop rdx; pop rax; jmp rbx */
static const uint8_t exception_tail[] = {0x48, 0x8B, 0xD8, 0x5A, 0x58, 0xFF, 0xE3};

transit_ret transit_interp_exception_leaf(uintptr_t pc, uintptr_t sp, uintptr_t *caller_sp) {
    /* pc's offset into the tail: 0 and 3 before `pop rdx`, 4 after it, 5 after `pop rax` too */
    static const uint8_t offsets[] = {0, 3, 4, 5};
    for (unsigned i = 0; i < sizeof(offsets); i++) {
        if (!code_bytes_are(pc - offsets[i], exception_tail, sizeof(exception_tail))) continue;
        *caller_sp = sp + (offsets[i] <= 3 ? 2 : offsets[i] == 4 ? 1 : 0) * WORD;
        return offsets[i] <= 3 ? TRANSIT_RET_AT_SP : TRANSIT_RET_IN_RDX;
    }
    return TRANSIT_ELSEWHERE;
}

bool transit_interp_exception_call(uintptr_t ret, unsigned *ret_words) {
    const uint8_t *after = exception_tail;
    uint8_t c[9];
    if (!code_bytes_read(ret, c, sizeof(c))) return false;
    if (memcmp(c, after, sizeof(exception_tail)) == 0) {
        *ret_words = 0;
        return true;
    }
    /* add rsp, 8 (the padding); jmp rel32 to the same sequence */
    if (c[0] != 0x48 || c[1] != 0x83 || c[2] != 0xC4 || c[3] != 0x08 || c[4] != 0xE9) return false;
    uintptr_t target = ret + 9 + (uintptr_t)(intptr_t)code_bytes_i32(c + 5);
    if (!code_bytes_are(target, after, sizeof(exception_tail))) return false;
    *ret_words = 1;
    return true;
}

bool transit_static_call_stub(const codeblob *b, uintptr_t pc) {
    int64_t stub_offset;
    uint8_t c[25];
    if (!codeblob_vm.has_stub_offset || b->kind != BLOB_NMETHOD ||
        !codeblob_read_field(b->blob + codeblob_vm.stub_offset.offset, codeblob_vm.stub_offset.width, &stub_offset) ||
        stub_offset <= 0 || pc < b->blob + (uintptr_t)stub_offset || !code_bytes_read(pc - 10, c, sizeof(c)))
        return false;
    /* mov rbx, imm64 (48 BB, 10 bytes); jmp rel32 (E9) */
    bool at_mov = c[10] == 0x48 && c[11] == 0xBB && c[20] == 0xE9, at_jump = c[0] == 0x48 && c[1] == 0xBB && c[10] == 0xE9;
    return at_mov || at_jump;
}
