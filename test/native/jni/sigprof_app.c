/*
 * An "application" with its own SIGPROF handler, for the signal-ownership test: it counts the SIGPROF
 * signals it receives, and raises some itself. The profiler must leave its handler alone and send it
 * nothing: the count must equal the number it raised.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <jni.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <sys/time.h>

static _Atomic long received;

static void on_sigprof(int signo) {
    (void)signo;
    atomic_fetch_add(&received, 1);
}

/* Installs the counting handler for signo. */
static jboolean take(int signo) {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_sigprof;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    return sigaction(signo, &sa, NULL) == 0;
}

JNIEXPORT jboolean JNICALL Java_SigprofApp_install(JNIEnv *env, jclass cls) {
    (void)env, (void)cls;
    return take(SIGPROF);
}

/* Takes SIGTRAP with a handler that counts what it receives in the same counter (SignalAdversary "trap"): as a
 * native crash reporter would, after profiling with features=sigtrap started. With 'raw', through a pointer to
 * sigaction looked up with dlsym rather than this library's import (which a profiler may hook), as a runtime
 * making the system call itself would. True if it is installed and sigaction reports it back. */
/* 'how': 0 through this library's import of sigaction, 1 through a sigaction found with dlsym (past any hook
 * of the imports), 2 through its import of System V's sigset. */
JNIEXPORT jboolean JNICALL Java_SigprofApp_installTrap(JNIEnv *env, jclass cls, jint how) {
    (void)env, (void)cls;
    int (*set)(int, const struct sigaction *, struct sigaction *) = sigaction;
    if (how == 1) set = (int (*)(int, const struct sigaction *, struct sigaction *))dlsym(RTLD_DEFAULT, "sigaction");
    struct sigaction sa, back;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_sigprof;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    bool installed = how == 2 ? sigset(SIGTRAP, on_sigprof) != SIG_ERR : set && set(SIGTRAP, &sa, NULL) == 0;
#pragma GCC diagnostic pop
    return installed && set(SIGTRAP, NULL, &back) == 0 && !(back.sa_flags & SA_SIGINFO) &&
           back.sa_handler == on_sigprof;
}

/* Sends this thread SIGTRAP 'times' times (as a breakpoint would reach a crash reporter's handler); returns the
 * handler's count. */
JNIEXPORT jlong JNICALL Java_SigprofApp_raiseTrapAndCount(JNIEnv *env, jclass cls, jint times) {
    (void)env, (void)cls;
    for (int i = 0; i < times; i++) raise(SIGTRAP);
    return atomic_load(&received);
}

JNIEXPORT jlong JNICALL Java_SigprofApp_raiseAndCount(JNIEnv *env, jclass cls, jint times) {
    (void)env, (void)cls;
    for (int i = 0; i < times; i++) raise(SIGPROF);
    return atomic_load(&received);
}

/* Arms ITIMER_PROF at 'us' microseconds, replacing whatever timer the process had (SignalAdversary). */
JNIEXPORT jboolean JNICALL Java_SigprofApp_setItimer(JNIEnv *env, jclass cls, jint us) {
    (void)env, (void)cls;
    struct itimerval tv = {{us / 1000000, us % 1000000}, {us / 1000000, us % 1000000}};
    return setitimer(ITIMER_PROF, &tv, NULL) == 0;
}

/* Blocks SIGPROF in the calling thread (SignalAdversary): the profiler's signals to it stay pending. */
JNIEXPORT jboolean JNICALL Java_SigprofApp_blockProf(JNIEnv *env, jclass cls) {
    (void)env, (void)cls;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGPROF);
    return pthread_sigmask(SIG_BLOCK, &set, NULL) == 0;
}
