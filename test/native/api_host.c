/*
 * api_host: a native program that hosts a JVM (JNI_CreateJavaVM) and profiles it through libprof's C API
 * (libprof.h), run by ApiTest's c_host case. Before the JVM exists, libprof_init succeeds (a process with
 * no JVM is profiled natively) and a Java-only request is refused, naming it; then the JVM runs ApiBurn.burn under a session started by libprof_execute, and the profile
 * returned through the writer must put ApiBurn.burn in most samples. async-profiler's C API names are
 * driven too. Usage: api_host <test classes>. Prints OK, or FAIL: ... and exits 1.
 */
#define _GNU_SOURCE
#include "host_check.h"
#include "libprof.h"

#include <jni.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>



static buffer asprof_out;
static void collect_asprof(const char *buf, size_t size) {
    collect(buf, size, &asprof_out);
}

/* Samples of the collapsed lines that contain 'frame', and of all lines. */
static void count(const char *collapsed, const char *frame, long *with, long *all) {
    *with = *all = 0;
    for (const char *line = collapsed; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        const char *space = memrchr(line, ' ', n);
        if (!space) fail("malformed collapsed line", line);
        long c = strtol(space + 1, NULL, 10);
        *all += c;
        if (memmem(line, n, frame, strlen(frame))) *with += c;
        line = end ? end + 1 : NULL;
    }
}

int main(int argc, char **argv) {
    if (argc != 2) fail("usage", "api_host <test classes>");
    if (libprof_init()) fail("libprof_init without a JVM", libprof_last_error());
    if (libprof_execute("start,event=alloc", NULL, NULL) == 0) fail("alloc accepted without a JVM", NULL);
    if (!strstr(libprof_last_error(), "alloc") || !strstr(libprof_last_error(), "needs a Java VM"))
        fail("error without a JVM", libprof_last_error());

    char classpath[4096];
    snprintf(classpath, sizeof(classpath), "-Djava.class.path=%s", argv[1]);
    JavaVMOption options[] = {{classpath, NULL}};
    JavaVMInitArgs args = {JNI_VERSION_1_8, 1, options, JNI_FALSE};
    JavaVM *vm;
    JNIEnv *env;
    if (JNI_CreateJavaVM(&vm, (void **)&env, &args) != JNI_OK) fail("JNI_CreateJavaVM", NULL);

    if (libprof_init()) fail("libprof_init", libprof_last_error());
    if (libprof_execute("start,event=ctimer,interval=bad", NULL, NULL) == 0) fail("a bad interval was accepted", NULL);
    if (!strstr(libprof_last_error(), "interval=bad")) fail("error names the value", libprof_last_error());
    if (libprof_execute("start,event=ctimer,interval=1ms", NULL, NULL)) fail("start", libprof_last_error());

    jclass burn_class = (*env)->FindClass(env, "ApiBurn");
    jmethodID burn = burn_class ? (*env)->GetStaticMethodID(env, burn_class, "burn", "(I)V") : NULL;
    if (!burn) fail("ApiBurn.burn not found", argv[1]);
    (*env)->CallStaticVoidMethod(env, burn_class, burn, 1500);
    if ((*env)->ExceptionCheck(env)) fail("ApiBurn.burn threw", NULL);

    buffer out = {NULL, 0};
    if (libprof_execute("stop,collapsed", collect, &out)) fail("stop", libprof_last_error());
    /* Of the host's main thread, the one that called into Java (JIT compiler threads are left out). */
    long with, all, main_thread;
    count(out.text, "ApiBurn.burn", &with, &all);
    count(out.text, "jni_CallStaticVoidMethod", &main_thread, &all);
    if (main_thread < 20 || with * 100 < main_thread * 80) {
        char detail[128];
        snprintf(detail, sizeof(detail), "%ld of %ld samples of the main thread", with, main_thread);
        fail("ApiBurn.burn in >= 80% of >= 20 samples", detail);
    }

    /* async-profiler's C API over the same session. */
    asprof_init();
    asprof_error_t err = asprof_execute("status", collect_asprof);
    if (err) fail("asprof_execute status", asprof_error_str(err));
    if (!asprof_out.text || !strstr(asprof_out.text, "state: idle")) fail("asprof status output", asprof_out.text);
    err = asprof_execute("stop", NULL);
    if (!err || !strstr(asprof_error_str(err), "not running")) fail("asprof stop when idle", err);

    free(out.text);
    free(asprof_out.text);
    (*vm)->DestroyJavaVM(vm);
    printf("OK (%ld of %ld samples of the main thread in ApiBurn.burn)\n", with, main_thread);
    return 0;
}
