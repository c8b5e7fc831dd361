/*
 * Unit tests of the fault-tolerant reads (safe_fault.c, safe_read.c): a fault of our load is recovered,
 * every other fault and every SIGSEGV sent with kill reaches the handler installed before ours with the
 * same arguments, SA_RESETHAND and SIG_DFL behave as without us, and each read mechanism keeps to what it
 * may read.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "safe_fault.h"
#include "safe_fault_install.h"
#include "safe_read.h"
#include "safe_read_stack.h"

static void *no_access;   /* a PROT_NONE page */
static sigjmp_buf back;
static volatile sig_atomic_t prev_calls, prev_code;
static void *volatile prev_addr;
static volatile sig_atomic_t prev_had_context;

/* The "JVM's" handler: records what it was called with, and leaves a real fault by jumping back. */
static void previous_handler(int signo, siginfo_t *info, void *uc) {
    (void)signo;
    prev_calls++;
    prev_code = info->si_code;
    prev_addr = info->si_addr;
    prev_had_context = uc != NULL;
    if (info->si_code > 0) siglongjmp(back, 1);
}

static void install_previous(int flags) {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = previous_handler;
    sa.sa_flags = SA_SIGINFO | flags;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
}

/* cmocka installs its own SIGSEGV handler around each test: ours goes in front of the test's own
 * "previous" handler inside each test. */
static void install_both(int flags) {
    install_previous(flags);
    char err[256];
    if (safe_fault_install(err, sizeof(err)) != 0) fail_msg("safe_fault_install: %s", err);
}

static int setup(void **state) {
    (void)state;
    no_access = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return no_access == MAP_FAILED;
}

static void test_own_fault_recovered(void **state) {
    (void)state;
    install_both(0);
    uintptr_t word = 7, known = 0x1234;
    prev_calls = 0;
    assert_false(safe_fault_load((uintptr_t)no_access, &word));
    assert_int_equal(word, 7);
    assert_true(safe_fault_load((uintptr_t)&known, &word));
    assert_int_equal(word, 0x1234);
    assert_int_equal(prev_calls, 0);
}

static void test_other_fault_chained(void **state) {
    (void)state;
    install_both(0);
    prev_calls = 0;
    if (sigsetjmp(back, 1) == 0) {
        (void)*(volatile int *)no_access;   /* a fault outside our load: the JVM's to handle */
        fail_msg("the faulting read went on");
    }
    assert_int_equal(prev_calls, 1);
    assert_ptr_equal(prev_addr, no_access);
    assert_true(prev_code > 0);
    assert_true(prev_had_context);
}

static void test_sent_signal_chained(void **state) {
    (void)state;
    install_both(0);
    prev_calls = 0;
    raise(SIGSEGV);   /* tgkill: si_code SI_TKILL */
    assert_int_equal(prev_calls, 1);
    assert_int_equal(prev_code, SI_TKILL);
}

static void test_intact(void **state) {
    (void)state;
    install_both(0);
    assert_true(safe_fault_intact());
    struct sigaction saved, other;
    memset(&other, 0, sizeof(other));
    other.sa_sigaction = previous_handler;
    other.sa_flags = SA_SIGINFO;
    sigaction(SIGBUS, &other, &saved);
    assert_false(safe_fault_intact());
    sigaction(SIGBUS, &saved, NULL);
    assert_true(safe_fault_intact());
}

/* Runs 'child' in a forked process and returns its wait status. */
static int in_child(void (*child)(void)) {
    pid_t pid = fork();
    if (pid == 0) {
        child();
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    return status;
}

/* A previous handler with SA_RESETHAND: called once, and the disposition is the default afterwards. */
static void resethand_child(void) {
    install_both(SA_RESETHAND);
    prev_calls = 0;
    raise(SIGSEGV);
    struct sigaction now;
    sigaction(SIGSEGV, NULL, &now);
    _exit(prev_calls == 1 && !(now.sa_flags & SA_SIGINFO) && now.sa_handler == SIG_DFL ? 0 : 3);
}

static void test_resethand(void **state) {
    (void)state;
    int status = in_child(resethand_child);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* No previous handler: a real fault outside our load ends the process with SIGSEGV, as it would have. */
static void default_child(void) {
    signal(SIGSEGV, SIG_DFL);
    char err[256];
    if (safe_fault_install(err, sizeof(err)) != 0) _exit(2);
    (void)*(volatile int *)no_access;
    _exit(3);
}

static void test_default_kills(void **state) {
    (void)state;
    int status = in_child(default_child);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGSEGV);
}

static void test_mechanisms(void **state) {
    (void)state;
    install_both(0);
    static uintptr_t heap_word = 99;
    uintptr_t word = 0, on_stack = 5;
    safe_read_register_current_stack();
    safe_read_set_mechanism(SAFE_READ_FAULT);
    assert_true(safe_read_word((uintptr_t)&heap_word, &word) && word == 99);
    assert_false(safe_read_word((uintptr_t)no_access, &word));
    safe_read_set_mechanism(SAFE_READ_SYSCALL);
    assert_true(safe_read_word((uintptr_t)&heap_word, &word) && word == 99);
    assert_false(safe_read_word((uintptr_t)no_access, &word));
    /* bounded: the thread's own stack only (no region registered) */
    safe_read_set_mechanism(SAFE_READ_BOUNDED);
    assert_false(safe_read_word((uintptr_t)&heap_word, &word));
    assert_true(safe_read_word((uintptr_t)&on_stack, &word) && word == 5);
    /* fault, but the interrupted code blocks SIGSEGV: no fault may be taken, proven memory only */
    sigset_t blocked;
    sigemptyset(&blocked);
    sigaddset(&blocked, SIGSEGV);
    safe_read_set_mechanism(SAFE_READ_FAULT);
    safe_read_note_signal_mask(&blocked);
    assert_false(safe_read_word((uintptr_t)&heap_word, &word));
    assert_true(safe_read_word((uintptr_t)&on_stack, &word) && word == 5);
    sigemptyset(&blocked);
    safe_read_note_signal_mask(&blocked);
    assert_true(safe_read_word((uintptr_t)&heap_word, &word));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_own_fault_recovered), cmocka_unit_test(test_other_fault_chained),
        cmocka_unit_test(test_sent_signal_chained), cmocka_unit_test(test_intact),
        cmocka_unit_test(test_resethand),           cmocka_unit_test(test_default_kills),
        cmocka_unit_test(test_mechanisms),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
