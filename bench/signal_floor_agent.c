/*
 * signal_floor_agent: the benchmark's "signal floor" (BenchPeer). A JVMTI agent that sets up the sampling
 * mechanism both libprof's and async-profiler's cpu engines are built on: one perf cpu-clock event per
 * thread, one-shot, its kernel call chain written to a small ring, its signal routed to the very thread,
 * re-armed from the handler. Its handler does nothing else. What a workload costs more with this agent than
 * with none is what any profiler using that mechanism pays per sample before it reads a single frame: the
 * timer interrupt, the signal's delivery and return, the re-arm. The rest of a profiler's overhead is its
 * own work. Benchmark code, never loaded by libprof.
 *
 * With ",timer" it measures the timer alone: the same event per thread, but counting continuously with no
 * signal; its samples go to a larger ring that a thread of this agent drains every 10 ms. That is the
 * lower bound of any design built on a perf cpu-clock event per thread, even one that never interrupts the
 * application with a signal (the kernel copying registers and stack into the ring instead), so the signal
 * floor minus the timer floor is all such a design could save.
 *
 * Options: the interval in nanoseconds (default 1000000), then optionally ",timer". At exit it prints
 * "FLOOR_SAMPLES <n>".
 */
#define _GNU_SOURCE
#include <jvmti.h>

#include <dirent.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_FD 65536
#define RING_PAGES 2   /* the metadata page and one data page, as libprof's engine maps */
#define TIMER_RING_PAGES 9  /* timer mode: 8 data pages hold well over 10 ms of samples at 100 us */

static uint64_t period_ns = 1000000;
static bool timer_only;
static void *_Atomic rings[MAX_FD];
static _Atomic int highest_fd = -1;
static _Atomic long samples;

static void on_signal(int signo, siginfo_t *info, void *context) {
    (void)signo;
    (void)context;
    int fd = info->si_fd;
    if (fd < 0 || fd >= MAX_FD || !atomic_load(&rings[fd])) return;
    struct perf_event_mmap_page *meta = atomic_load(&rings[fd]);
    __atomic_store_n(&meta->data_tail, __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE), __ATOMIC_RELEASE);
    ioctl(fd, PERF_EVENT_IOC_REFRESH, 1);
    atomic_fetch_add_explicit(&samples, 1, memory_order_relaxed);
}

/* Timer mode: count the samples the kernel wrote (and those it lost for want of room) and free the room. */
static void drain_rings(void) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE), room = (TIMER_RING_PAGES - 1) * page;
    for (int fd = 0; fd <= atomic_load(&highest_fd); fd++) {
        struct perf_event_mmap_page *meta = atomic_load(&rings[fd]);
        if (!meta) continue;
        const char *data = (const char *)meta + page;
        uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE), tail = meta->data_tail;
        while (tail < head) {
            const struct perf_event_header *h = (const void *)(data + tail % room);
            if (h->type == PERF_RECORD_SAMPLE) atomic_fetch_add(&samples, 1);
            /* PERF_RECORD_LOST: header, id, count; a record may wrap around the ring's end */
            if (h->type == PERF_RECORD_LOST) atomic_fetch_add(&samples, *(const long *)(data + (tail + 16) % room));
            if (h->size == 0) break;
            tail += h->size;
        }
        __atomic_store_n(&meta->data_tail, head, __ATOMIC_RELEASE);
    }
}

static bool claim_tid(int tid);
static _Atomic bool drainer_claimed;

static void *drain_thread(void *unused) {
    (void)unused;
    claim_tid((int)syscall(SYS_gettid));   /* the drainer is ours, not the application's: never armed */
    atomic_store(&drainer_claimed, true);
    for (;;) {
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
        drain_rings();
    }
    return NULL;
}

/* A thread listed at VMInit may also report its start: armed once. */
static bool claim_tid(int tid) {
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static int armed[MAX_FD];
    static size_t count;
    bool fresh = true;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < count && fresh; i++) fresh = armed[i] != tid;
    if (fresh && count < MAX_FD) armed[count++] = tid;
    pthread_mutex_unlock(&lock);
    return fresh;
}

static void arm(int tid) {
    if (!claim_tid(tid)) return;
    struct perf_event_attr a;
    memset(&a, 0, sizeof(a));
    a.size = sizeof(a);
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_CPU_CLOCK;
    a.sample_period = period_ns;
    a.disabled = 1;
    a.exclude_idle = 1;
    a.exclude_hv = 1;
    a.wakeup_events = timer_only ? 0 : 1;
    a.sample_type = PERF_SAMPLE_CALLCHAIN;
    a.exclude_callchain_user = 1;
    int fd = (int)syscall(SYS_perf_event_open, &a, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
    if (fd < 0) return;
    if (fd >= MAX_FD) {
        close(fd);
        return;
    }
    size_t pages = timer_only ? TIMER_RING_PAGES : RING_PAGES;
    void *ring = mmap(NULL, pages * (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    struct f_owner_ex owner = {F_OWNER_TID, tid};
    if (ring == MAP_FAILED || (!timer_only && (fcntl(fd, F_SETSIG, SIGPROF) != 0 || fcntl(fd, F_SETOWN_EX, &owner) != 0 ||
                                               fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_ASYNC) != 0))) {
        close(fd);
        return;
    }
    atomic_store(&rings[fd], ring);
    for (int high = atomic_load(&highest_fd); fd > high && !atomic_compare_exchange_weak(&highest_fd, &high, fd);) {}
    if (timer_only) ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
    else ioctl(fd, PERF_EVENT_IOC_REFRESH, 1);
}

static void JNICALL thread_start(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread) {
    (void)jvmti;
    (void)jni;
    (void)thread;
    arm((int)syscall(SYS_gettid));
}

/* The threads that exist before the first Java thread starts (VM threads, GC workers). */
static void JNICALL vm_init(jvmtiEnv *jvmti, JNIEnv *jni, jthread thread) {
    (void)jvmti;
    (void)jni;
    (void)thread;
    DIR *dir = opendir("/proc/self/task");
    if (!dir) return;
    for (struct dirent *e; (e = readdir(dir));)
        if (atoi(e->d_name) > 0) arm(atoi(e->d_name));
    closedir(dir);
}

static void JNICALL vm_death(jvmtiEnv *jvmti, JNIEnv *jni) {
    (void)jvmti;
    (void)jni;
    if (timer_only) drain_rings();
    fprintf(stderr, "FLOOR_SAMPLES %ld\n", atomic_load(&samples));
}

JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM *vm, char *options, void *reserved) {
    (void)reserved;
    if (options && *options) {
        char *end;
        unsigned long long ns = strtoull(options, &end, 10);
        timer_only = strcmp(end, ",timer") == 0;
        if ((*end && !timer_only) || ns < 100000) {
            fprintf(stderr, "signal_floor_agent: bad options '%s': an interval in nanoseconds, at least 100000,"
                    " optionally followed by ,timer\n", options);
            return JNI_ERR;
        }
        period_ns = ns;
    }
    jvmtiEnv *jvmti;
    if ((*vm)->GetEnv(vm, (void **)&jvmti, JVMTI_VERSION_1_2) != JNI_OK) return JNI_ERR;
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigaction(SIGPROF, &sa, NULL);
    jvmtiEventCallbacks callbacks;
    memset(&callbacks, 0, sizeof(callbacks));
    callbacks.ThreadStart = thread_start;
    callbacks.VMInit = vm_init;
    callbacks.VMDeath = vm_death;
    (*jvmti)->SetEventCallbacks(jvmti, &callbacks, sizeof(callbacks));
    (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_THREAD_START, NULL);
    (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_INIT, NULL);
    (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_VM_DEATH, NULL);
    pthread_t drainer;
    if (timer_only && pthread_create(&drainer, NULL, drain_thread, NULL) != 0) return JNI_ERR;
    while (timer_only && !atomic_load(&drainer_claimed)) sched_yield();
    return JNI_OK;
}
