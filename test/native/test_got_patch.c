/* got_patch: a library's calls to malloc reach a hook once its import slots are patched, reach malloc again
 * once they are restored, and nothing is left hooked; patching twice changes nothing; a slot bound to
 * another definition is left alone. The library is libnativemem.so, the integration tests' JNI library
 * (its allocation sites need no JVM). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "got_patch.h"
#include "page_protection.h"

#include <dlfcn.h>
#include <errno.h>
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static int hook_calls;

static void *counting_malloc(size_t size) {
    hook_calls++;
    return malloc(size);
}

static void test_patch_and_restore(void **state) {
    (void)state;
    void *lib = dlopen(TEST_NATIVEMEM_LIB, RTLD_NOW);
    assert_non_null(lib);
    void (*site_a)(void) = (void (*)(void))dlsym(lib, "nativemem_site_a");
    assert_non_null(site_a);
    got_hook hooks[] = {{"malloc", (void *)malloc, (void *)counting_malloc, NULL, NULL}};

    site_a();
    assert_int_equal(hook_calls, 0);
    got_patch_stats st;
    size_t hooked = got_patch_install(hooks, 1, &st);
    assert_true(hooked >= 1);
    assert_int_equal(st.patched, hooked);
    assert_int_equal(st.failed, 0);
    assert_int_equal(got_patch_count_hooked(hooks, 1), hooked);
    site_a();
    site_a();
    assert_int_equal(hook_calls, 2);

    /* Again: the slots hold the hook already, nothing is rewritten. */
    assert_int_equal(got_patch_install(hooks, 1, &st), hooked);
    assert_int_equal(st.patched, 0);

    assert_int_equal(got_patch_restore(hooks, 1), hooked);
    assert_int_equal(got_patch_count_hooked(hooks, 1), 0);
    site_a();
    assert_int_equal(hook_calls, 2);
    dlclose(lib);
}

/* A "real" function nobody resolves to: the library's resolved slots count as bound elsewhere and keep
 * their value (only slots still on their lazy-binding stub, in other objects, may be taken). */
static void test_foreign_binding_left_alone(void **state) {
    (void)state;
    void *lib = dlopen(TEST_NATIVEMEM_LIB, RTLD_NOW);
    assert_non_null(lib);
    void (*site_a)(void) = (void (*)(void))dlsym(lib, "nativemem_site_a");
    got_hook elsewhere[] = {{"malloc", (void *)&hook_calls, (void *)counting_malloc, NULL, NULL}};
    got_patch_stats st;
    int before = hook_calls;
    got_patch_install(elsewhere, 1, &st);
    assert_true(st.foreign >= 1);
    site_a();
    assert_int_equal(hook_calls, before);
    got_patch_restore(elsewhere, 1);
    assert_int_equal(got_patch_count_hooked(elsewhere, 1), 0);
    dlclose(lib);
}

/* The library's RELRO, whole pages only (what the loader protects). */
typedef struct {
    uintptr_t start, end;
} page_range;

static int find_relro(struct dl_phdr_info *info, size_t size, void *arg) {
    (void)size;
    const char *name = info->dlpi_name ? info->dlpi_name : "";
    const char *base = strrchr(name, '/');
    if (!base || strcmp(base + 1, "libnativemem.so") != 0) return 0;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_GNU_RELRO) continue;
        page_range *r = arg;
        r->start = (info->dlpi_addr + ph->p_vaddr) & ~(page - 1);
        r->end = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz) & ~(page - 1);
    }
    return 1;
}

static unsigned long long loader_adds(void) {
    unsigned long long adds = 0;
    got_patch_loader_counts(&adds, NULL);
    return adds;
}

static int protection_now(uintptr_t addr) {
    page_protections p;
    assert_true(page_protections_read(&p, "/proc/self/maps"));
    int prot = page_protections_of(&p, addr);
    page_protections_free(&p);
    return prot;
}

/* An object whose RELRO is still writable is one the loader has listed but not finished relocating (another
 * thread inside dlopen): its slots are left alone, its pages keep their protection (made read-only under the
 * loader, its next write would fault), and it is reported pending. Once the RELRO is read-only it is hooked,
 * and the page it wrote is read-only again. Waited for (got_patch_install_waited), a RELRO still writable is
 * someone else's doing: the slot is written and the page stays writable. */
static void test_object_being_relocated_is_left(void **state) {
    (void)state;
    void *lib = dlopen(TEST_NATIVEMEM_LIB, RTLD_NOW);
    assert_non_null(lib);
    void (*site_a)(void) = (void (*)(void))dlsym(lib, "nativemem_site_a");
    page_range relro = {0, 0};
    dl_iterate_phdr(find_relro, &relro);
    assert_true(relro.start < relro.end);
    assert_int_equal(protection_now(relro.start), PROT_READ);

    size_t len = relro.end - relro.start;
    assert_int_equal(mprotect((void *)relro.start, len, PROT_READ | PROT_WRITE), 0);
    got_hook hooks[] = {{"malloc", (void *)malloc, (void *)counting_malloc, NULL, NULL}};
    got_patch_stats st;
    int before = hook_calls;
    got_patch_install(hooks, 1, &st);
    assert_int_equal(protection_now(relro.start), PROT_READ | PROT_WRITE);
    site_a();
    assert_int_equal(hook_calls, before);
    assert_true(st.pending >= 1);

    /* Waited for: a RELRO writable for long was left so by someone else; the slot is written as it is. */
    assert_true(got_patch_install_waited(hooks, 1, loader_adds(), &st) >= 1);
    assert_int_equal(st.pending, 0);
    assert_int_equal(protection_now(relro.start), PROT_READ | PROT_WRITE);
    site_a();
    assert_int_equal(hook_calls, before + 1);
    got_patch_restore(hooks, 1);
    assert_int_equal(protection_now(relro.start), PROT_READ | PROT_WRITE);
    site_a();
    assert_int_equal(hook_calls, before + 1);

    assert_int_equal(mprotect((void *)relro.start, len, PROT_READ), 0);
    got_patch_install(hooks, 1, &st);
    assert_int_equal(st.pending, 0);
    assert_true(st.patched >= 1);
    assert_int_equal(protection_now(relro.start), PROT_READ);
    site_a();
    assert_int_equal(hook_calls, before + 2);
    got_patch_restore(hooks, 1);
    assert_int_equal(protection_now(relro.start), PROT_READ);
    dlclose(lib);
}

static atomic_int stop_loading;
static char lib_failed[] = "dlopen failed";
static atomic_long loads;

static void *load_and_unload(void *arg) {
    (void)arg;
    while (!atomic_load(&stop_loading)) {
        void *lib = dlopen(TEST_RELOCS_HEAVY_LIB, RTLD_NOW);
        if (!lib) {
            print_error("dlopen: %s\n", dlerror());
            return lib_failed;
        }
        dlclose(lib);
        atomic_fetch_add(&loads, 1);
    }
    return NULL;
}

/* Walks while another thread loads and unloads a library with 3000 relocations: they meet it half relocated,
 * or listed with its pages read before it was, again and again (pending). No walk may write a page the loader
 * still writes, or close one under it: checked, without the relocation check this process crashes within a
 * second (the loader, or the walk's own write, faults). */
static void fault_ends_the_test(int signo) {
    static const char message[] = "test_walks_during_loads: a fault while loading or walking\n";
    if (write(2, message, sizeof(message) - 1) < 0) _exit(128 + signo);
    _exit(128 + signo);
}

static void test_walks_during_loads(void **state) {
    (void)state;
    /* A fault must end the process here: cmocka's own handler would leave the test by longjmp, with the
     * loader's lock still held, and the exit would wait for it for ever. */
    struct sigaction fail, saved_segv, saved_bus;
    memset(&fail, 0, sizeof(fail));
    fail.sa_handler = fault_ends_the_test;
    sigaction(SIGSEGV, &fail, &saved_segv);
    sigaction(SIGBUS, &fail, &saved_bus);
    got_hook hooks[] = {{"malloc", (void *)malloc, (void *)counting_malloc, NULL, NULL}};
    pthread_t loader;
    assert_int_equal(pthread_create(&loader, NULL, load_and_unload, NULL), 0);
    long walks = 0, pending_walks = 0, patched = 0;
    time_t end = time(NULL) + 2;
    while (time(NULL) < end) {
        got_patch_stats st;
        got_patch_install(hooks, 1, &st);
        patched += (long)st.patched;
        pending_walks += st.pending > 0;
        got_patch_restore(hooks, 1);
        walks++;
    }
    atomic_store(&stop_loading, 1);
    void *failed = NULL;
    pthread_join(loader, &failed);
    assert_null(failed);
    print_message("%ld loads, %ld walks (%ld met an object pending), %ld slots patched\n", atomic_load(&loads), walks,
                  pending_walks, patched);
    sigaction(SIGSEGV, &saved_segv, NULL);
    sigaction(SIGBUS, &saved_bus, NULL);
    assert_true(atomic_load(&loads) > 10);
    assert_true(pending_walks > 0);
    assert_int_equal(got_patch_count_hooked(hooks, 1), 0);
}

static int rw_variable = 1;

/* Asked of the kernel (PROCMAP_QUERY, Linux 6.11+): a variable's page is read-write, a function's read and
 * execute, an address nobody maps has none; the answers match the maps file's. */
static void test_page_protections_live(void **state) {
    (void)state;
    page_protections live, file;
    if (!page_protections_live(&live)) {
        print_message("PROCMAP_QUERY not supported by this kernel: the maps file is read instead\n");
        assert_int_equal(live.query_fd, -1);
        return;
    }
    assert_true(page_protections_read(&file, "/proc/self/maps"));
    uintptr_t addrs[] = {(uintptr_t)&rw_variable, (uintptr_t)&test_page_protections_live, (uintptr_t)&errno, 4096};
    assert_int_equal(page_protections_of(&live, addrs[0]), PROT_READ | PROT_WRITE);
    assert_int_equal(page_protections_of(&live, addrs[1]), PROT_READ | PROT_EXEC);
    assert_int_equal(page_protections_of(&live, addrs[3]), -1);
    for (size_t i = 0; i < sizeof(addrs) / sizeof(*addrs); i++)
        assert_int_equal(page_protections_of(&live, addrs[i]), page_protections_of(&file, addrs[i]));
    page_protections_free(&file);
    page_protections_free(&live);
    assert_int_equal(live.query_fd, -1);
}

/* The maps table: protections from the perms column, a long path on more than one read, gaps. */
static void test_page_protections_parse(void **state) {
    (void)state;
    char path[] = "/tmp/test_got_patch_mapsXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "1000-3000 r--p 00000000 00:00 0 /lib/a.so\n");
    fprintf(f, "3000-4000 rw-p 00000000 00:00 0 /");
    for (int i = 0; i < 2000; i++) fputc('x', f);
    fprintf(f, "\n5000-6000 r-xp 00000000 00:00 0\n7000-8000 ---p 00000000 00:00 0 [guard]\n");
    fclose(f);
    page_protections p;
    assert_true(page_protections_read(&p, path));
    unlink(path);
    assert_int_equal(p.count, 4);
    assert_int_equal(page_protections_of(&p, 0x1000), PROT_READ);
    assert_int_equal(page_protections_of(&p, 0x2fff), PROT_READ);
    assert_int_equal(page_protections_of(&p, 0x3008), PROT_READ | PROT_WRITE);
    assert_int_equal(page_protections_of(&p, 0x4000), -1);
    assert_int_equal(page_protections_of(&p, 0x5800), PROT_READ | PROT_EXEC);
    assert_int_equal(page_protections_of(&p, 0x7000), 0);
    assert_int_equal(page_protections_of(&p, 0x8000), -1);
    assert_int_equal(page_protections_of(&p, 0x10), -1);
    page_protections_free(&p);
    assert_false(page_protections_read(&p, "/nonexistent/maps"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_patch_and_restore),
        cmocka_unit_test(test_foreign_binding_left_alone),
        cmocka_unit_test(test_object_being_relocated_is_left),
        cmocka_unit_test(test_walks_during_loads),
        cmocka_unit_test(test_page_protections_parse),
        cmocka_unit_test(test_page_protections_live),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
