/*
 * race_run: the harness of the caches' race tests (test_pc_cache, test_unwind_cache): two writer and two
 * reader threads run while *racing is set, for at least 0.3 s and until the readers counted 2000 hits, at
 * most 10 s (on a loaded machine the readers may start late). Each thread gets 1..4 as its argument (a seed).
 * Then the readers must have hit and never counted a bad hit. Include after cmocka.h.
 */
#ifndef LIBPROF_RACE_RUN_H
#define LIBPROF_RACE_RUN_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

/* The race's switch and the readers' tallies, one set per test program. */
static _Atomic int racing;
static _Atomic uint64_t race_hits, race_bad;

/* The next of a thread's pseudo-random picks among k choices (n: its state, seeded by its argument). */
static inline uint64_t race_pick(uint64_t *n, uint64_t k) {
    *n = *n * 6364136223846793005ULL + 1442695040888963407ULL;
    return (*n >> 33) % k;
}

static inline void race_run(void *(*writer)(void *), void *(*reader)(void *), _Atomic int *racing,
                            _Atomic uint64_t *hits, _Atomic uint64_t *bad) {
    atomic_store(racing, 1);
    pthread_t t[4];
    for (uintptr_t i = 0; i < 4; i++) pthread_create(&t[i], NULL, i < 2 ? writer : reader, (void *)(i + 1));
    struct timespec pause = {0, 10 * 1000 * 1000};
    for (int waited = 0; waited < 1000 && (waited < 30 || atomic_load(hits) < 2000); waited++)
        nanosleep(&pause, NULL);
    atomic_store(racing, 0);
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    assert_true(atomic_load(hits) > 0);
    assert_int_equal(atomic_load(bad), 0);
}

#endif
