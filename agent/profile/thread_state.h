/*
 * thread_state: what a thread was doing when a sample was taken, recorded per sample (a byte of the
 * trace key) by engines that sample threads whatever they do (wall). CPU samples carry
 * THREAD_STATE_DEFAULT: a thread on the CPU needs no state, and async-profiler's converter tells its cpu
 * samples from its wall samples in one recording by exactly that (STATE_DEFAULT = cpu, --cpu; any other
 * state = wall, --wall), so a recording of ours converts the same way with it and with jfrconv.
 *
 * The JFR names are jdk.types.ThreadState's as the JDK writes them where one exists (STATE_RUNNABLE,
 * STATE_SLEEPING, STATE_IN_OBJECT_WAIT, STATE_PARKED, STATE_BLOCKED_ON_MONITOR_ENTER), async-profiler's
 * STATE_DEFAULT, and two of ours for what HotSpot's Java states do not tell: a thread in native code
 * (STATE_IN_NATIVE) and a thread waiting in a system call (STATE_SYSCALL).
 */
#ifndef LIBPROF_THREAD_STATE_H
#define LIBPROF_THREAD_STATE_H

typedef enum {
    THREAD_STATE_DEFAULT = 0,  /* not recorded: CPU samples */
    THREAD_STATE_RUNNABLE,     /* running Java or VM code (or runnable) */
    THREAD_STATE_SLEEPING,     /* Thread.sleep */
    THREAD_STATE_WAITING,      /* Object.wait */
    THREAD_STATE_PARKED,       /* LockSupport.park (j.u.c locks, queues, futures) */
    THREAD_STATE_BLOCKED,      /* waiting to enter a monitor (synchronized) */
    THREAD_STATE_NATIVE,       /* running native code (JNI, or a thread the JVM does not run Java on) */
    THREAD_STATE_SYSCALL,      /* inside a system call that was waiting (read, poll, futex, nanosleep...) */
    THREAD_STATE_COUNT
} thread_state;

/* jdk.types.ThreadState name: "STATE_RUNNABLE"...; NULL out of range. */
static inline const char *thread_state_jfr_name(int s) {
    static const char *const names[THREAD_STATE_COUNT] = {
        [THREAD_STATE_DEFAULT] = "STATE_DEFAULT",   [THREAD_STATE_RUNNABLE] = "STATE_RUNNABLE",
        [THREAD_STATE_SLEEPING] = "STATE_SLEEPING", [THREAD_STATE_WAITING] = "STATE_IN_OBJECT_WAIT",
        [THREAD_STATE_PARKED] = "STATE_PARKED",     [THREAD_STATE_BLOCKED] = "STATE_BLOCKED_ON_MONITOR_ENTER",
        [THREAD_STATE_NATIVE] = "STATE_IN_NATIVE",  [THREAD_STATE_SYSCALL] = "STATE_SYSCALL",
    };
    return s >= 0 && s < THREAD_STATE_COUNT ? names[s] : 0;
}

/* The frame that separates samples by state in text, collapsed and HTML outputs (option 'states', jfrconv
 * --states): the state's JFR name in brackets, "[STATE_SLEEPING]", so both tools print the same. */
#define THREAD_STATE_FRAME_MAX 48

/* A bit per thread_state named in 'list': a comma or ';' list of names, any case, "STATE_" optional, a
 * prefix enough ("sl" = SLEEPING; "r" = RUNNABLE). 0 when a name matches no state. */
unsigned thread_state_parse_list(const char *list);

#endif
