/*
 * A native crash reporter as breakpad, crashpad or sentry-native are: SIGTRAP is fatal to it (it says so on
 * stderr and ends the process with status 70, before any profile could be written). CrashReporter takes it
 * each way a library can reach sigaction without passing a profiler's import hooks: built with
 * CRASH_REPORTER_CONSTRUCTOR (libcrash_reporter_ctor.so), a constructor takes it as the library is loaded
 * (System.load, or a native dlopen through take(0)); the JNI library (libcrash_reporter.so) also takes it
 * through a sigaction found with dlsym (1) and the raw rt_sigaction system call (2).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <jni.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void fatal_trap(int signo, siginfo_t *info, void *context) {
    (void)signo, (void)context;
    static const char msg[] = "crash_reporter: fatal SIGTRAP received, ending the process\n";
    if (write(2, msg, sizeof(msg) - 1) < 0) _exit(71);
    _exit(info && info->si_code > 0 ? 70 : 72);
}

static int take_with(int (*set)(int, const struct sigaction *, struct sigaction *)) {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = fatal_trap;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    return set && set(SIGTRAP, &sa, NULL) == 0;
}

#if defined(__x86_64__)
/* x86-64 needs a restorer with SA_SIGINFO; the handler never returns, but the kernel refuses a frame without. */
void crash_reporter_restore(void);
__asm__(".text\n.globl crash_reporter_restore\n.type crash_reporter_restore,@function\ncrash_reporter_restore:\n"
        "  mov $15, %rax\n  syscall\n");
#define RAW_SA_RESTORER 0x04000000UL
#endif

/* The kernel's own struct sigaction (not glibc's): handler, flags, restorer, mask. */
static int take_raw(void) {
    struct {
        void *handler;
        unsigned long flags;
        void *restorer;
        uint64_t mask;
    } ksa = {(void *)fatal_trap, SA_SIGINFO, NULL, 0};
#ifdef RAW_SA_RESTORER
    ksa.flags |= RAW_SA_RESTORER;
    ksa.restorer = (void *)crash_reporter_restore;
#endif
    return syscall(SYS_rt_sigaction, SIGTRAP, &ksa, NULL, sizeof(ksa.mask)) == 0;
}

#ifdef CRASH_REPORTER_CONSTRUCTOR
__attribute__((constructor)) static void install_at_load(void) {
    if (!take_with(sigaction)) _exit(73);
}
#endif

/* 'how': 0 dlopen 'path' (whose constructor takes SIGTRAP), 1 through a dlsym'd sigaction, 2 rt_sigaction. */
JNIEXPORT jboolean JNICALL Java_CrashReporter_take(JNIEnv *env, jclass cls, jint how, jstring path) {
    (void)cls;
    if (how == 1) return take_with((int (*)(int, const struct sigaction *, struct sigaction *))dlsym(RTLD_DEFAULT, "sigaction"));
    if (how == 2) return take_raw();
    const char *p = (*env)->GetStringUTFChars(env, path, NULL);
    void *handle = p ? dlopen(p, RTLD_NOW) : NULL;
    if (p) (*env)->ReleaseStringUTFChars(env, path, p);
    return handle != NULL;
}

/* Whether SIGTRAP's action, as the kernel holds it, is a reporter's: the handler lies in one of the two
 * crash_reporter libraries (each has its own fatal_trap). */
JNIEXPORT jboolean JNICALL Java_CrashReporter_installed(JNIEnv *env, jclass cls) {
    (void)env, (void)cls;
    struct {
        void *handler;
        unsigned long flags;
        void *restorer;
        uint64_t mask;
    } now;
    Dl_info where;
    return syscall(SYS_rt_sigaction, SIGTRAP, NULL, &now, sizeof(now.mask)) == 0 && dladdr(now.handler, &where) &&
           where.dli_fname && strstr(where.dli_fname, "libcrash_reporter");
}
