/*
 * native_burn: a program with no JVM, profiled by libprof (test/native/nonjava/nonjava.cmake drives it).
 * Its CPU time goes to two functions in a known split, measured on its own thread CPU clock and printed, so
 * a profile's shares can be held against the truth. Usage:
 *   native_burn burn               burn (profiled from outside, by LD_PRELOAD), print "truth HEAVY LIGHT" (ns)
 *   native_burn api LIBPROF OUT    the C API from the program itself: start, burn, dump to OUT (collapsed),
 *                                  stop with the profile through the writer; checks both against the truth
 *   native_burn malloc             allocate from two call sites (alloc_big, alloc_small), then free all
 *   native_burn threads            burn on two threads it creates, print "truth HEAVY LIGHT" (ns)
 *   native_burn fork               fork a child that burns and calls exit(), then burn, print the truth
 *   native_burn refuse LIBPROF     Java-only requests must be refused, naming what they asked for
 *   native_burn host LIBPROF LIBJVM CLASSES  load libjvm RTLD_LOCAL, create a JVM, profile Java code in it
 *   native_burn jvm_later LIBJVM CLASSES      (under LD_PRELOAD) burn natively, then create a JVM and run Java
 * Prints OK ... or FAIL: ... (exit 1).
 */
#define _GNU_SOURCE
#include "host_check.h"

#include <dlfcn.h>
#include <jni.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

typedef void (*writer_fn)(const char *buf, size_t size, void *arg);
typedef int (*init_fn)(void);
typedef int (*execute_fn)(const char *command, writer_fn writer, void *arg);
typedef const char *(*error_fn)(void);

static init_fn prof_init;
static execute_fn prof_execute;
static error_fn prof_error;


static uint64_t cpu_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static volatile double sink;

/* Spins for 'ns' of this thread's CPU time. noinline: each must stay a frame of its own. */
__attribute__((noinline)) static void spin(uint64_t ns) {
    uint64_t end = cpu_ns() + ns;
    double x = 1;
    while (cpu_ns() < end)
        for (int i = 0; i < 1000; i++) x = x * 1.0000001 + 0.5;
    sink = x;
}

__attribute__((noinline)) void burn_heavy(uint64_t ns) {
    spin(ns);
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void burn_light(uint64_t ns) {
    spin(ns);
    __asm__ volatile("" ::: "memory");
}

/* 'total_ms' of CPU, three quarters in burn_heavy, in 20 ms turns. Reports what each really took. */
static void burn(int total_ms, uint64_t *heavy, uint64_t *light) {
    *heavy = *light = 0;
    for (int t = 0; t < total_ms / 20; t++) {
        uint64_t t0 = cpu_ns();
        burn_heavy(15000000);
        uint64_t t1 = cpu_ns();
        burn_light(5000000);
        *heavy += t1 - t0;
        *light += cpu_ns() - t1;
    }
}


/* Samples of the collapsed lines whose stack holds 'frame' as a whole frame name. */
static long samples_with(const char *collapsed, const char *frame) {
    long with = 0;
    size_t flen = strlen(frame);
    for (const char *line = collapsed; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        const char *space = memrchr(line, ' ', n);
        if (space) {
            for (const char *p = line; p + flen <= space; p++) {
                bool starts = p == line || p[-1] == ';';
                bool ends = p + flen == space || p[flen] == ';';
                if (starts && ends && memcmp(p, frame, flen) == 0) {
                    with += strtol(space + 1, NULL, 10);
                    break;
                }
            }
        }
        line = end ? end + 1 : NULL;
    }
    return with;
}

/* burn_heavy's share of the two functions' samples against its share of their CPU time. */
static void check_split(const char *what, const char *collapsed, uint64_t heavy, uint64_t light) {
    long h = samples_with(collapsed, "burn_heavy"), l = samples_with(collapsed, "burn_light");
    double truth = (double)heavy / (double)(heavy + light);
    double share = h + l ? (double)h / (double)(h + l) : 0;
    char detail[256];
    snprintf(detail, sizeof(detail), "burn_heavy %ld, burn_light %ld samples: share %.3f, truth %.3f", h, l, share,
             truth);
    if (h + l < 200 || share < truth - 0.08 || share > truth + 0.08) fail(what, detail);
    printf("%s: %s\n", what, detail);
}

static void *load_profiler(const char *path) {
    void *lib = dlopen(path, RTLD_NOW);
    if (!lib) fail("dlopen", dlerror());
    prof_init = (init_fn)dlsym(lib, "libprof_init");
    prof_execute = (execute_fn)dlsym(lib, "libprof_execute");
    prof_error = (error_fn)dlsym(lib, "libprof_last_error");
    if (!prof_init || !prof_execute || !prof_error) fail("libprof's C API not exported", path);
    if (prof_init()) fail("libprof_init with no JVM", prof_error());
    return lib;
}

static void run(const char *command, buffer *out) {
    if (prof_execute(command, out ? collect : NULL, out)) fail(command, prof_error());
}

static char *read_file(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) fail("cannot read", path);
    buffer b = {NULL, 0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) collect(chunk, n, &b);
    fclose(f);
    return b.text ? b.text : strdup("");
}

static int api(const char *libprof, const char *out) {
    load_profiler(libprof);
    run("start,event=cpu,interval=1ms", NULL);
    uint64_t heavy, light;
    burn(1200, &heavy, &light);
    char dump[2048];
    snprintf(dump, sizeof(dump), "dump,collapsed,file=%s", out);
    run(dump, NULL);
    buffer status = {NULL, 0};
    run("status", &status);
    if (!status.text || !strstr(status.text, "running")) fail("status while running", status.text);
    buffer profile = {NULL, 0};
    run("stop,collapsed", &profile);
    check_split("file= dump", read_file(out), heavy, light);
    check_split("stop through the writer", profile.text, heavy, light);
    if (prof_execute("stop", NULL, NULL) == 0) fail("a second stop succeeded", NULL);
    printf("OK\n");
    return 0;
}

static int refuse(const char *libprof) {
    load_profiler(libprof);
    const char *requests[][2] = {{"start,event=alloc", "alloc"}, {"start,event=cpu,lock=10us", "lock"},
                                 {"start,event=java.lang.Thread.sleep", "Java method"},
                                 {"start,features=agct", "features=agct"}, {"start,jfrsync,file=x.jfr", "jfrsync"}};
    for (size_t i = 0; i < sizeof(requests) / sizeof(requests[0]); i++) {
        if (prof_execute(requests[i][0], NULL, NULL) == 0) fail("accepted with no JVM", requests[i][0]);
        if (!strstr(prof_error(), requests[i][1]) || !strstr(prof_error(), "Java VM")) fail(requests[i][0], prof_error());
        printf("%s: %s\n", requests[i][0], prof_error());
    }
    /* Nothing was left running: a start that needs no JVM still works. */
    run("start,event=itimer", NULL);
    run("stop", NULL);
    printf("OK\n");
    return 0;
}

__attribute__((noinline)) void *alloc_big(void) {
    return malloc(3000017);
}

__attribute__((noinline)) void *alloc_small(void) {
    return malloc(1000003);
}

/* malloc's address in initialised data: a dynamic relocation of the data itself, not an import slot. */
static void *(*volatile malloc_pointer)(size_t) = malloc;

__attribute__((noinline)) void *alloc_by_pointer(void) {
    return malloc_pointer(2000003);
}

static int allocate(void) {
    void *blocks[60];
    for (int i = 0; i < 60; i += 3) {
        blocks[i] = alloc_big();
        blocks[i + 1] = alloc_small();
        blocks[i + 2] = alloc_by_pointer();
    }
    for (int i = 0; i < 60; i++) free(blocks[i]);
    printf("OK allocated 20 x 3000017 in alloc_big, 20 x 1000003 in alloc_small, 20 x 2000003 in alloc_by_pointer\n");
    return 0;
}

typedef struct {
    void (*fn)(uint64_t);
    uint64_t ns, used;
} burner;

static void *run_burner(void *arg) {
    burner *b = arg;
    /* A new thread is armed within a listing period (10 ms, later on a loaded machine): the split is
     * measured from after that. */
    usleep(200000);
    uint64_t t0 = cpu_ns();
    b->fn(b->ns);
    b->used = cpu_ns() - t0;
    return NULL;
}

/* Threads created after the session started (at load): burn_heavy on one, burn_light on another. */
static int threads(void) {
    burner heavy = {burn_heavy, 900000000, 0}, light = {burn_light, 300000000, 0};
    pthread_t a, b;
    if (pthread_create(&a, NULL, run_burner, &heavy) || pthread_create(&b, NULL, run_burner, &light))
        fail("pthread_create", NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("truth %llu %llu\n", (unsigned long long)heavy.used, (unsigned long long)light.used);
    return 0;
}

/* A child forked during the session that leaves by exit() (its exit handlers run) must end at once, and the
 * parent's profile still be written. */
static int fork_child(void) {
    uint64_t heavy, light;
    pid_t child = fork();
    if (child < 0) fail("fork", NULL);
    if (child == 0) {
        burn(100, &heavy, &light);
        exit(0);
    }
    int status;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) fail("child", NULL);
    burn(600, &heavy, &light);
    printf("truth %llu %llu\n", (unsigned long long)heavy, (unsigned long long)light);
    return 0;
}

typedef jint (*create_vm_fn)(JavaVM **, void **, void *);

/* A JVM in libjvm loaded RTLD_LOCAL, as a native host that finds the JDK at run time loads it. */
static JNIEnv *create_jvm(const char *libjvm, const char *classes, JavaVM **vm) {
    void *jvm_lib = dlopen(libjvm, RTLD_NOW | RTLD_LOCAL);
    if (!jvm_lib) fail("dlopen libjvm", dlerror());
    create_vm_fn create = (create_vm_fn)dlsym(jvm_lib, "JNI_CreateJavaVM");
    char classpath[4096];
    snprintf(classpath, sizeof(classpath), "-Djava.class.path=%s", classes);
    JavaVMOption options[] = {{classpath, NULL}};
    JavaVMInitArgs args = {JNI_VERSION_1_8, 1, options, JNI_FALSE};
    JNIEnv *env;
    if (!create || create(vm, (void **)&env, &args) != JNI_OK) fail("JNI_CreateJavaVM", NULL);
    return env;
}

static void call_burn(JNIEnv *env, const char *classes, int ms) {
    jclass c = (*env)->FindClass(env, "ApiBurn");
    jmethodID m = c ? (*env)->GetStaticMethodID(env, c, "burn", "(I)V") : NULL;
    if (!m) fail("ApiBurn.burn not found", classes);
    (*env)->CallStaticVoidMethod(env, c, m, ms);
}

/* Of the main thread's samples in Java (below the JNI call), those in ApiBurn.burn. */
static void check_java(const char *what, const char *collapsed) {
    long java = samples_with(collapsed, "ApiBurn.burn"), main_thread = samples_with(collapsed, "jni_CallStaticVoidMethod");
    long bare = samples_with(collapsed, "[non_Java_thread]");
    char detail[160];
    snprintf(detail, sizeof(detail), "%ld of %ld samples of the main thread in ApiBurn.burn, %ld bare [non_Java_thread]",
             java, main_thread, bare);
    if (main_thread < 100 || java * 100 < main_thread * 80) fail(what, detail);
    printf("%s: %s\n", what, detail);
}

static int host(const char *libprof, const char *libjvm, const char *classes) {
    load_profiler(libprof);
    JavaVM *vm;
    JNIEnv *env = create_jvm(libjvm, classes, &vm);
    run("start,event=cpu,interval=1ms", NULL);
    call_burn(env, classes, 1500);
    buffer out = {NULL, 0};
    run("stop,collapsed", &out);
    check_java("Java frames of a JVM in libjvm loaded RTLD_LOCAL", out.text);
    (*vm)->DestroyJavaVM(vm);
    printf("OK\n");
    return 0;
}

/* Profiled by LD_PRELOAD from the start: native code first, then a JVM created and run, then exit without
 * destroying it. The profile (checked by nonjava_test.sh) must hold both. */
static int jvm_later(const char *libjvm, const char *classes) {
    uint64_t heavy, light;
    burn(600, &heavy, &light);
    JavaVM *vm;
    JNIEnv *env = create_jvm(libjvm, classes, &vm);
    call_burn(env, classes, 1500);
    printf("truth %llu %llu\n", (unsigned long long)heavy, (unsigned long long)light);
    fflush(stdout);
    exit(0);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    if (strcmp(mode, "burn") == 0) {
        uint64_t heavy, light;
        burn(argc > 2 ? atoi(argv[2]) : 1200, &heavy, &light);
        printf("truth %llu %llu\n", (unsigned long long)heavy, (unsigned long long)light);
        return 0;
    }
    if (strcmp(mode, "api") == 0 && argc == 4) return api(argv[2], argv[3]);
    if (strcmp(mode, "malloc") == 0) return allocate();
    if (strcmp(mode, "threads") == 0) return threads();
    if (strcmp(mode, "fork") == 0) return fork_child();
    if (strcmp(mode, "refuse") == 0 && argc == 3) return refuse(argv[2]);
    if (strcmp(mode, "host") == 0 && argc == 5) return host(argv[2], argv[3], argv[4]);
    if (strcmp(mode, "jvm_later") == 0 && argc == 4) return jvm_later(argv[2], argv[3]);
    fail("usage", "native_burn burn | threads | fork | api LIBPROF OUT | malloc | refuse LIBPROF | host LIBPROF LIBJVM CLASSES | jvm_later LIBJVM CLASSES");
    return 1;
}
