/*
 * DeepBindAlloc's natives: load libbump_user_a.so and libbump_user_b.so with RTLD_DEEPBIND (each beside its own
 * allocator, libbump_alloc.so), call a's malloc only, wait for a profiler's rescan of loaded objects, then call
 * a's realloc and free (whose slots were still lazy at the rescan) and b's free of its allocator's own blocks
 * (every slot of b lazy at the rescan).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <jni.h>
#include <stdio.h>
#include <time.h>

static void *load(JNIEnv *env, jstring path) {
    const char *p = (*env)->GetStringUTFChars(env, path, NULL);
    void *h = p ? dlopen(p, RTLD_LAZY | RTLD_LOCAL | RTLD_DEEPBIND) : NULL;
    if (!h) fprintf(stderr, "deepbind_alloc: %s\n", dlerror());
    if (p) (*env)->ReleaseStringUTFChars(env, path, p);
    return h;
}

JNIEXPORT jint JNICALL Java_DeepBindAlloc_run(JNIEnv *env, jclass cls, jstring a_path, jstring b_path, jint wait_ms) {
    (void)cls;
    void *a = load(env, a_path), *b = load(env, b_path);
    if (!a || !b) return -1;
    void (*a_malloc)(int) = (void (*)(int))dlsym(a, "bump_user_malloc");
    int (*a_realloc_free)(int) = (int (*)(int))dlsym(a, "bump_user_realloc_free");
    void (*b_free_strdup)(int) = (void (*)(int))dlsym(b, "bump_user_free_strdup");
    if (!a_malloc || !a_realloc_free || !b_free_strdup) return -2;
    a_malloc(100);
    struct timespec pause = {wait_ms / 1000, (long)(wait_ms % 1000) * 1000000L};
    nanosleep(&pause, NULL);
    int bad = a_realloc_free(1000);
    b_free_strdup(1000);
    return bad ? -3 : 0;
}
