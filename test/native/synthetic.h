/* A small synthetic profile shared by the writer tests: names and counts chosen so every figure is known. */
#ifndef TEST_SYNTHETIC_H
#define TEST_SYNTHETIC_H

#include "profile.h"

#include <stdio.h>
#include <string.h>

/* Adds a stack given as "a;b;c" (root first). */
static inline void synthetic_add(profile *p, const char *collapsed, uint64_t samples, uint64_t weight) {
    char copy[512];
    uint32_t ids[64], n = 0;
    strcpy(copy, collapsed);
    char *save = NULL;
    for (char *f = strtok_r(copy, ";", &save); f; f = strtok_r(NULL, ";", &save))
        ids[n++] = profile_intern(p, f, f[0] == '[' ? FTYPE_MARKER : FTYPE_JAVA);
    profile_add(p, ids, n, samples, weight);
}

/* main -> work -> hot (60), main -> work -> cold (30), main -> idle (10); weights 10 ns per sample. */
static inline void synthetic_profile(profile *p) {
    profile_init(p);
    strcpy(p->meta.engine, "ctimer");
    strcpy(p->meta.event, "cpu");
    p->meta.interval_ns = 1000000;
    p->meta.duration_ns = 2500000000ULL;
    synthetic_add(p, "Main.main;Main.work;Main.hot", 60, 600);
    synthetic_add(p, "Main.main;Main.work;Main.cold", 30, 300);
    synthetic_add(p, "Main.main;Main.idle", 10, 100);
    profile_add_drop(p, "table_full", 4);
    profile_add_failure(p, "[unknown_Java]", 2);
}

/* What a writer writes for 'p', as a string (free it); the writer must succeed (cmocka's assert). */
static inline char *synthetic_render(int (*write)(const profile *, FILE *), const profile *p, size_t *len) {
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    assert_int_equal(write(p, f), 0);
    fclose(f);
    return buf;
}

#endif
