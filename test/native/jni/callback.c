/*
 * A JNI library that calls back into Java, for the interleaved-stack tests:
 *   Interleaved.main -> Interleaved.nativeCallback (Java, native) -> Java_Interleaved_nativeCallback
 *   -> callback_burn (spins in C) and -> callback_call_java -> CallStaticVoidMethod -> Interleaved.javaLeaf
 * Each round spends about half its CPU in C (callback_burn) and half in the Java leaf. Built with
 * -fno-optimize-sibling-calls and no inlining so every frame exists.
 */
#include <jni.h>
#include <stdint.h>

#define CALLBACK_FN __attribute__((noinline, visibility("default")))

static volatile uint64_t sink;

/* Burns roughly 'rounds' times a few microseconds in C. */
CALLBACK_FN uint64_t callback_burn(int64_t rounds) {
    uint64_t x = 88172645463325252ULL + (uint64_t)rounds;
    for (int64_t r = 0; r < rounds; r++) {
        for (int i = 0; i < 1000; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
        }
    }
    sink += x;
    return x;
}

CALLBACK_FN void callback_call_java(JNIEnv *env, jclass cls, jmethodID leaf, jlong rounds) {
    (*env)->CallStaticVoidMethod(env, cls, leaf, rounds);
}

JNIEXPORT void JNICALL Java_Interleaved_nativeCallback(JNIEnv *env, jclass cls, jlong rounds) {
    static jmethodID leaf;
    if (!leaf) leaf = (*env)->GetStaticMethodID(env, cls, "javaLeaf", "(J)V");
    if (!leaf) return;
    callback_burn(rounds);
    callback_call_java(env, cls, leaf, rounds);
}
