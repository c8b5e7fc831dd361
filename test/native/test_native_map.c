/* Unit tests of the map of native objects, on this test process itself. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "elf_reader.h"
#include "frame_names.h"
#include "jvm.h"
#include "native_map.h"
#include "test_maps.h"

/* frame_names' Java path needs a JVM; these tests name native frames only. */
int jvm_method_name(jmethodID method, names_style style, char *buf, size_t len) {
    (void)method, (void)style, (void)buf, (void)len;
    return -1;
}

static char buf[512];
static const char *lib;

__attribute__((noinline)) int native_map_probe(int x);
__attribute__((noinline)) int native_map_probe(int x) { return x * 3 + 1; }

/* library: the start of the object's file name (maps shows the real file: libz.so.1.2.13). */
static void expect_name(const void *pc, const char *name, const char *library) {
    lib = NULL;
    assert_true(native_map_name((uintptr_t)pc, buf, sizeof(buf), &lib));
    assert_non_null(lib);
    assert_memory_equal(lib, library, strlen(library));
    if (strncmp(name, "lib", 3) == 0) assert_memory_equal(buf, name, strlen(name));
    else assert_string_equal(buf, name);
}

static void test_self(void **state) {
    (void)state;
    assert_true(native_map_refresh() >= 3);  /* at least this executable, libc, ld.so */
    expect_name((const char *)native_map_probe + 1, "native_map_probe", "test_native_map");
    expect_name((const void *)getpid, "getpid", "libc.so.6");
    /* A C++ function of libstdc++ (linked for the demangler): demangled, without parameters. */
    void *dtor = dlsym(RTLD_DEFAULT, "_ZNSt9exceptionD1Ev");
    if (dtor) expect_name(dtor, "std::exception::~exception", "libstdc++.so");
    assert_true(native_map_contains((uintptr_t)native_map_probe));
    /* The vDSO is read from memory: its functions have names too. */
    void *vdso = dlopen("linux-vdso.so.1", RTLD_NOW | RTLD_NOLOAD);
    void *gettime = vdso ? dlsym(vdso, "__vdso_clock_gettime") : NULL;
    if (gettime) expect_name(gettime, "clock_gettime", "[vdso]");
    assert_non_null(native_map_unwind((uintptr_t)getpid));
    const native_object *o = native_map_lookup((uintptr_t)getpid);
    assert_non_null(o);
    assert_string_equal(o->name, "libc.so.6");
    assert_true(o->text_start <= (uintptr_t)getpid && (uintptr_t)getpid < o->text_end);
    assert_true(symtab_count(o->symbols) > 1000);
    assert_true(dwarf_row_count(o->unwind) > 1000);
    native_map_stats st = native_map_get_stats();
    assert_true(st.objects >= 3 && st.symbols > 1000 && st.unwind_rows > 1000);
    /* Nothing to load the second time. */
    assert_int_equal(native_map_refresh(), 0);
}

static void test_not_elf_code(void **state) {
    (void)state;
    native_map_refresh();
    int on_stack = 0;
    void *heap = malloc(64);
    /* Anonymous executable memory, like the JVM's code cache: "not in any object". */
    void *jit = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(jit != MAP_FAILED);
    native_map_refresh();
    assert_false(native_map_contains((uintptr_t)&on_stack));
    assert_false(native_map_contains((uintptr_t)heap));
    assert_false(native_map_contains((uintptr_t)jit));
    assert_false(native_map_contains(0));
    assert_false(native_map_contains(UINTPTR_MAX));
    assert_null(native_map_unwind((uintptr_t)jit));
    assert_false(native_map_name((uintptr_t)jit, buf, sizeof(buf), &lib));
    munmap(jit, 4096);
    /* Executable mappings that are not ELF objects: a data file, and memfd code (how some JITs map theirs). */
    char path[] = "/tmp/libprof-notelf-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    static const char text[4096] = "not an ELF file";
    assert_int_equal(write(fd, text, sizeof(text)), sizeof(text));
    void *data = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
    int mfd = memfd_create("jit-code", 0);
    assert_int_equal(write(mfd, text, sizeof(text)), sizeof(text));
    void *code = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_SHARED, mfd, 0);
    native_map_refresh();
    if (data == MAP_FAILED) print_message("%s: no executable mapping (noexec?): not tested\n", path);
    else assert_false(native_map_contains((uintptr_t)data));
    if (code != MAP_FAILED) assert_false(native_map_contains((uintptr_t)code));
    if (data != MAP_FAILED) munmap(data, 4096);
    if (code != MAP_FAILED) munmap(code, 4096);
    close(fd);
    close(mfd);
    unlink(path);
    free(heap);
}

static void test_dlopen_after_refresh(void **state) {
    (void)state;
    assert_null(dlopen("libz.so.1", RTLD_NOW | RTLD_NOLOAD));  /* the test must load it itself */
    native_map_refresh();
    void *z = dlopen("libz.so.1", RTLD_NOW);
    assert_non_null(z);
    void *deflate = dlsym(z, "deflate");
    assert_false(native_map_contains((uintptr_t)deflate));  /* not refreshed yet */
    assert_false(native_map_name((uintptr_t)deflate, buf, sizeof(buf), &lib));
    assert_true(native_map_refresh() >= 1);
    expect_name(deflate, "deflate", "libz.so");
    assert_non_null(native_map_unwind((uintptr_t)deflate));

    /* An address in libz's code without a symbol (its PLT): the library's name. */
    char path[PATH_MAX];
    uint64_t start = 0, offset = 0, bias = 0;
    assert_true(test_maps_find("libz.so", path, sizeof(path), &start, &offset));
    elf_image *img = elf_open(path, NULL, 0);
    assert_non_null(img);
    elf_section plt;
    assert_true(elf_load_bias(img, start, offset, &bias));
    if (elf_section_by_name(img, ".plt", &plt)) expect_name((const void *)(plt.addr + bias + 0x10), "libz.so",
                                                            "libz.so");
    elf_close(img);
    assert_int_equal(native_map_refresh_from("/nonexistent/maps"), -1);
    /* A failed refresh keeps the published map. */
    expect_name(deflate, "deflate", "libz.so");
}

/* Lookups on one thread while another loads and unloads a library and refreshes: the published arrays must
 * stay valid under the reader (run under ASan, a freed array would show). */
static atomic_bool stop_readers;
static atomic_long reader_hits;
static _Atomic uintptr_t reader_pc;  /* where the library's code is (or was) */

static void *reader(void *arg) {
    (void)arg;
    long hits = 0;
    while (!atomic_load(&stop_readers)) {
        uintptr_t pcs[2] = {(uintptr_t)getpid, atomic_load(&reader_pc)};
        for (int i = 0; i < 2; i++) {
            hits += native_map_contains(pcs[i]);
            hits += native_map_unwind(pcs[i]) != NULL;
        }
    }
    atomic_store(&reader_hits, hits);
    return NULL;
}

/* A library this process does not use otherwise, so that dlclose really unmaps it. */
static const char *unloadable_library(void) {
    static const char *const candidates[] = {"liblzma.so.5", "libbz2.so.1.0", "libzstd.so.1", "libmd.so.0",
                                              "libpcre2-8.so.0"};
    for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++) {
        if (dlopen(candidates[i], RTLD_NOW | RTLD_NOLOAD)) continue;
        void *h = dlopen(candidates[i], RTLD_NOW);
        if (!h) continue;
        dlclose(h);
        if (!dlopen(candidates[i], RTLD_NOW | RTLD_NOLOAD)) return candidates[i];
    }
    return NULL;
}

static void test_refresh_under_readers(void **state) {
    (void)state;
    const char *name = unloadable_library();
    if (!name) skip();
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, reader, NULL), 0);
    int loaded_seen = 0, unloaded_seen = 0;
    for (int i = 0; i < 100; i++) {
        void *h = dlopen(name, RTLD_NOW);
        char path[PATH_MAX];
        uint64_t start = 0, offset = 0;
        assert_true(test_maps_find(name, path, sizeof(path), &start, &offset));
        uintptr_t pc = (uintptr_t)start + 64;  /* in its code, wherever the loader put it this time */
        atomic_store(&reader_pc, pc);
        native_map_refresh();
        loaded_seen += native_map_contains(pc);
        dlclose(h);
        native_map_refresh();
        unloaded_seen += !native_map_contains(pc);
    }
    atomic_store(&stop_readers, true);
    pthread_join(t, NULL);
    assert_true(atomic_load(&reader_hits) > 0);
    /* Each refresh published the change. */
    print_message("%s: in the map after %d of 100 loads, out after %d of 100 unloads\n", name, loaded_seen,
                  unloaded_seen);
    assert_int_equal(unloaded_seen, 100);
    assert_int_equal(loaded_seen, 100);
}

/* libjvm loaded into this process (no JVM started): its C++ functions get demangled names and rows. */
static void test_libjvm(void **state) {
    (void)state;
#ifdef TEST_LIBJVM
    void *jvm = dlopen(TEST_LIBJVM, RTLD_NOW | RTLD_LOCAL);
    if (!jvm) {
        print_message("%s: %s\n", TEST_LIBJVM, dlerror());
        skip();
    }
    native_map_refresh();
    void *create = dlsym(jvm, "JNI_CreateJavaVM");
    assert_non_null(create);
    expect_name(create, "JNI_CreateJavaVM", "libjvm.so");
    const native_object *o = native_map_lookup((uintptr_t)create);
    assert_non_null(o);
    assert_true(symtab_count(o->symbols) > 10000);
    uint64_t start;
    /* Not exported (no .dynsym entry): only a full symbol table names it. */
    assert_true(symtab_lookup_name(o->symbols, "_ZN13CompileBroker20compiler_thread_loopEv", &start));
    expect_name((const void *)(start + o->bias + 4), "CompileBroker::compiler_thread_loop", "libjvm.so");
    /* jni_invoke_static exists only as GCC clones (.constprop.0/.1): every output names the function. */
    assert_true(symtab_lookup_name(o->symbols, "_ZL17jni_invoke_staticP7JNIEnv_P9JavaValueP8_jobject11JNICallType"
                                   "P10_jmethodIDP18JNI_ArgumentPusherP10JavaThread.constprop.1", &start));
    char name[512];
    frame_names_native((uintptr_t)(start + o->bias + 4), true, name, sizeof(name), NULL);
    assert_string_equal(name, "libjvm.so`jni_invoke_static");
    const unwind_row *row = native_map_unwind(start + o->bias + 4);
    assert_non_null(row);
    assert_true(row->cfa_reg == UNWIND_SP || row->cfa_reg == UNWIND_FP);
    print_message("libjvm: %zu symbols, %zu unwind rows\n", symtab_count(o->symbols), dwarf_row_count(o->unwind));
#else
    skip();
#endif
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_self),
        cmocka_unit_test(test_not_elf_code),
        cmocka_unit_test(test_dlopen_after_refresh),
        cmocka_unit_test(test_refresh_under_readers),
        cmocka_unit_test(test_libjvm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
