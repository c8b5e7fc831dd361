/*
 * jfr_synth: builds a tiny, complete JFR chunk by hand for the reader's unit tests and the fuzz corpus:
 * our own small metadata (the JDK's type names and field order), one checkpoint with every pool, and a
 * few jdk.ExecutionSample events that exercise every string encoding, pool key 0, a truncated stack,
 * native, kernel and marker frames, two threads and two thread states. What the samples should convert
 * to is spelled out next to each event below (and asserted by test_jfr_read.c).
 */
#ifndef TEST_JFR_SYNTH_H
#define TEST_JFR_SYNTH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t *data;
    size_t len, cap;
} synth_buf;

static void synth_bytes(synth_buf *b, const void *p, size_t n) {
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2 + 256;
        b->data = realloc(b->data, b->cap);
        if (!b->data) abort();
    }
    memcpy(b->data + b->len, p, n);
    b->len += n;
}
static void synth_u8(synth_buf *b, uint8_t v) { synth_bytes(b, &v, 1); }
static void synth_be(synth_buf *b, uint64_t v, int n) {
    for (int i = n - 1; i >= 0; i--) synth_u8(b, (uint8_t)(v >> (8 * i)));
}
static void synth_varint(synth_buf *b, uint64_t v) {
    for (int i = 0; i < 8 && v >= 0x80; i++, v >>= 7) synth_u8(b, (uint8_t)(v | 0x80));
    synth_u8(b, (uint8_t)v);
}
static void synth_utf8(synth_buf *b, const char *s) {
    synth_u8(b, 3);
    synth_varint(b, strlen(s));
    synth_bytes(b, s, strlen(s));
}
static void synth_latin1(synth_buf *b, const char *s) {
    synth_u8(b, 5);
    synth_varint(b, strlen(s));
    synth_bytes(b, s, strlen(s));
}
static void synth_chars(synth_buf *b, const char *s) {
    synth_u8(b, 4);
    synth_varint(b, strlen(s));
    for (const char *c = s; *c; c++) synth_varint(b, (uint8_t)*c);
}
/* An event: [size as a fixed 5-byte varint][payload...]; returns where the size goes. */
static size_t synth_event_begin(synth_buf *b, uint64_t type) {
    size_t at = b->len;
    uint8_t fixed[5] = {0x80, 0x80, 0x80, 0x80, 0};
    synth_bytes(b, fixed, 5);
    synth_varint(b, type);
    return at;
}
static void synth_event_end(synth_buf *b, size_t at) {
    uint64_t size = b->len - at;
    for (int i = 0; i < 5; i++) b->data[at + i] = (uint8_t)(((size >> (7 * i)) & 0x7f) | (i < 4 ? 0x80 : 0));
}

/* ---- metadata ---- */
typedef struct {
    const char *strings[128];
    int count;
} synth_strings;

static int synth_intern(synth_strings *t, const char *s) {
    for (int i = 0; i < t->count; i++) if (strcmp(t->strings[i], s) == 0) return i;
    t->strings[t->count] = s;
    return t->count++;
}

typedef struct {
    const char *name, *cls, *cp, *dim;
} synth_field;
typedef struct {
    const char *id, *name, *super, *simple;
    synth_field fields[6];
} synth_class;

static const synth_class SYNTH_CLASSES[] = {
    {"4", "boolean", NULL, NULL, {{0}}}, {"5", "char", NULL, NULL, {{0}}}, {"6", "float", NULL, NULL, {{0}}},
    {"7", "double", NULL, NULL, {{0}}}, {"8", "byte", NULL, NULL, {{0}}}, {"9", "short", NULL, NULL, {{0}}},
    {"10", "int", NULL, NULL, {{0}}}, {"11", "long", NULL, NULL, {{0}}}, {"20", "java.lang.String", NULL, NULL, {{0}}},
    {"21", "java.lang.Thread", NULL, NULL,
     {{"osName", "20", NULL, NULL}, {"osThreadId", "11", NULL, NULL}, {"javaName", "20", NULL, NULL},
      {"javaThreadId", "11", NULL, NULL}}},
    {"23", "java.lang.Class", NULL, NULL, {{"name", "28", "true", NULL}, {"modifiers", "10", NULL, NULL}}},
    {"27", "jdk.types.Method", NULL, NULL,
     {{"type", "23", "true", NULL}, {"name", "28", "true", NULL}, {"descriptor", "28", "true", NULL},
      {"modifiers", "10", NULL, NULL}, {"hidden", "4", NULL, NULL}}},
    {"28", "jdk.types.Symbol", NULL, "true", {{"string", "20", NULL, NULL}}},
    {"29", "jdk.types.StackTrace", NULL, NULL, {{"truncated", "4", NULL, NULL}, {"frames", "30", NULL, "1"}}},
    {"30", "jdk.types.StackFrame", NULL, NULL,
     {{"method", "27", "true", NULL}, {"lineNumber", "10", NULL, NULL}, {"bytecodeIndex", "10", NULL, NULL},
      {"type", "31", "true", NULL}}},
    {"31", "jdk.types.FrameType", NULL, "true", {{"description", "20", NULL, NULL}}},
    {"32", "jdk.types.ThreadState", NULL, "true", {{"name", "20", NULL, NULL}}},
    {"101", "jdk.ExecutionSample", "jdk.jfr.Event", NULL,
     {{"startTime", "11", NULL, NULL}, {"sampledThread", "21", "true", NULL}, {"stackTrace", "29", "true", NULL},
      {"state", "32", "true", NULL}, {"weight", "11", NULL, NULL}}},
    /* An event type the reader has no use for: skipped by its size. */
    {"102", "jdk.CPULoad", "jdk.jfr.Event", NULL, {{"startTime", "11", NULL, NULL}, {"jvmUser", "6", NULL, NULL}}},
    /* async-profiler's batched wall samples: 'samples' in a row of one thread in one state with one stack. */
    {"103", "profiler.WallClockSample", "jdk.jfr.Event", NULL,
     {{"startTime", "11", NULL, NULL}, {"sampledThread", "21", "true", NULL}, {"stackTrace", "29", "true", NULL},
      {"state", "32", "true", NULL}, {"samples", "10", NULL, NULL}, {"timeSpan", "11", NULL, NULL}}},
};
#define SYNTH_CLASS_COUNT (sizeof(SYNTH_CLASSES) / sizeof(SYNTH_CLASSES[0]))

static void synth_attr(synth_buf *tree, synth_strings *t, const char *k, const char *v) {
    synth_varint(tree, (uint64_t)synth_intern(t, k));
    synth_varint(tree, (uint64_t)synth_intern(t, v));
}

static void synth_metadata(synth_buf *b) {
    synth_strings t = {{0}, 0};
    synth_buf tree = {0};
    synth_varint(&tree, (uint64_t)synth_intern(&t, "root"));
    synth_varint(&tree, 0);
    synth_varint(&tree, 2);
    synth_varint(&tree, (uint64_t)synth_intern(&t, "metadata"));
    synth_varint(&tree, 0);
    synth_varint(&tree, SYNTH_CLASS_COUNT);
    for (size_t i = 0; i < SYNTH_CLASS_COUNT; i++) {
        const synth_class *c = &SYNTH_CLASSES[i];
        synth_varint(&tree, (uint64_t)synth_intern(&t, "class"));
        synth_varint(&tree, 2 + (c->super != NULL) + (c->simple != NULL));
        synth_attr(&tree, &t, "name", c->name);
        synth_attr(&tree, &t, "id", c->id);
        if (c->super) synth_attr(&tree, &t, "superType", c->super);
        if (c->simple) synth_attr(&tree, &t, "simpleType", c->simple);
        int nf = 0;
        while (nf < 6 && c->fields[nf].name) nf++;
        synth_varint(&tree, (uint64_t)nf + (i == 0));
        for (int f = 0; f < nf; f++) {
            const synth_field *fd = &c->fields[f];
            synth_varint(&tree, (uint64_t)synth_intern(&t, "field"));
            synth_varint(&tree, 2 + (fd->cp != NULL) + (fd->dim != NULL));
            synth_attr(&tree, &t, "name", fd->name);
            synth_attr(&tree, &t, "class", fd->cls);
            if (fd->cp) synth_attr(&tree, &t, "constantPool", fd->cp);
            if (fd->dim) synth_attr(&tree, &t, "dimension", fd->dim);
            synth_varint(&tree, 0);
        }
        if (i == 0) {  /* an annotation element, which the reader must read past */
            synth_varint(&tree, (uint64_t)synth_intern(&t, "annotation"));
            synth_varint(&tree, 1);
            synth_attr(&tree, &t, "class", "4");
            synth_varint(&tree, 0);
        }
    }
    synth_varint(&tree, (uint64_t)synth_intern(&t, "region"));
    synth_varint(&tree, 1);
    synth_attr(&tree, &t, "locale", "en_US");
    synth_varint(&tree, 0);

    size_t at = synth_event_begin(b, 0);
    synth_varint(b, 0);  /* start */
    synth_varint(b, 0);  /* duration */
    synth_varint(b, 1);  /* metadata id */
    synth_varint(b, (uint64_t)t.count);
    for (int i = 0; i < t.count; i++) synth_utf8(b, t.strings[i]);
    synth_bytes(b, tree.data, tree.len);
    synth_event_end(b, at);
    free(tree.data);
}

/* ---- pools ---- */
enum { SYM_MAIN_CLS = 1, SYM_MAIN, SYM_WORK, SYM_SPIN, SYM_DESC, SYM_THREAD_CLS, SYM_SLEEP, SYM_EMPTY, SYM_DEFLATE,
       SYM_SYSCALL, SYM_UNKNOWN_JAVA, SYM_COUNT };
enum { M_MAIN = 1, M_WORK, M_SPIN, M_SLEEP, M_DEFLATE, M_SYSCALL, M_UNKNOWN_JAVA };

/* The line number of every frame, as written: an int field's own 32-bit width unless a test asks for the
 * 64-bit sign extension that strict readers must refuse. */
static int32_t synth_line = 7;
static bool synth_line_as_long;
/* When set, the chunk also holds two profiler.WallClockSample events of 5 samples each (thread worker-os,
 * sleeping, in Thread.sleep). */
static bool synth_wall_batches;

static void synth_frame(synth_buf *b, uint64_t method, uint64_t type) {
    synth_varint(b, method);
    synth_varint(b, synth_line_as_long ? (uint64_t)(int64_t)synth_line : (uint32_t)synth_line);
    synth_varint(b, 3);   /* bci */
    synth_varint(b, type);
}

static void synth_checkpoint(synth_buf *b) {
    size_t at = synth_event_begin(b, 1);
    synth_varint(b, 0);
    synth_varint(b, 0);
    synth_varint(b, 0);   /* delta: the only checkpoint */
    synth_u8(b, 1);
    synth_varint(b, 8);   /* pools */

    synth_varint(b, 20);  /* java.lang.String pool, for a tag-2 reference */
    synth_varint(b, 1);
    synth_varint(b, 9);
    synth_utf8(b, "spin");

    synth_varint(b, 28);  /* symbols, in every string encoding */
    synth_varint(b, SYM_COUNT - 1);
    synth_varint(b, SYM_MAIN_CLS); synth_utf8(b, "demo/Main");
    synth_varint(b, SYM_MAIN); synth_latin1(b, "main");
    synth_varint(b, SYM_WORK); synth_chars(b, "work");
    synth_varint(b, SYM_SPIN); synth_u8(b, 2); synth_varint(b, 9);   /* "spin" from the string pool */
    synth_varint(b, SYM_DESC); synth_utf8(b, "()V");
    synth_varint(b, SYM_THREAD_CLS); synth_utf8(b, "java.lang.Thread");   /* dotted: normalised */
    synth_varint(b, SYM_SLEEP); synth_utf8(b, "sleep");
    synth_varint(b, SYM_EMPTY); synth_u8(b, 1);
    synth_varint(b, SYM_DEFLATE); synth_utf8(b, "deflate");
    synth_varint(b, SYM_SYSCALL); synth_utf8(b, "do_syscall_64");
    synth_varint(b, SYM_UNKNOWN_JAVA); synth_utf8(b, "[unknown_Java]");

    synth_varint(b, 23);  /* classes */
    synth_varint(b, 3);
    synth_varint(b, 1); synth_varint(b, SYM_MAIN_CLS); synth_varint(b, 1);
    synth_varint(b, 2); synth_varint(b, SYM_THREAD_CLS); synth_varint(b, 1);
    synth_varint(b, 3); synth_varint(b, SYM_EMPTY); synth_varint(b, 0);

    synth_varint(b, 27);  /* methods: class, name, descriptor, modifiers, hidden */
    synth_varint(b, 7);
    const uint64_t methods[7][3] = {{1, SYM_MAIN, SYM_DESC}, {1, SYM_WORK, SYM_DESC}, {1, SYM_SPIN, SYM_DESC},
                                    {2, SYM_SLEEP, SYM_DESC}, {3, SYM_DEFLATE, SYM_DESC}, {3, SYM_SYSCALL, SYM_DESC},
                                    {3, SYM_UNKNOWN_JAVA, SYM_DESC}};
    for (int i = 0; i < 7; i++) {
        synth_varint(b, (uint64_t)i + 1);
        for (int k = 0; k < 3; k++) synth_varint(b, methods[i][k]);
        synth_varint(b, 9);
        synth_u8(b, 0);
    }

    synth_varint(b, 31);  /* frame types: key 0 is a real key, as in the JDK */
    synth_varint(b, 5);
    synth_varint(b, 0); synth_utf8(b, "Interpreted");
    synth_varint(b, 1); synth_utf8(b, "JIT compiled");
    synth_varint(b, 2); synth_utf8(b, "Inlined");
    synth_varint(b, 3); synth_utf8(b, "Native");
    synth_varint(b, 6); synth_utf8(b, "Kernel");

    synth_varint(b, 32);  /* thread states */
    synth_varint(b, 2);
    synth_varint(b, 1); synth_utf8(b, "STATE_RUNNABLE");
    synth_varint(b, 2); synth_utf8(b, "STATE_SLEEPING");

    synth_varint(b, 21);  /* threads: osName, osThreadId, javaName, javaThreadId */
    synth_varint(b, 2);
    synth_varint(b, 1); synth_utf8(b, "main"); synth_varint(b, 100); synth_utf8(b, "main"); synth_varint(b, 1);
    synth_varint(b, 2); synth_utf8(b, "worker-os"); synth_varint(b, 101); synth_u8(b, 0); synth_varint(b, 0);

    synth_varint(b, 29);  /* stack traces, leaf first */
    synth_varint(b, 4);
    synth_varint(b, 1); synth_u8(b, 0); synth_varint(b, 3);              /* main;work;spin */
    synth_frame(b, M_SPIN, 1); synth_frame(b, M_WORK, 2); synth_frame(b, M_MAIN, 0);
    synth_varint(b, 2); synth_u8(b, 0); synth_varint(b, 2);              /* main;java/lang/Thread.sleep */
    synth_frame(b, M_SLEEP, 3); synth_frame(b, M_MAIN, 0);
    synth_varint(b, 3); synth_u8(b, 0); synth_varint(b, 4);              /* main;[unknown_Java];deflate;do_syscall_64 */
    synth_frame(b, M_SYSCALL, 6); synth_frame(b, M_DEFLATE, 3); synth_frame(b, M_UNKNOWN_JAVA, 3);
    synth_frame(b, M_MAIN, 0);
    synth_varint(b, 4); synth_u8(b, 1); synth_varint(b, 1);              /* truncated: [truncated];spin */
    synth_frame(b, M_SPIN, 1);
    synth_event_end(b, at);
}

/* A sample: time (ticks = ns after the chunk start), thread, stack, state, weight. */
static void synth_sample(synth_buf *b, uint64_t ticks, uint64_t thread, uint64_t stack, uint64_t state,
                         uint64_t weight) {
    size_t at = synth_event_begin(b, 101);
    synth_varint(b, ticks);
    synth_varint(b, thread);
    synth_varint(b, stack);
    synth_varint(b, state);
    synth_varint(b, weight);
    synth_event_end(b, at);
}

#define SYNTH_START_NS 1700000000000000000ULL

/* The chunk: samples at 0..5 ms after SYNTH_START_NS. Expected collapsed output (default options):
 *   demo/Main.main;demo/Main.work;demo/Main.spin 3        (thread main, RUNNABLE, weight 10 each)
 *   demo/Main.main;java/lang/Thread.sleep 2               (thread worker-os, SLEEPING, weight 100 each)
 *   demo/Main.main;[unknown_Java];deflate;do_syscall_64 1 (thread main, RUNNABLE, weight 1)
 *   [truncated];demo/Main.spin 1                          (thread main, RUNNABLE, weight 1) */
static synth_buf synth_chunk(void) {
    synth_buf b = {0};
    synth_bytes(&b, "FLR", 4);
    synth_be(&b, 2, 2);
    synth_be(&b, 1, 2);
    size_t size_at = b.len;
    synth_be(&b, 0, 8);  /* size, patched */
    synth_be(&b, 0, 8);  /* checkpoint offset, patched */
    synth_be(&b, 0, 8);  /* metadata offset, patched */
    synth_be(&b, SYNTH_START_NS, 8);
    synth_be(&b, 6000000, 8);     /* duration: 6 ms */
    synth_be(&b, 1000, 8);        /* start ticks */
    synth_be(&b, 1000000000, 8);  /* ticks per second */
    synth_be(&b, 1, 4);           /* state 0, flags: compressed integers */
    size_t meta_at = b.len;
    synth_metadata(&b);
    synth_sample(&b, 1000 + 0, 1, 1, 1, 10);
    synth_sample(&b, 1000 + 1000000, 2, 2, 2, 100);
    size_t cp_at = b.len;
    synth_checkpoint(&b);
    synth_sample(&b, 1000 + 2000000, 1, 1, 1, 10);
    synth_sample(&b, 1000 + 3000000, 2, 2, 2, 100);
    synth_sample(&b, 1000 + 4000000, 1, 3, 1, 1);
    size_t at = synth_event_begin(&b, 102);  /* a CPU load event, to be skipped */
    synth_varint(&b, 1000);
    synth_be(&b, 0x3f000000, 4);
    synth_event_end(&b, at);
    synth_sample(&b, 1000 + 5000000, 1, 1, 1, 10);
    synth_sample(&b, 1000 + 5000000, 1, 4, 1, 1);
    for (int i = 0; synth_wall_batches && i < 2; i++) {
        at = synth_event_begin(&b, 103);
        synth_varint(&b, 1000 + 5500000);
        synth_varint(&b, 2);        /* thread worker-os */
        synth_varint(&b, 2);        /* main;java/lang/Thread.sleep */
        synth_varint(&b, 2);        /* STATE_SLEEPING */
        synth_varint(&b, 5);        /* samples */
        synth_varint(&b, 500000);   /* timeSpan */
        synth_event_end(&b, at);
    }
    uint8_t *h = b.data;
    for (int i = 0; i < 8; i++) {
        h[size_at + i] = (uint8_t)((uint64_t)b.len >> (56 - 8 * i));
        h[size_at + 8 + i] = (uint8_t)((uint64_t)cp_at >> (56 - 8 * i));
        h[size_at + 16 + i] = (uint8_t)((uint64_t)meta_at >> (56 - 8 * i));
    }
    return b;
}

#endif
