#include "threads.h"

#include "u64map.h"

#include <dirent.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static u64map names;  /* tid -> malloc'd name */
static u64map java_ids;  /* tid -> Java thread id */
static u64map os_named;  /* tid -> 1 while its name is the OS's (comm), which the kernel cuts to 15 characters */
static int ended[THREADS_ENDED_KEPT];   /* the latest threads to end, oldest at ended_first */
static size_t ended_first, ended_count;

static void put_locked(int tid, const char *name, bool from_os) {
    uint64_t old = 0;
    char *copy = strdup(name);
    if (!copy) return;
    bool had = u64map_get(&names, (uint64_t)tid, &old);
    if (u64map_put(&names, (uint64_t)tid, (uint64_t)(uintptr_t)copy)) {
        free(copy);
        return;
    }
    if (had) free((char *)(uintptr_t)old);
    if (from_os) u64map_put(&os_named, (uint64_t)tid, 1);
    else u64map_remove(&os_named, (uint64_t)tid, NULL);
}

void threads_set_name(int tid, const char *name) {
    pthread_mutex_lock(&lock);
    uint64_t known;
    /* The launcher detaches the main thread and attaches it again as "DestroyJavaVM" to shut down: keep
     * the name its samples were taken under. */
    if (strcmp(name, "DestroyJavaVM") != 0 || !u64map_get(&names, (uint64_t)tid, &known)) put_locked(tid, name, false);
    pthread_mutex_unlock(&lock);
}

static int read_comm(int tid, char *buf, size_t len) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/self/task/%d/comm", tid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char *ok = fgets(buf, (int)len, f);
    fclose(f);
    if (!ok) return -1;
    buf[strcspn(buf, "\n")] = 0;
    return 0;
}

void threads_snapshot_os_names(void) {
    DIR *dir = opendir("/proc/self/task");
    if (!dir) return;
    pthread_mutex_lock(&lock);
    for (struct dirent *e; (e = readdir(dir)) != NULL;) {
        int tid = atoi(e->d_name);
        uint64_t known;
        char comm[64];
        if (tid > 0 && !u64map_get(&names, (uint64_t)tid, &known) && read_comm(tid, comm, sizeof(comm)) == 0)
            put_locked(tid, comm, true);
    }
    pthread_mutex_unlock(&lock);
    closedir(dir);
}

void threads_remember_os_name(int tid) {
    uint64_t known;
    pthread_mutex_lock(&lock);
    bool named = u64map_get(&names, (uint64_t)tid, &known);
    pthread_mutex_unlock(&lock);
    char comm[64];
    if (named || read_comm(tid, comm, sizeof(comm)) != 0) return;
    pthread_mutex_lock(&lock);
    if (!u64map_get(&names, (uint64_t)tid, &known)) put_locked(tid, comm, true);
    pthread_mutex_unlock(&lock);
}

bool threads_get_name(int tid, char *buf, size_t len) {
    uint64_t found;
    pthread_mutex_lock(&lock);
    if (u64map_get(&names, (uint64_t)tid, &found)) {
        snprintf(buf, len, "%s", (const char *)(uintptr_t)found);
        pthread_mutex_unlock(&lock);
        return true;
    }
    pthread_mutex_unlock(&lock);
    if (read_comm(tid, buf, len) == 0) return true;
    snprintf(buf, len, "tid-%d", tid);
    return false;
}

static void forget_locked(int tid) {
    uint64_t name;
    if (u64map_remove(&names, (uint64_t)tid, &name)) free((char *)(uintptr_t)name);
    u64map_remove(&java_ids, (uint64_t)tid, NULL);
    u64map_remove(&os_named, (uint64_t)tid, NULL);
}

void threads_ended(int tid, bool (*still_alive)(int tid)) {
    pthread_mutex_lock(&lock);
    if (ended_count == THREADS_ENDED_KEPT) {
        int oldest = ended[ended_first];
        if (!still_alive || !still_alive(oldest)) forget_locked(oldest);
        ended[ended_first] = tid;
        ended_first = (ended_first + 1) % THREADS_ENDED_KEPT;
    } else {
        ended[(ended_first + ended_count++) % THREADS_ENDED_KEPT] = tid;
    }
    pthread_mutex_unlock(&lock);
}

void threads_set_java_id(int tid, long long java_id) {
    if (tid <= 0 || java_id <= 0) return;
    pthread_mutex_lock(&lock);
    u64map_put(&java_ids, (uint64_t)tid, (uint64_t)java_id);
    pthread_mutex_unlock(&lock);
}

long long threads_get_java_id(int tid) {
    uint64_t id = 0;
    pthread_mutex_lock(&lock);
    if (tid <= 0 || !u64map_get(&java_ids, (uint64_t)tid, &id)) id = 0;
    pthread_mutex_unlock(&lock);
    return (long long)id;
}

/* The kernel keeps TASK_COMM_LEN - 1 characters of a thread's name. */
#define OS_NAME_MAX 15

static bool cut_os_name_locked(int tid) {
    uint64_t name, flag;
    return u64map_get(&os_named, (uint64_t)tid, &flag) && u64map_get(&names, (uint64_t)tid, &name) &&
           strlen((const char *)(uintptr_t)name) == OS_NAME_MAX;
}

bool threads_has_cut_os_names(void) {
    bool any = false;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < os_named.capacity && !any; i++) {
        if (os_named.keys[i]) any = cut_os_name_locked((int)os_named.keys[i]);
    }
    pthread_mutex_unlock(&lock);
    return any;
}

bool threads_complete_os_name(int tid, const char *full) {
    bool done = false;
    pthread_mutex_lock(&lock);
    uint64_t name;
    if (tid > 0 && strlen(full) > OS_NAME_MAX && cut_os_name_locked(tid) &&
        u64map_get(&names, (uint64_t)tid, &name) && strncmp((const char *)(uintptr_t)name, full, OS_NAME_MAX) == 0) {
        put_locked(tid, full, false);
        done = true;
    }
    pthread_mutex_unlock(&lock);
    return done;
}

void threads_settle_os_names(void) {
    pthread_mutex_lock(&lock);
    u64map_free(&os_named);
    u64map_init(&os_named);
    pthread_mutex_unlock(&lock);
}
