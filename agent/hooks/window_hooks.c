/*
 * window_hooks: the two thunks (one per window edge), the names of begin=/end= in the form the import
 * tables hold them, and the safepoint variables of ttsp.
 *
 * A thunk is entered in place of the function, with the caller's arguments in registers (and the caller's
 * stack arguments above its return address): it saves every argument register, calls the window's C
 * function, restores them and jumps to the function, which returns to the caller. Written in assembly: no
 * C function can forward arguments it does not know.
 */
#define _GNU_SOURCE
#include "window_hooks.h"

#include "elf_reader.h"
#include "got_patch.h"
#include "log.h"
#include "native_hooks_install.h"
#include "sample_window.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

void *window_begin_real, *window_end_real;   /* where the thunks jump: read by their assembly */
void window_begin_thunk(void);
void window_end_thunk(void);

#if defined(__x86_64__)
/* rdi rsi rdx rcx r8 r9 (integer arguments), rax (the vector count of a variadic call), xmm0-7: seven
 * pushes after the return address leave the stack 16-byte aligned for the call. */
#define WINDOW_THUNK(name, edge, real)                                                                        \
    __asm__(".text\n.globl " #name "\n.hidden " #name "\n.type " #name ",@function\n" #name ":\n"          \
            "push %rdi\npush %rsi\npush %rdx\npush %rcx\npush %r8\npush %r9\npush %rax\n"                    \
            "sub $128,%rsp\nmovdqu %xmm0,0(%rsp)\nmovdqu %xmm1,16(%rsp)\nmovdqu %xmm2,32(%rsp)\n"            \
            "movdqu %xmm3,48(%rsp)\nmovdqu %xmm4,64(%rsp)\nmovdqu %xmm5,80(%rsp)\nmovdqu %xmm6,96(%rsp)\n"   \
            "movdqu %xmm7,112(%rsp)\ncall " #edge "\n"                                                       \
            "movdqu 0(%rsp),%xmm0\nmovdqu 16(%rsp),%xmm1\nmovdqu 32(%rsp),%xmm2\nmovdqu 48(%rsp),%xmm3\n"    \
            "movdqu 64(%rsp),%xmm4\nmovdqu 80(%rsp),%xmm5\nmovdqu 96(%rsp),%xmm6\nmovdqu 112(%rsp),%xmm7\n"  \
            "add $128,%rsp\npop %rax\npop %r9\npop %r8\npop %rcx\npop %rdx\npop %rsi\npop %rdi\n"            \
            "jmp *" #real "(%rip)\n.size " #name ",.-" #name "\n")
#define WINDOW_THUNKS 1
#elif defined(__aarch64__)
/* x0-x8 (arguments, indirect result), x30 (the return address), q0-q7. */
#define WINDOW_THUNK(name, edge, real)                                                                        \
    __asm__(".text\n.globl " #name "\n.hidden " #name "\n.type " #name ",%function\n" #name ":\n"          \
            "stp x29,x30,[sp,#-224]!\nmov x29,sp\nstp x0,x1,[sp,#16]\nstp x2,x3,[sp,#32]\n"                  \
            "stp x4,x5,[sp,#48]\nstp x6,x7,[sp,#64]\nstr x8,[sp,#80]\nstp q0,q1,[sp,#96]\n"                  \
            "stp q2,q3,[sp,#128]\nstp q4,q5,[sp,#160]\nstp q6,q7,[sp,#192]\nbl " #edge "\n"                  \
            "ldp x0,x1,[sp,#16]\nldp x2,x3,[sp,#32]\nldp x4,x5,[sp,#48]\nldp x6,x7,[sp,#64]\n"                \
            "ldr x8,[sp,#80]\nldp q0,q1,[sp,#96]\nldp q2,q3,[sp,#128]\nldp q4,q5,[sp,#160]\n"                \
            "ldp q6,q7,[sp,#192]\nldp x29,x30,[sp],#224\n"                                                   \
            "adrp x16," #real "\nldr x16,[x16,:lo12:" #real "]\nbr x16\n.size " #name ",.-" #name "\n")
#define WINDOW_THUNKS 1
#else
#define WINDOW_THUNKS 0
#endif

#if WINDOW_THUNKS
WINDOW_THUNK(window_begin_thunk, sample_window_begin, window_begin_real);
WINDOW_THUNK(window_end_thunk, sample_window_end, window_end_real);
#endif

static char begin_symbol[300], end_symbol[300];
static bool hooks_on;

/* "Ns::Class::method" as the import tables name it when it takes no arguments (_ZN2Ns5Class6methodEv);
 * a name without "::" as it is (a C function, or a mangled name given as such). */
static void import_name(const char *name, char *out, size_t len) {
    if (!strstr(name, "::")) {
        snprintf(out, len, "%s", name);
        return;
    }
    size_t used = (size_t)snprintf(out, len, "_ZN");
    for (const char *p = name; *p && used < len;) {
        const char *sep = strstr(p, "::");
        size_t n = sep ? (size_t)(sep - p) : strlen(p);
        used += (size_t)snprintf(out + used, len - used, "%zu%.*s", n, (int)n, p);
        p += n + (sep ? 2 : 0);
    }
    if (used < len) snprintf(out + used, len - used, "Ev");
}

typedef struct {
    char path[1024];
    uintptr_t base;
} found_object;

static int find_libjvm(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size;
    found_object *f = arg;
    const char *name = info->dlpi_name, *slash = name ? strrchr(name, '/') : NULL;
    if (!slash || strcmp(slash, "/libjvm.so") != 0) return 0;
    snprintf(f->path, sizeof(f->path), "%s", name);
    f->base = info->dlpi_addr;
    return 1;
}

/* ttsp: the addresses of SafepointSynchronize::_state and ::_safepoint_counter in the loaded libjvm.so. */
static int safepoint_variables(sample_window_config *c, char *err, size_t errlen) {
    found_object jvm = {"", 0};
    dl_iterate_phdr(find_libjvm, &jvm);
    char why[512] = "";
    elf_image *img = jvm.path[0] ? elf_open(jvm.path, why, sizeof(why)) : NULL;
    elf_image *debug = img && !elf_has_symtab(img) ? elf_debug_open(img, jvm.path, NULL) : NULL;
    const elf_image *symbols = debug ? debug : img;
    uint64_t state = 0, counter = 0;
    bool found = symbols && elf_symbol_value(symbols, "_ZN20SafepointSynchronize6_stateE", &state) &&
                 elf_symbol_value(symbols, "_ZN20SafepointSynchronize18_safepoint_counterE", &counter);
    if (debug) elf_close(debug);
    if (img) elf_close(img);
    if (!found) {
        snprintf(err, errlen, "ttsp: cannot find SafepointSynchronize::_state in %s%s%s (the JVM's symbol table; "
                 "install its debug symbols)", jvm.path[0] ? jvm.path : "libjvm.so", why[0] ? ": " : "", why);
        return -1;
    }
    c->safepoint_state = (const volatile int *)(jvm.base + state);
    c->safepoint_id = (const volatile uint64_t *)(jvm.base + counter);
    return 0;
}

/* begin=/end=: each function as the process resolves it, hooked where other objects import it. */
static int call_hooks(const prof_options *o, char *err, size_t errlen) {
    if (!WINDOW_THUNKS) {
        snprintf(err, errlen, "begin=/end=: not supported on this architecture");
        return -1;
    }
    if (!o->begin[0] || !o->end[0]) {
        snprintf(err, errlen, "begin= and end= go together: give both (begin=%s,end=%s)", o->begin[0] ? o->begin : "F",
                 o->end[0] ? o->end : "G");
        return -1;
    }
    import_name(o->begin, begin_symbol, sizeof(begin_symbol));
    import_name(o->end, end_symbol, sizeof(end_symbol));
    window_begin_real = dlsym(RTLD_DEFAULT, begin_symbol);
    window_end_real = dlsym(RTLD_DEFAULT, end_symbol);
    const char *missing = !window_begin_real ? o->begin : !window_end_real ? o->end : NULL;
    if (missing) {
        snprintf(err, errlen, "%s=%s: no loaded object exports that function (begin and end must be exported by a "
                 "library loaded before profiling starts)", missing == o->begin ? "begin" : "end", missing);
        return -1;
    }
    if (window_begin_real == window_end_real) {
        snprintf(err, errlen, "begin=%s and end=%s are the same function: give two functions, the window's first call "
                 "and its last", o->begin, o->end);
        return -1;
    }
    got_hook hooks[] = {{begin_symbol, window_begin_real, (void *)window_begin_thunk, NULL, NULL},
                        {end_symbol, window_end_real, (void *)window_end_thunk, NULL, NULL}};
    native_hooks_set_window(hooks, 2);
    int hooked = native_hooks_install(NATIVE_HOOKS_WINDOW, false, err, errlen);
    if (hooked < 0) return -1;
    hooks_on = true;
    if (hooked == 0)
        log_warn("begin=%s,end=%s: no loaded object calls them through its import table yet; the window opens only "
                 "for calls from libraries that do (loaded now or later)", o->begin, o->end);
    return 0;
}

int window_hooks_start(const prof_options *o, char *err, size_t errlen) {
    sample_window_config c = {SAMPLE_WINDOW_NONE, o->nostop, NULL, NULL};
    if (o->ttsp && (o->begin[0] || o->end[0])) {
        snprintf(err, errlen, "ttsp is its own window: give either ttsp or begin=/end=, not both");
        return -1;
    }
    if (o->ttsp) {
        if (safepoint_variables(&c, err, errlen)) return -1;
        c.mode = SAMPLE_WINDOW_SAFEPOINT;
    } else if (o->begin[0] || o->end[0]) {
        if (call_hooks(o, err, errlen)) return -1;
        c.mode = SAMPLE_WINDOW_CALLS;
    }
    sample_window_configure(&c);
    return 0;
}

/* The windows' configuration stays until the next start: the recording still drains the last windows. */
void window_hooks_stop(void) {
    if (hooks_on) native_hooks_remove(NATIVE_HOOKS_WINDOW);
    hooks_on = false;
}
