/*
 * Unit tests of the SIGTRAP guard (sigtrap_guard.c), called as the hooked sigaction/signal would be: while it
 * is up the process's disposition stays ours, a call about SIGTRAP sets and reads the application's action,
 * and a SIGTRAP that is not ours reaches that action (its handler, SIG_IGN, or the default action, which ends
 * the process with SIGTRAP); our own handler set back means SIG_DFL, and a handler that chains back to ours
 * ends with the default action instead of a loop, while one left by siglongjmp leaves nothing behind. A
 * handler's SA_NODEFER leaves SIGTRAP open in it; sigset (SIG_HOLD too) and sigignore set the application's
 * action. A disposition set past the hooks brings the guard down at the next hooked call. Down, every call
 * passes through to the real sigaction.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sigtrap_guard.h"

static volatile sig_atomic_t app_calls, app_code, ours_calls;

/* Stands for perf_sigtrap_handler with no event of ours: every SIGTRAP is someone else's. */
static void fake_ours(int signo, siginfo_t *info, void *uc) {
    ours_calls++;
    sigtrap_guard_chain(signo, info, uc);
}

static int install_fake_ours(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = fake_ours;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    return sigaction(SIGTRAP, &sa, NULL);
}

static void app_handler(int signo) {
    (void)signo;
    app_calls++;
}

static void app_siginfo_handler(int signo, siginfo_t *info, void *uc) {
    (void)signo, (void)uc;
    app_calls++;
    app_code = info->si_code;
}

/* A crash reporter's handler that chains to the handler it found before it: ours. */
static void chains_back(int signo, siginfo_t *info, void *uc) {
    app_calls++;
    fake_ours(signo, info, uc);
}

static volatile sig_atomic_t trap_blocked_inside;

static void reports_its_mask(int signo) {
    (void)signo;
    sigset_t now;
    pthread_sigmask(SIG_BLOCK, NULL, &now);
    trap_blocked_inside = sigismember(&now, SIGTRAP);
    app_calls++;
}

static sigjmp_buf back;

/* A handler that leaves by siglongjmp, never returning to ours. */
static void jumps_out(int signo) {
    (void)signo;
    app_calls++;
    siglongjmp(back, 1);
}

static struct sigaction action(void (*handler)(int), void (*siginfo)(int, siginfo_t *, void *), int flags) {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    if (siginfo) sa.sa_sigaction = siginfo;
    else sa.sa_handler = handler;
    sa.sa_flags = flags | (siginfo ? SA_SIGINFO : 0);
    sigemptyset(&sa.sa_mask);
    return sa;
}

static bool real_is_ours(void) {
    struct sigaction now;
    return sigaction(SIGTRAP, NULL, &now) == 0 && (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == fake_ours;
}

static int setup(void **state) {
    (void)state;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    sigtrap_guard_real_functions = (sigtrap_guard_real){sigaction, signal, signal, __sysv_signal, sigset, sigignore};
#pragma GCC diagnostic pop
    struct sigaction dfl = action(SIG_DFL, NULL, 0);
    sigaction(SIGTRAP, &dfl, NULL);
    return 0;
}

static void up_keeps_the_disposition_and_answers_the_applications_action(void **state) {
    (void)state;
    struct sigaction mine = action(app_handler, NULL, SA_RESTART), old;
    assert_true(sigaction(SIGTRAP, &mine, NULL) == 0);   /* the application's handler before the start */
    assert_true(sigtrap_guard_begin(fake_ours, install_fake_ours));
    assert_true(sigtrap_guard_up());
    assert_true(real_is_ours());
    assert_int_equal(sigtrap_guard_sigaction(SIGTRAP, NULL, &old), 0);
    assert_ptr_equal(old.sa_handler, app_handler);   /* what it had, not ours */
    struct sigaction other = action(NULL, app_siginfo_handler, 0);
    assert_int_equal(sigtrap_guard_sigaction(SIGTRAP, &other, &old), 0);
    assert_ptr_equal(old.sa_handler, app_handler);
    assert_true(real_is_ours());
    assert_ptr_equal((void *)sigtrap_guard_signal(SIGTRAP, app_handler), (void *)app_siginfo_handler);
    assert_ptr_equal(sigtrap_guard_signal(SIGTRAP, SIG_IGN), app_handler);
    assert_true(real_is_ours());
    /* System V's signal(): reset at delivery, not blocked in its handler. */
    assert_ptr_equal(sigtrap_guard_sysv_signal(SIGTRAP, app_handler), SIG_IGN);
    assert_int_equal(sigtrap_guard_sigaction(SIGTRAP, NULL, &old), 0);
    assert_true((old.sa_flags & (SA_RESETHAND | SA_NODEFER)) == (SA_RESETHAND | SA_NODEFER));
    assert_false(sigismember(&old.sa_mask, SIGTRAP));
    assert_true(real_is_ours());
    /* Another signal is not the guard's: it reaches the real sigaction. */
    struct sigaction usr = action(app_handler, NULL, 0), back;
    assert_int_equal(sigtrap_guard_sigaction(SIGUSR1, &usr, NULL), 0);
    assert_int_equal(sigaction(SIGUSR1, NULL, &back), 0);
    assert_ptr_equal(back.sa_handler, app_handler);
}

static void a_sigtrap_not_ours_reaches_the_applications_action(void **state) {
    (void)state;
    struct sigaction info_handler = action(NULL, app_siginfo_handler, 0);
    sigtrap_guard_sigaction(SIGTRAP, &info_handler, NULL);
    app_calls = ours_calls = 0;
    raise(SIGTRAP);
    assert_int_equal(ours_calls, 1);
    assert_int_equal(app_calls, 1);
    assert_int_equal(app_code, SI_TKILL);   /* the siginfo is passed on */
    struct sigaction ignore = action(SIG_IGN, NULL, 0);
    sigtrap_guard_sigaction(SIGTRAP, &ignore, NULL);
    raise(SIGTRAP);   /* sent, not a trap of the code: dropped */
    assert_int_equal(ours_calls, 2);
    assert_int_equal(app_calls, 1);
    struct sigaction once = action(app_handler, NULL, SA_RESETHAND), now;
    sigtrap_guard_sigaction(SIGTRAP, &once, NULL);
    raise(SIGTRAP);
    assert_int_equal(app_calls, 2);
    sigtrap_guard_sigaction(SIGTRAP, NULL, &now);
    assert_ptr_equal(now.sa_handler, SIG_DFL);   /* reset as the kernel would */
}

/* SA_NODEFER leaves SIGTRAP open in the application's handler, as the kernel would; without it, or with
 * SIGTRAP in the handler's own mask, it is blocked. The mask is back as it was afterwards. */
static void the_handlers_mask_and_nodefer_are_honoured(void **state) {
    (void)state;
    struct sigaction nodefer = action(reports_its_mask, NULL, SA_NODEFER);
    sigtrap_guard_sigaction(SIGTRAP, &nodefer, NULL);
    app_calls = 0;
    raise(SIGTRAP);
    assert_int_equal(app_calls, 1);
    assert_false(trap_blocked_inside);
    struct sigaction deferred = action(reports_its_mask, NULL, 0);
    sigtrap_guard_sigaction(SIGTRAP, &deferred, NULL);
    raise(SIGTRAP);
    assert_int_equal(app_calls, 2);
    assert_true(trap_blocked_inside);
    sigaddset(&nodefer.sa_mask, SIGTRAP);
    sigtrap_guard_sigaction(SIGTRAP, &nodefer, NULL);
    raise(SIGTRAP);
    assert_int_equal(app_calls, 3);
    assert_true(trap_blocked_inside);
    sigset_t now;
    pthread_sigmask(SIG_BLOCK, NULL, &now);
    assert_false(sigismember(&now, SIGTRAP));
}

static bool trap_blocked(void) {
    sigset_t now;
    pthread_sigmask(SIG_BLOCK, NULL, &now);
    return sigismember(&now, SIGTRAP);
}

/* System V's sigset and sigignore: the application's action set and answered, the disposition still ours;
 * SIG_HOLD blocks SIGTRAP and answers the action, the next sigset unblocks it and answers SIG_HOLD. */
static void sigset_and_sigignore_set_the_applications_action(void **state) {
    (void)state;
    struct sigaction dfl = action(SIG_DFL, NULL, 0), now;
    sigtrap_guard_sigaction(SIGTRAP, &dfl, NULL);
    assert_ptr_equal(sigtrap_guard_sigset(SIGTRAP, app_handler), SIG_DFL);
    assert_true(real_is_ours());
    assert_int_equal(sigtrap_guard_sigaction(SIGTRAP, NULL, &now), 0);
    assert_ptr_equal(now.sa_handler, app_handler);
    assert_int_equal(now.sa_flags & (SA_SIGINFO | SA_RESETHAND | SA_NODEFER | SA_RESTART), 0);
    assert_ptr_equal(sigtrap_guard_sigset(SIGTRAP, SIG_HOLD), app_handler);
    assert_true(trap_blocked());
    assert_int_equal(sigtrap_guard_sigaction(SIGTRAP, NULL, &now), 0);
    assert_ptr_equal(now.sa_handler, app_handler);   /* holding changes the mask, not the action */
    assert_ptr_equal(sigtrap_guard_sigset(SIGTRAP, SIG_HOLD), SIG_HOLD);
    assert_ptr_equal(sigtrap_guard_sigset(SIGTRAP, app_handler), SIG_HOLD);
    assert_false(trap_blocked());
    assert_int_equal(sigtrap_guard_sigignore(SIGTRAP), 0);
    assert_true(real_is_ours());
    assert_int_equal(sigtrap_guard_sigaction(SIGTRAP, NULL, &now), 0);
    assert_ptr_equal(now.sa_handler, SIG_IGN);
    /* Other signals reach the real functions. */
    assert_int_equal(sigtrap_guard_sigignore(SIGUSR2), 0);
    assert_int_equal(sigaction(SIGUSR2, NULL, &now), 0);
    assert_ptr_equal(now.sa_handler, SIG_IGN);
    sigtrap_guard_sigaction(SIGTRAP, &dfl, NULL);
}

/* In a child: the default action must end it with SIGTRAP. */
static void expect_death_by_sigtrap(void (*body)(void)) {
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        body();
        _exit(0);
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGTRAP);
}

static void raise_with_default(void) {
    struct sigaction dfl = action(SIG_DFL, NULL, 0);
    sigtrap_guard_sigaction(SIGTRAP, &dfl, NULL);
    raise(SIGTRAP);
}

static void raise_with_chaining_back(void) {
    struct sigaction reporter = action(NULL, chains_back, 0);
    sigtrap_guard_sigaction(SIGTRAP, &reporter, NULL);
    raise(SIGTRAP);
}

static void default_and_chaining_back_end_with_sigtrap(void **state) {
    (void)state;
    expect_death_by_sigtrap(raise_with_default);
    expect_death_by_sigtrap(raise_with_chaining_back);
    /* Our own handler given back (a reporter restoring "the previous handler") means SIG_DFL. */
    struct sigaction ours = action(NULL, fake_ours, 0), now;
    sigtrap_guard_sigaction(SIGTRAP, &ours, NULL);
    sigtrap_guard_sigaction(SIGTRAP, NULL, &now);
    assert_false(now.sa_flags & SA_SIGINFO);
    assert_ptr_equal(now.sa_handler, SIG_DFL);
}

static void a_handler_left_by_siglongjmp_leaves_no_mark(void **state) {
    (void)state;
    struct sigaction jumper = action(jumps_out, NULL, 0);
    sigtrap_guard_sigaction(SIGTRAP, &jumper, NULL);
    app_calls = 0;
    for (int i = 0; i < 3; i++) {
        if (sigsetjmp(back, 1) == 0) raise(SIGTRAP);
    }
    assert_int_equal(app_calls, 3);   /* not the default action at the second */
}

static void taken_past_the_hooks_brings_the_guard_down(void **state) {
    (void)state;
    struct sigaction past = action(app_handler, NULL, 0), now;
    assert_int_equal(sigaction(SIGTRAP, &past, NULL), 0);   /* a raw call, past the hooks */
    assert_true(sigtrap_guard_up());
    assert_int_equal(sigtrap_guard_sigaction(SIGTRAP, NULL, &now), 0);
    assert_ptr_equal(now.sa_handler, app_handler);   /* the real one from now on */
    assert_false(sigtrap_guard_up());
    /* Up again (a new session): that handler becomes the application's action. */
    assert_true(sigtrap_guard_begin(fake_ours, install_fake_ours));
    assert_true(real_is_ours());
    assert_int_equal(sigtrap_guard_sigaction(SIGTRAP, NULL, &now), 0);
    assert_ptr_equal(now.sa_handler, app_handler);
}

static void down_passes_every_call_through(void **state) {
    (void)state;
    sigtrap_guard_end();
    assert_false(sigtrap_guard_up());
    struct sigaction mine = action(app_handler, NULL, 0), now;
    assert_int_equal(sigtrap_guard_sigaction(SIGTRAP, &mine, NULL), 0);
    assert_int_equal(sigaction(SIGTRAP, NULL, &now), 0);
    assert_ptr_equal(now.sa_handler, app_handler);
    assert_ptr_equal(sigtrap_guard_signal(SIGTRAP, SIG_DFL), app_handler);
    assert_int_equal(sigaction(SIGTRAP, NULL, &now), 0);
    assert_ptr_equal(now.sa_handler, SIG_DFL);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(up_keeps_the_disposition_and_answers_the_applications_action),
        cmocka_unit_test(a_sigtrap_not_ours_reaches_the_applications_action),
        cmocka_unit_test(the_handlers_mask_and_nodefer_are_honoured),
        cmocka_unit_test(sigset_and_sigignore_set_the_applications_action),
        cmocka_unit_test(default_and_chaining_back_end_with_sigtrap),
        cmocka_unit_test(a_handler_left_by_siglongjmp_leaves_no_mark),
        cmocka_unit_test(taken_past_the_hooks_brings_the_guard_down),
        cmocka_unit_test(down_passes_every_call_through),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
