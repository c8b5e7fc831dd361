/*
 * jfr_pools: stack traces are written first, into the checkpoint, while their frames are resolved into
 * methods; methods, classes, packages and symbols are collected on the way and written after (pool order
 * does not matter to readers). Java methods are described once per chunk (name, class, descriptor, line
 * table) through JVMTI; every other frame once per distinct pc or address, by the one frame resolver
 * (frame_names). Each chunk writes the entries it refers to, under the keys the recording's registry gives them.
 */
#include "jfr_pools.h"

#include "array_grow.h"

#include "class_names.h"
#include "frame_names.h"
#include "thread_state.h"
#include "jfr_chunk.h"
#include "jfr_metadata.h"
#include "jfr_types.h"
#include "jvm.h"
#include "profile.h"
#include "span_tags.h"
#include "threads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ACC_NATIVE 0x0100
/* The registry starts afresh (under new keys) beyond this many names or Java methods: a bound for
 * recordings of applications that keep generating classes. */
#define REGISTRY_MAX 1000000
#define PREFIX_SHIFT 40

typedef struct {
    uint64_t key;            /* the method's key in the recording */
    uint32_t class_key;      /* class keys are their name's symbol */
    uint32_t name_sym, desc_sym;
    int modifiers;
    jvm_method_info *java;   /* Java methods: the line table (and names), else NULL */
} method_rec;

typedef struct {
    uint32_t name_sym;
    uint32_t package_key;    /* 0 = none */
    int modifiers;
} class_rec;

/* Everything resolved while one checkpoint is written. Symbols (id + 1 in the registry), classes and
 * packages (their name's symbol) are written with the registry's prefix; "local" method numbers below are
 * indexes + 1 into this chunk's methods. 0 is null throughout. */
typedef struct {
    jfr_pools *pools;
    u64map symbols_used;     /* symbol -> 1: the symbols this chunk writes */
    u64map java_methods;     /* jmethodID -> local method number */
    u64map pcs;              /* native pc -> frame type << 32 | local method number */
    u64map kernel_addrs;     /* kernel address -> local method number */
    u64map named;            /* (symbol << 3 | frame type) -> local method number, for non-Java methods */
    u64map classes;          /* class name symbol -> 1 */
    u64map packages;         /* package name symbol -> 1 */
    method_rec *methods;
    size_t method_count, method_cap;
    class_rec *class_list;
    size_t class_count, class_cap;
    uint32_t *package_syms;
    size_t package_count, package_cap;
    uint32_t synthetic_class;
    bool failed;
} resolver;

/* The written key of a symbol, class or package (0 stays null). */
static uint64_t ref(const resolver *r, uint32_t sym) {
    return sym ? r->pools->prefix | sym : 0;
}

/* The written key of a local method number. */
static uint64_t method_ref(const resolver *r, uint32_t local) {
    return local ? r->methods[local - 1].key : 0;
}

static void registry_init(jfr_pools *p, uint64_t prefix) {
    profile_init(&p->strings);
    u64map_init(&p->java_keys);
    p->java_count = 0;
    p->prefix = prefix;
}

static void registry_free(jfr_pools *p) {
    profile_free(&p->strings);
    u64map_free(&p->java_keys);
}

void jfr_pools_init(jfr_pools *p, trace_table *table0, trace_table *table1, bool lib) {
    memset(p, 0, sizeof(*p));
    p->tables[0] = table0;
    p->tables[1] = table1;
    p->generation[1] = 1;
    p->lib = lib;
    p->chunk_seq = 1;
    u64map_init(&p->traces);
    u64map_init(&p->threads);
    u64map_init(&p->event_classes);
    u64map_init(&p->span_tags);
    registry_init(p, 1ULL << PREFIX_SHIFT);
}

void jfr_pools_free(jfr_pools *p) {
    u64map_free(&p->traces);
    u64map_free(&p->threads);
    u64map_free(&p->event_classes);
    u64map_free(&p->span_tags);
    registry_free(p);
}

void jfr_pools_note(jfr_pools *p, uint32_t trace_id, uint32_t tid) {
    uint64_t seen;
    if (trace_id && !u64map_get(&p->traces, trace_id, &seen) && u64map_put(&p->traces, trace_id, 1)) p->failed = true;
    if (tid && !u64map_get(&p->threads, tid, &seen)) {
        if (u64map_put(&p->threads, tid, 1)) p->failed = true;
        /* Named while it runs: a thread that ends before the chunk does keeps its name in the pool. */
        threads_remember_os_name((int)tid);
    }
}

void jfr_pools_note_tag(jfr_pools *p, uint64_t key) {
    uint64_t seen;
    if (key && !u64map_get(&p->span_tags, key, &seen) && u64map_put(&p->span_tags, key, 1)) p->failed = true;
}

static void put_tag(const char *tag, void *arg) {
    jfr_buf_put_utf8(arg, tag);
}

/* The String pool: the span tags the chunk's events name. */
static void write_span_tags(jfr_pools *p, jfr_buf *b, jfr_checkpoint *c) {
    jfr_chunk_pool_begin(b, c, JFR_STRING);
    size_t n = 0;
    for (size_t i = 0; i < p->span_tags.capacity; i++) {
        uint64_t key = p->span_tags.keys[i];
        if (!key) continue;
        jfr_buf_put_varint(b, key);
        if (span_tags_with(key, put_tag, b)) jfr_buf_put_string(b, NULL);
        n++;
    }
    jfr_chunk_pool_end(b, c, n);
}

/* The key of an event's class (an allocation's object, a lock's monitor): its class id itself, below 2^31
 * (async-profiler's converter reads these references as a Java int), apart from the frames' classes, whose
 * keys carry the registry's prefix (2^40 and up); an id that does not fit gets a high bit instead. */
#define EVENT_CLASS_KEYS (1ULL << 62)
static uint64_t event_class_key(uint64_t class_id) {
    return class_id < (1ULL << 31) ? class_id : EVENT_CLASS_KEYS | class_id;
}

uint64_t jfr_pools_event_class_key(jfr_pools *p, uint32_t class_id) {
    uint64_t seen;
    if (!class_id) return 0;
    if (!u64map_get(&p->event_classes, class_id, &seen) && u64map_put(&p->event_classes, class_id, 1)) p->failed = true;
    return event_class_key(class_id);
}

static uint32_t symbol(resolver *r, const char *s) {
    uint32_t id = profile_intern(&r->pools->strings, s, FTYPE_NATIVE);
    uint64_t seen;
    if (id == UINT32_MAX) {
        r->failed = true;
        return 0;
    }
    if (!u64map_get(&r->symbols_used, id + 1, &seen) && u64map_put(&r->symbols_used, id + 1, 1)) r->failed = true;
    return id + 1;
}

static uint32_t package_of(resolver *r, const char *class_name) {
    const char *slash = strrchr(class_name, '/');
    if (!slash) return 0;   /* the unnamed package */
    char name[1024];
    snprintf(name, sizeof(name), "%.*s", (int)(slash - class_name), class_name);
    uint32_t sym = symbol(r, name);
    uint64_t seen;
    if (u64map_get(&r->packages, sym, &seen)) return sym;
    if (array_grow((void **)&r->package_syms, sizeof(uint32_t), r->package_count + 1, &r->package_cap)) {
        r->failed = true;
        return 0;
    }
    r->package_syms[r->package_count++] = sym;
    if (u64map_put(&r->packages, sym, 1)) r->failed = true;
    return sym;
}

static uint32_t class_key(resolver *r, const char *name, int modifiers, bool with_package) {
    uint32_t sym = symbol(r, name);
    uint64_t seen;
    if (u64map_get(&r->classes, sym, &seen)) return sym;
    if (array_grow((void **)&r->class_list, sizeof(class_rec), r->class_count + 1, &r->class_cap)) {
        r->failed = true;
        return 0;
    }
    r->class_list[r->class_count++] = (class_rec){sym, with_package ? package_of(r, name) : 0, modifiers};
    if (u64map_put(&r->classes, sym, 1)) r->failed = true;
    return sym;
}

static uint32_t add_method(resolver *r, method_rec m) {
    if (array_grow((void **)&r->methods, sizeof(method_rec), r->method_count + 1, &r->method_cap)) {
        r->failed = true;
        free(m.java ? m.java->lines : NULL);
        free(m.java);
        return 0;
    }
    r->methods[r->method_count++] = m;
    return (uint32_t)r->method_count;
}

/* A non-Java frame: a method of the synthetic class named exactly as the collapsed output names it. */
static uint32_t named_method(resolver *r, const char *name, int frame_type) {
    uint32_t sym = symbol(r, name);
    /* Frame types 0..6 as 1..7 in the low bits; Java methods have 0 there. */
    uint64_t low = (uint64_t)frame_type + 1, k = ((uint64_t)sym << 3) | low, key;
    if (u64map_get(&r->named, k, &key)) return (uint32_t)key;
    if (!r->synthetic_class) r->synthetic_class = class_key(r, JFR_SYNTHETIC_CLASS, 0, false);
    uint32_t m = add_method(r, (method_rec){r->pools->prefix | ((uint64_t)sym << 3) | low,
                                            r->synthetic_class, sym, symbol(r, JFR_SYNTHETIC_DESCRIPTOR),
                                            ACC_NATIVE, NULL});
    if (u64map_put(&r->named, k, m)) r->failed = true;
    return m;
}

/* The recording's key of a Java method. */
static uint64_t java_key(resolver *r, uint64_t method_id) {
    jfr_pools *p = r->pools;
    uint64_t key;
    if (u64map_get(&p->java_keys, method_id, &key)) return key;
    key = p->prefix | (++p->java_count << 3);
    if (u64map_put(&p->java_keys, method_id, key)) r->failed = true;
    return key;
}

typedef struct {
    uint32_t method;   /* local method number */
    int32_t line, bci;
    int type;
} frame_out;

/* The JFR frame type of a frame frame_names named (the convention of jfr_types.h). */
static int jfr_frame_type(const trace_frame *f, frame_type type, bool cpp) {
    /* A class leaf stays out of JFR stacks (write_stack); were one written, async-profiler's types: Inlined
     * ("_[i]"), Kernel ("_[k]") outside a TLAB, which is what the ann suffixes spell. */
    if (frame_kind_is_class(f->kind))
        return f->kind == FRAME_CLASS_ALLOC_OUTSIDE_TLAB ? JFR_FRAME_KERNEL : JFR_FRAME_INLINED;
    if (type == FTYPE_KERNEL) return JFR_FRAME_KERNEL;
    return cpp ? JFR_FRAME_CPP : JFR_FRAME_NATIVE;
}

/* A frame that is not a described Java method: named by frame_names, without annotations (a reader adds
 * them from the frame type), cached per native pc or kernel address. */
static frame_out named_frame(resolver *r, const trace_frame *f) {
    u64map *cache = f->kind == FRAME_NATIVE ? &r->pcs : f->kind == FRAME_KERNEL ? &r->kernel_addrs : NULL;
    uint64_t key;
    if (cache && u64map_get(cache, f->id, &key)) return (frame_out){(uint32_t)key, -1, -1, (int)(key >> 32)};
    char name[1024];
    bool cpp = false;
    frame_type type = frame_names_get(f, (names_style){0}, r->pools->lib, name, sizeof(name), &cpp);
    /* async-profiler's spelling of a sample's CPU in a recording: a native frame "CPU-1", no brackets */
    if (f->kind == FRAME_CPU) snprintf(name, sizeof(name), "CPU-%u", (unsigned)f->id);
    int jfr_type = jfr_frame_type(f, type, cpp);
    uint32_t m = named_method(r, name, jfr_type);
    if (cache && m && u64map_put(cache, f->id, ((uint64_t)jfr_type << 32) | m)) r->failed = true;
    return (frame_out){m, -1, -1, jfr_type};
}

static frame_out resolve_frame(resolver *r, const trace_frame *f) {
    uint64_t key;
    if (!frame_kind_is_java(f->kind) || !f->id) return named_frame(r, f);
    if (!u64map_get(&r->java_methods, f->id, &key)) {
        jvm_method_info *info = malloc(sizeof(*info));
        if (!info || jvm_method_describe((jmethodID)(uintptr_t)f->id, info) != 0) {
            free(info);
            /* A method of a class unloaded since: the collapsed output's name for it. */
            return (frame_out){named_method(r, FRAME_NAMES_UNKNOWN_METHOD, JFR_FRAME_NATIVE), -1, -1,
                               JFR_FRAME_NATIVE};
        }
        uint32_t cls = class_key(r, info->class_name, info->class_modifiers, true);
        key = add_method(r, (method_rec){java_key(r, f->id), cls, symbol(r, info->name),
                                         symbol(r, info->descriptor), info->modifiers, info});
        if (key && u64map_put(&r->java_methods, f->id, key)) r->failed = true;
    }
    const method_rec *m = key ? &r->methods[key - 1] : NULL;
    int line = m && m->java ? jvm_lines_at(m->java, f->bci) : -1;
    int type = f->kind == FRAME_JAVA_INTERPRETED ? JFR_FRAME_INTERPRETED
               : f->kind == FRAME_JAVA_INLINED   ? JFR_FRAME_INLINED
               : f->kind == FRAME_JAVA_C1        ? JFR_FRAME_C1
                                                 : JFR_FRAME_JIT;
    return (frame_out){(uint32_t)key, line, f->bci >= 0 ? f->bci : -1, type};
}

static void write_stack(resolver *r, jfr_buf *b, uint32_t id) {
    const trace_frame *frames;
    uint32_t depth;
    traces_buffer decoded = {0};
    trace_table *table = r->pools->tables[id >> 31];
    jfr_buf_put_varint(b, jfr_pools_trace_key(r->pools, id));
    if (!table || !traces_get(table, id & 0x7fffffffu, &decoded, &frames, &depth)) {
        /* Counted before its frames were complete (cannot last), or no memory to decode them: one marker frame
         * rather than no stack. */
        static const trace_frame unknown = {MARKER_UNKNOWN_STATE, 0, FRAME_MARKER};
        frames = &unknown;
        depth = 1;
    }
    if (depth > 1 && frame_kind_is_class(frames[0].kind)) {
        /* An allocation or lock sample: its class is the event's field, not a frame (jfr_types.h). */
        frames++;
        depth--;
    }
    bool truncated = depth > 0 && frames[depth - 1].kind == FRAME_MARKER && frames[depth - 1].id == MARKER_TRUNCATED;
    jfr_buf_put_u8(b, truncated);
    jfr_buf_put_varint(b, depth);
    for (uint32_t i = 0; i < depth; i++) {
        frame_out f = resolve_frame(r, &frames[i]);
        jfr_buf_put_varint(b, method_ref(r, f.method));
        jfr_buf_put_int(b, f.line);
        jfr_buf_put_int(b, f.bci);
        jfr_buf_put_varint(b, (uint64_t)f.type);
    }
    traces_buffer_free(&decoded);
}

static void write_threads(jfr_pools *p, jfr_buf *b, jfr_checkpoint *c) {
    jfr_chunk_pool_begin(b, c, JFR_THREAD);
    size_t n = 0;
    for (size_t i = 0; i < p->threads.capacity; i++) {
        uint64_t tid = p->threads.keys[i];
        if (!tid) continue;
        char name[256];
        if (!threads_get_name((int)tid, name, sizeof(name))) name[0] = 0;   /* no name: readers write [tid=N] */
        long long java_id = threads_get_java_id((int)tid);
        jfr_buf_put_varint(b, jfr_pools_thread_key(p, (uint32_t)tid));
        jfr_buf_put_string(b, name);
        jfr_buf_put_varint(b, tid);
        jfr_buf_put_string(b, name);
        jfr_buf_put_varint(b, (uint64_t)java_id);
        jfr_buf_put_varint(b, 0);   /* thread group: none */
        n++;
    }
    jfr_chunk_pool_end(b, c, n);
}

static void write_resolved(resolver *r, jfr_buf *b, jfr_checkpoint *c) {
    jfr_chunk_pool_begin(b, c, JFR_METHOD);
    for (size_t i = 0; i < r->method_count; i++) {
        const method_rec *m = &r->methods[i];
        jfr_buf_put_varint(b, m->key);
        jfr_buf_put_varint(b, ref(r, m->class_key));
        jfr_buf_put_varint(b, ref(r, m->name_sym));
        jfr_buf_put_varint(b, ref(r, m->desc_sym));
        jfr_buf_put_int(b, m->modifiers);
        jfr_buf_put_u8(b, 0);   /* hidden: never, every frame is shown as the other outputs show it */
    }
    jfr_chunk_pool_end(b, c, r->method_count);

    jfr_chunk_pool_begin(b, c, JFR_CLASS);
    for (size_t i = 0; i < r->class_count; i++) {
        const class_rec *k = &r->class_list[i];
        jfr_buf_put_varint(b, ref(r, k->name_sym));
        jfr_buf_put_varint(b, 0);   /* class loader: not recorded */
        jfr_buf_put_varint(b, ref(r, k->name_sym));
        jfr_buf_put_varint(b, ref(r, k->package_key));
        jfr_buf_put_int(b, k->modifiers);
        jfr_buf_put_u8(b, 0);
    }
    size_t event_classes = 0;
    for (size_t i = 0; i < r->pools->event_classes.capacity; i++) {
        uint64_t id = r->pools->event_classes.keys[i];
        if (!id) continue;
        /* The JDK's form of the name: "java/lang/String" for an instance class, the signature for arrays. */
        const char *sig = class_names_signature((uint32_t)id);
        char name[1024];
        if (sig && sig[0] == 'L' && strlen(sig) >= 3) snprintf(name, sizeof(name), "%.*s", (int)strlen(sig) - 2, sig + 1);
        else snprintf(name, sizeof(name), "%s", sig ? sig : "[unknown_class]");
        jfr_buf_put_varint(b, event_class_key(id));
        jfr_buf_put_varint(b, 0);
        jfr_buf_put_varint(b, ref(r, symbol(r, name)));
        jfr_buf_put_varint(b, 0);
        jfr_buf_put_int(b, 0);
        jfr_buf_put_u8(b, 0);
        event_classes++;
    }
    jfr_chunk_pool_end(b, c, r->class_count + event_classes);

    jfr_chunk_pool_begin(b, c, JFR_PACKAGE);
    for (size_t i = 0; i < r->package_count; i++) {
        jfr_buf_put_varint(b, ref(r, r->package_syms[i]));
        jfr_buf_put_varint(b, ref(r, r->package_syms[i]));
        jfr_buf_put_varint(b, 0);   /* module: not recorded */
        jfr_buf_put_u8(b, 1);
    }
    jfr_chunk_pool_end(b, c, r->package_count);

    /* Symbols last: everything above may have added some. Each as UTF-8, the empty one (a native frame's
     * class) too, as async-profiler's converter requires; and the empty one after the others: JDK 17's
     * reader takes a first UTF-8 string of length 0 for the null it remembers as "the last string read". */
    jfr_chunk_pool_begin(b, c, JFR_SYMBOL);
    size_t n = 0;
    for (int empty = 0; empty < 2; empty++) {
        for (size_t i = 0; i < r->symbols_used.capacity; i++) {
            uint64_t sym = r->symbols_used.keys[i];
            if (!sym) continue;
            const char *text = r->pools->strings.names[sym - 1] ? r->pools->strings.names[sym - 1] : "";
            if ((*text == 0) != empty) continue;
            jfr_buf_put_varint(b, ref(r, (uint32_t)sym));
            jfr_buf_put_utf8(b, text);
            n++;
        }
    }
    jfr_chunk_pool_end(b, c, n);
}

static void resolver_free(resolver *r) {
    for (size_t i = 0; i < r->method_count; i++) {
        if (r->methods[i].java) free(r->methods[i].java->lines);
        free(r->methods[i].java);
    }
    free(r->methods);
    free(r->class_list);
    free(r->package_syms);
    u64map_free(&r->symbols_used);
    u64map_free(&r->java_methods);
    u64map_free(&r->pcs);
    u64map_free(&r->kernel_addrs);
    u64map_free(&r->named);
    u64map_free(&r->classes);
    u64map_free(&r->packages);
}

int jfr_pools_write(jfr_pools *p, jfr_buf *b, uint64_t ticks) {
    resolver r;
    memset(&r, 0, sizeof(r));
    r.pools = p;
    if (p->strings.name_count > REGISTRY_MAX || p->java_count > REGISTRY_MAX) {
        /* Afresh under a new prefix: old keys keep their old meaning, new ones cannot collide. */
        uint64_t prefix = p->prefix + (1ULL << PREFIX_SHIFT);
        registry_free(p);
        registry_init(p, prefix);
    }
    u64map_init(&r.symbols_used);
    u64map_init(&r.java_methods);
    u64map_init(&r.pcs);
    u64map_init(&r.kernel_addrs);
    u64map_init(&r.named);
    u64map_init(&r.classes);
    u64map_init(&r.packages);

    jfr_checkpoint c;
    jfr_chunk_checkpoint_begin(b, &c, ticks);
    jfr_chunk_pool_begin(b, &c, JFR_STACK_TRACE);
    size_t stacks = 0;
    for (size_t i = 0; i < p->traces.capacity; i++) {
        if (!p->traces.keys[i]) continue;
        write_stack(&r, b, (uint32_t)p->traces.keys[i]);
        stacks++;
    }
    jfr_chunk_pool_end(b, &c, stacks);
    write_resolved(&r, b, &c);
    write_threads(p, b, &c);
    write_span_tags(p, b, &c);

    jfr_chunk_pool_begin(b, &c, JFR_FRAME_TYPE);
    for (int t = 0; t < JFR_FRAME_TYPE_COUNT; t++) {
        jfr_buf_put_varint(b, (uint64_t)t);
        jfr_buf_put_string(b, jfr_frame_type_name(t));
    }
    jfr_chunk_pool_end(b, &c, JFR_FRAME_TYPE_COUNT);
    jfr_chunk_pool_begin(b, &c, JFR_THREAD_STATE);
    for (int s = 0; s < THREAD_STATE_COUNT; s++) {
        jfr_buf_put_varint(b, JFR_THREAD_STATE_KEY(s));
        jfr_buf_put_string(b, thread_state_jfr_name(s));
    }
    jfr_chunk_pool_end(b, &c, THREAD_STATE_COUNT);
    jfr_chunk_checkpoint_end(b, &c);

    int rc = r.failed || p->failed || b->failed ? -1 : 0;
    resolver_free(&r);
    /* The next chunk starts with no references, and thread keys of its own. */
    u64map_free(&p->traces);
    u64map_free(&p->threads);
    u64map_free(&p->event_classes);
    u64map_free(&p->span_tags);
    u64map_init(&p->traces);
    u64map_init(&p->threads);
    u64map_init(&p->event_classes);
    u64map_init(&p->span_tags);
    p->failed = false;
    p->chunk_seq++;
    return rc;
}

int jfr_pools_end_chunk(jfr_pools *p, jfr_buf *b, uint64_t ticks, uint64_t written, jfr_chunk_header *h) {
    h->cp_offset = written + b->len;
    int rc = jfr_pools_write(p, b, ticks);
    h->meta_offset = written + b->len;
    jfr_metadata_write(b, ticks, JFR_METADATA_ID);
    return rc;
}
