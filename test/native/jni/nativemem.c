/*
 * A JNI library for the native memory and lock tests, called from test/java/NativeMem.java:
 *   NativeMem.allocate -> Java_NativeMem_allocate -> nativemem_site_a (malloc, 3000 bytes, freed)
 *                                                 -> nativemem_site_b (calloc, 2 x 250 bytes, freed)
 *   NativeMem.leak -> Java_NativeMem_leak -> nativemem_leak_site (malloc, 777 bytes, kept)
 *   NativeMem.contend -> Java_NativeMem_contend -> nativemem_lock_site (pthread_mutex_lock, held 1 ms)
 * and reports whether its own import entries for malloc hold the real function (no hook left behind).
 * Built without inlining or sibling calls so that every frame exists.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <jni.h>
#include <link.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SITE __attribute__((noinline, visibility("default")))

static void *volatile keep;

SITE void nativemem_site_a(void) {
    void *p = malloc(3000);
    keep = p;
    free(p);
}

SITE void nativemem_site_b(void) {
    void *p = calloc(2, 250);
    keep = p;
    free(p);
}

SITE void nativemem_leak_site(void) {
    keep = malloc(777);
}

/* One call of site A and two of site B per round: 3000 bytes in A for every 1000 in B. */
JNIEXPORT void JNICALL Java_NativeMem_allocate(JNIEnv *env, jclass cls, jint rounds) {
    (void)env, (void)cls;
    for (jint i = 0; i < rounds; i++) {
        nativemem_site_a();
        nativemem_site_b();
        nativemem_site_b();
    }
}

JNIEXPORT void JNICALL Java_NativeMem_leak(JNIEnv *env, jclass cls, jint blocks) {
    (void)env, (void)cls;
    for (jint i = 0; i < blocks; i++) nativemem_leak_site();
}

static pthread_mutex_t contended = PTHREAD_MUTEX_INITIALIZER;

SITE void nativemem_lock_site(void) {
    pthread_mutex_lock(&contended);
    struct timespec held = {0, 1000000};
    nanosleep(&held, NULL);
    pthread_mutex_unlock(&contended);
}

JNIEXPORT void JNICALL Java_NativeMem_contend(JNIEnv *env, jclass cls, jint rounds) {
    (void)env, (void)cls;
    for (jint i = 0; i < rounds; i++) nativemem_lock_site();
}

/* This library's own GOT slots for malloc (PLT and address-taken) and whether each holds the real malloc. */
typedef struct {
    int slots, real;
} slot_check;

static int check_self(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size;
    slot_check *c = arg;
    uintptr_t self = (uintptr_t)&check_self;
    bool mine = false;
    const ElfW(Dyn) *dyn = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && self >= start && self < start + ph->p_memsz) mine = true;
        if (ph->p_type == PT_DYNAMIC) dyn = (const ElfW(Dyn) *)start;
    }
    if (!mine || !dyn) return 0;
    const ElfW(Sym) *symtab = NULL;
    const char *strtab = NULL;
    const ElfW(Rela) *rel[2] = {NULL, NULL};
    size_t relsz[2] = {0, 0};
    for (; dyn->d_tag != DT_NULL; dyn++) {
        if (dyn->d_tag == DT_SYMTAB) symtab = (const ElfW(Sym) *)dyn->d_un.d_ptr;
        if (dyn->d_tag == DT_STRTAB) strtab = (const char *)dyn->d_un.d_ptr;
        if (dyn->d_tag == DT_JMPREL) rel[0] = (const ElfW(Rela) *)dyn->d_un.d_ptr;
        if (dyn->d_tag == DT_PLTRELSZ) relsz[0] = dyn->d_un.d_val;
        if (dyn->d_tag == DT_RELA) rel[1] = (const ElfW(Rela) *)dyn->d_un.d_ptr;
        if (dyn->d_tag == DT_RELASZ) relsz[1] = dyn->d_un.d_val;
    }
    void *real = dlsym(RTLD_DEFAULT, "malloc");
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; rel[k] && i < relsz[k] / sizeof(ElfW(Rela)); i++) {
            unsigned sym = (unsigned)ELF64_R_SYM(rel[k][i].r_info);
            if (!sym || strcmp(strtab + symtab[sym].st_name, "malloc") != 0) continue;
            c->slots++;
            if (*(void **)(info->dlpi_addr + rel[k][i].r_offset) == real) c->real++;
        }
    }
    return 1;
}

/* How many of this library's malloc import slots do NOT hold the real malloc (hooked), or -1 when it has
 * none to check. */
JNIEXPORT jint JNICALL Java_NativeMem_hookedSlots(JNIEnv *env, jclass cls) {
    (void)env, (void)cls;
    void *(*volatile taken)(size_t) = malloc;   /* an address-taken import: a GLOB_DAT slot as well */
    keep = (void *)taken;
    slot_check c = {0, 0};
    dl_iterate_phdr(check_self, &c);
    return c.slots ? c.slots - c.real : -1;
}

/* The benchmark's malloc-heavy work (bench/java/BenchNativeMem.java): 'pairs' allocations of 16 to 4096
 * bytes, each freed after the next one, from a stack a few native frames deep. */
SITE uint64_t churn_leaf(int pairs) {
    uint64_t sum = 0;
    void *previous = NULL;
    uint32_t x = 2463534242u;
    for (int i = 0; i < pairs; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        unsigned char *p = malloc(16 + x % 4081);
        p[0] = (unsigned char)i;
        sum += p[0];
        free(previous);
        previous = p;
    }
    free(previous);
    return sum;
}

SITE uint64_t churn_middle(int pairs) {
    return churn_leaf(pairs) + 1;
}

JNIEXPORT jlong JNICALL Java_BenchNativeMem_churn(JNIEnv *env, jclass cls, jint pairs) {
    (void)env, (void)cls;
    return (jlong)churn_middle(pairs);
}
