/* vm_images: the JVM's own mapped files are found in /proc/self/maps and made readable without system
 * calls; other memory keeps the checked path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "safe_read.h"
#include "vm_images.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HEAP_LOW 0x80000000UL
#define HEAP_HIGH 0x100000000UL

static bool permanent(const char *path, uintptr_t lo, uintptr_t hi) {
    return vm_images_permanent(path, lo, hi, HEAP_LOW, HEAP_HIGH);
}

static void test_which_mappings(void **state) {
    (void)state;
    assert_true(permanent("/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so", 0x7f0000000000, 0x7f0000100000));
    assert_true(permanent("/usr/lib/jvm/java-17-openjdk-amd64/lib/server/classes.jsa", 0x800000000, 0x800c00000));
    assert_true(permanent("/opt/jdk/lib/server/classes_nocoops.jsa", 0x7f0000000000, 0x7f0000100000));
    assert_true(permanent("/opt/jdk/lib/server/classes.jsa", 0x7ff00000, HEAP_LOW));   /* just below the heap */
    /* Archived Java objects mapped into the heap: G1 may free and uncommit them. */
    assert_false(permanent("/opt/jdk/lib/server/classes.jsa", 0xffe00000, HEAP_HIGH));
    assert_false(permanent("/opt/jdk/lib/server/classes.jsa", 0x7ff00000, HEAP_LOW + 0x1000));   /* overlaps */
    /* Without the heap's range, no archive mapping is trusted. */
    assert_false(vm_images_permanent("/opt/jdk/lib/server/classes.jsa", 0x800000000, 0x800c00000, 0, 0));
    assert_true(vm_images_permanent("/opt/jdk/lib/server/libjvm.so", 0x7f0000000000, 0x7f0000100000, 0, 0));
    assert_false(permanent("/opt/jdk/lib/server/libjvm.so.debug", 0x7f0000000000, 0x7f0000100000));
    assert_false(permanent("/opt/app/notlibjvm.so", 0x7f0000000000, 0x7f0000100000));
    assert_false(permanent("/opt/app/libjava.so", 0x7f0000000000, 0x7f0000100000));
    assert_false(permanent("[heap]", 0x1000000, 0x2000000));
    assert_false(permanent("", 0x1000000, 0x2000000));
}

/* An archive-like file of three pages, mapped read-only: the words it holds are i * 7. */
static uintptr_t *map_archive(const char *path, size_t bytes) {
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    uintptr_t *words = malloc(bytes);
    for (size_t i = 0; i < bytes / sizeof(uintptr_t); i++) words[i] = i * 7;
    assert_int_equal(write(fd, words, bytes), (ssize_t)bytes);
    free(words);
    void *p = mmap(NULL, bytes, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    assert_true(p != MAP_FAILED);
    return p;
}

static void test_registers_mapped_vm_files(void **state) {
    (void)state;
    char path[] = "/tmp/test_vm_images_XXXXXX";
    assert_non_null(mkdtemp(path));
    char file[64];
    snprintf(file, sizeof(file), "%s/classes.jsa", path);
    size_t bytes = 3 * (size_t)sysconf(_SC_PAGESIZE);
    uintptr_t *archive = map_archive(file, bytes);
    unlink(file);
    rmdir(path);
#ifdef TEST_LIBJVM
    void *jvm = dlopen(TEST_LIBJVM, RTLD_LAZY | RTLD_LOCAL);
    assert_non_null(jvm);
    void *entry = dlsym(jvm, "JNI_CreateJavaVM");
    assert_non_null(entry);
    int expected = 2;
#else
    int expected = 1;
#endif
    /* A heap range far from both mappings: the archive is outside it. */
    int added = vm_images_register(0x1000, 0x2000);
    assert_true(added >= expected);
    assert_int_equal(vm_images_register(0x1000, 0x2000), 0);   /* once per process */

    uintptr_t v = 0;
    size_t last = bytes / sizeof(uintptr_t) - 1;
    assert_true(safe_read_word((uintptr_t)&archive[last], &v));
    assert_int_equal(v, last * 7);
    assert_false(safe_read_word((uintptr_t)archive + bytes - 4, &v));   /* unaligned */
#ifdef TEST_LIBJVM
    uintptr_t at = (uintptr_t)entry & ~(uintptr_t)7, direct;
    memcpy(&direct, (const void *)at, sizeof(direct));
    assert_true(safe_read_word(at, &v));
    assert_int_equal(v, direct);
#endif
    /* Memory that goes away is still refused: it is not one of the VM's files. */
    void *gone = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(gone != MAP_FAILED);
    munmap(gone, 4096);
    assert_false(safe_read_word((uintptr_t)gone, &v));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_which_mappings),
        cmocka_unit_test(test_registers_mapped_vm_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
