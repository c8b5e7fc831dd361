/*
 * classfile: instruments a class file (classfile.h): parses it completely, asks the filter about each
 * method with code, and writes a copy in which every selected method starts with
 *     invokestatic helper_class.helper_method()V; nop
 *
 * Why 4 bytes and not the 3 of the invokestatic alone: inserting a multiple of 4 at offset 0 moves every
 * instruction by the same amount and keeps each tableswitch/lookupswitch on the same 4-byte alignment,
 * so no switch changes its 0-3 padding bytes, no instruction changes size, and every relative branch
 * (16-bit conditional, goto and jsr, 32-bit goto_w/jsr_w, switch offsets) keeps its distance. A 16-bit branch can
 * therefore never overflow, no branch needs widening or inverting, and no new basic block (which would
 * need a new StackMapTable frame) is ever created: the rewrite is correct by construction, which matters
 * because the JVM does not verify boot classes. The price is one nop per call, which the interpreter
 * executes and the JIT compilers drop. Branches to offset 0 (a loop back to the method start) keep their
 * distance too, so they land on the original first instruction and the helper runs once per call.
 *
 * Absolute code offsets outside the bytecode are moved by classfile_codeattr.c. The constant pool only
 * grows at its end (classfile_pool.c), so no existing index changes. The class is refused, untouched,
 * when any part of it cannot be parsed, for unknown versions, and when a limit would break (code length
 * 65535, constant pool 65535). The helper class itself is never instrumented (it would call itself).
 *
 * classfile_trace rewrites for timing calls instead (classfile.h); its exit calls change offsets, which
 * classfile_code.c and classfile_codeattr.c relocate.
 *
 * Pure function of its input: called from the JVMTI ClassFileLoadHook, the classfile tool, tests, fuzzing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classfile.h"
#include "classfile_parts.h"

#define ACC_NATIVE 0x0100
#define ACC_ABSTRACT 0x0400

/* Decodes a Utf8 entry (modified UTF-8: supplementary characters as two 3-byte surrogates) into a
 * NUL-terminated standard UTF-8 string for the filter; NULL when out of memory. */
static char *decode_name(const classfile_pool *pool, uint16_t index) {
    const uint8_t *s;
    uint16_t n;
    if (!classfile_pool_utf8(pool, index, &s, &n)) return NULL;
    char *out = malloc((size_t)n + 1), *o = out;
    if (!out) return NULL;
    for (uint32_t i = 0; i < n;) {
        /* ED A0-AF xx ED B0-BF xx: a high and a low surrogate, one code point above U+FFFF */
        if (n - i >= 6 && s[i] == 0xed && (s[i + 1] & 0xf0) == 0xa0 && s[i + 3] == 0xed && (s[i + 4] & 0xf0) == 0xb0) {
            uint32_t hi = ((s[i + 1] & 0x0fu) << 6) | (s[i + 2] & 0x3fu);
            uint32_t lo = ((s[i + 4] & 0x0fu) << 6) | (s[i + 5] & 0x3fu);
            uint32_t cp = 0x10000 + (hi << 10) + lo;
            *o++ = (char)(0xf0 | cp >> 18);
            *o++ = (char)(0x80 | (cp >> 12 & 0x3f));
            *o++ = (char)(0x80 | (cp >> 6 & 0x3f));
            *o++ = (char)(0x80 | (cp & 0x3f));
            i += 6;
        } else {
            *o++ = (char)s[i++];
        }
    }
    *o = 0;
    return out;
}

/* What pass 1 learns about one method. */
typedef struct {
    size_t start;         /* offset of access_flags */
    size_t code_at;       /* offset of the Code attribute's name index, 0 when none */
    bool selected;
    bool is_init;         /* <init>: no tracing handler (see classfile_trace in classfile.h) */
    int trace_id;         /* tracing: the id the filter gave it */
} method_info;

/* The caller's filter, either kind: one says yes or no (sampling), the other gives an id (tracing). */
typedef struct {
    classfile_method_filter sample;
    classfile_trace_filter trace;
    void *arg;
} method_chooser;

typedef struct {
    const uint8_t *in;
    size_t len;
    classfile_pool pool;
    char *class_name;
    size_t methods_at;    /* offset of methods_count */
    size_t attributes_at; /* offset of the class attributes_count */
    uint16_t methods_count;
    method_info *methods;
    int selected;
} parsed_class;

/* Walks one method's attributes to its Code (at most one, and only when not abstract or native). */
static bool parse_method(parsed_class *pc, classfile_cursor *c, uint32_t i, const method_chooser *chooser,
                         classfile_err *err) {
    method_info *m = &pc->methods[i];
    m->start = c->pos;
    uint16_t access, name, desc, attrs;
    if (!classfile_read2(c, &access) || !classfile_read2(c, &name) || !classfile_read2(c, &desc) ||
        !classfile_read2(c, &attrs))
        return classfile_fail(err, "truncated in method %u", i);
    if (!classfile_pool_utf8(&pc->pool, name, &(const uint8_t *){0}, &(uint16_t){0}) ||
        !classfile_pool_utf8(&pc->pool, desc, &(const uint8_t *){0}, &(uint16_t){0}))
        return classfile_fail(err, "method %u: name or descriptor index is not a Utf8 entry", i);
    for (uint32_t a = 0; a < attrs; a++) {
        size_t at = c->pos;
        uint16_t attr_name;
        uint32_t len;
        if (!classfile_read2(c, &attr_name) || !classfile_read4(c, &len) || !classfile_skip(c, len))
            return classfile_fail(err, "truncated in method %u, attribute %u", i, a);
        if (!classfile_pool_utf8_is(&pc->pool, attr_name, "Code")) continue;
        if (m->code_at) return classfile_fail(err, "method %u has two Code attributes", i);
        m->code_at = at;
    }
    bool bodyless = (access & (ACC_NATIVE | ACC_ABSTRACT)) != 0;
    if (bodyless == (m->code_at != 0))
        return classfile_fail(err, "method %u: %s", i, bodyless ? "abstract or native with a Code attribute"
                                                         : "no Code attribute");
    if (bodyless) return true;
    char *mname = decode_name(&pc->pool, name), *mdesc = decode_name(&pc->pool, desc);
    if (mname && mdesc && chooser->sample) m->selected = chooser->sample(pc->class_name, mname, mdesc, chooser->arg);
    if (mname && mdesc && chooser->trace) {
        m->trace_id = chooser->trace(pc->class_name, mname, mdesc, chooser->arg);
        m->selected = m->trace_id >= 0 && m->trace_id <= CLASSFILE_TRACE_MAX_ID;
        m->is_init = strcmp(mname, "<init>") == 0;
    }
    free(mname);
    free(mdesc);
    if (!mname || !mdesc) return classfile_fail(err, "out of memory");
    pc->selected += m->selected;
    return true;
}

/* Pass 1: the whole class, checked down to its last byte; the filter is asked once per method. */
static bool parse_class(parsed_class *pc, const char *helper_class, const method_chooser *chooser,
                        classfile_err *err) {
    const uint8_t *in = pc->in;
    if (pc->len < 10) return classfile_fail(err, "truncated header (%zu bytes)", pc->len);
    if (classfile_u4(in) != 0xCAFEBABE)
        return classfile_fail(err, "bad magic 0x%08x (not a class file)", classfile_u4(in));
    uint32_t minor = classfile_u2(in + 4), major = classfile_u2(in + 6);
    if (major < CLASSFILE_MIN_MAJOR || major > CLASSFILE_MAX_MAJOR)
        return classfile_fail(err, "class file version %u.%u not supported (major %d to %d)", major, minor,
                       CLASSFILE_MIN_MAJOR, CLASSFILE_MAX_MAJOR);
    if (major >= 56 && minor != 0 && minor != 0xffff)
        return classfile_fail(err, "class file version %u.%u: minor must be 0 or 65535 from major 56", major, minor);
    if (!classfile_pool_parse(&pc->pool, in, pc->len, err)) return false;
    classfile_cursor c = {in, pc->len, pc->pool.end};
    uint16_t this_class, interfaces, fields;
    if (!classfile_skip(&c, 2) || !classfile_read2(&c, &this_class) || !classfile_skip(&c, 2) ||
        !classfile_read2(&c, &interfaces) ||
        !classfile_skip(&c, (size_t)interfaces * 2))
        return classfile_fail(err, "truncated after the constant pool");
    uint16_t name = classfile_pool_class_name(&pc->pool, this_class);
    if (!name) return classfile_fail(err, "this_class %u is not a Class entry", this_class);
    if (!(pc->class_name = decode_name(&pc->pool, name))) return classfile_fail(err, "out of memory");
    if (strcmp(pc->class_name, helper_class) == 0) return true;  /* nothing selected: UNCHANGED */
    if (!classfile_read2(&c, &fields)) return classfile_fail(err, "truncated before the fields");
    for (uint32_t i = 0; i < fields; i++)
        if (!classfile_skip(&c, 6) || !classfile_skip_attributes(&c))
            return classfile_fail(err, "truncated in field %u", i);
    pc->methods_at = c.pos;
    if (!classfile_read2(&c, &pc->methods_count)) return classfile_fail(err, "truncated before the methods");
    pc->methods = calloc(pc->methods_count + 1u, sizeof(method_info));
    if (!pc->methods) return classfile_fail(err, "out of memory");
    for (uint32_t i = 0; i < pc->methods_count; i++)
        if (!parse_method(pc, &c, i, chooser, err)) return false;
    pc->attributes_at = c.pos;
    if (!classfile_skip_attributes(&c)) return classfile_fail(err, "truncated in the class attributes");
    if (c.pos != pc->len) return classfile_fail(err, "%zu extra bytes after the class attributes", pc->len - c.pos);
    return true;
}

/* Appends " in method NAME" to the reason a method's rewrite failed. */
static void name_method(const parsed_class *pc, const method_info *m, classfile_err *err) {
    if (!err->why || err->len == 0) return;
    size_t n = strlen(err->why);
    const uint8_t *s;
    uint16_t len;
    if (n + 1 < err->len && classfile_pool_utf8(&pc->pool, classfile_u2(pc->in + m->start + 2), &s, &len))
        snprintf(err->why + n, err->len - n, " in method %.*s", (int)len, (const char *)s);
}

/* Pass 2: the copy, with the pool extended and the selected methods' Code attributes rewritten as 'probe'
 * says (its id and handler set per method when tracing). */
static bool write_class(const parsed_class *pc, const classfile_probe *probe, classfile_buf *out,
                        classfile_err *err) {
    const uint8_t *in = pc->in;
    classfile_buf_put(out, in, 8);
    classfile_buf_put2(out, pc->pool.count + pc->pool.added_slots);
    classfile_buf_put(out, in + 10, pc->pool.end - 10);
    classfile_buf_put(out, pc->pool.added.data, pc->pool.added.len);
    classfile_buf_put(out, in + pc->pool.end, pc->methods_at + 2 - pc->pool.end);
    for (uint32_t i = 0; i < pc->methods_count; i++) {
        const method_info *m = &pc->methods[i];
        size_t end = i + 1 < pc->methods_count ? pc->methods[i + 1].start : pc->attributes_at;
        if (!m->selected) {
            classfile_buf_put(out, in + m->start, end - m->start);
            continue;
        }
        size_t body_at = m->code_at + 6;
        uint32_t body_len = classfile_u4(in + m->code_at + 2);
        classfile_buf_put(out, in + m->start, m->code_at - m->start);
        classfile_probe mine = *probe;
        if (probe->trace_id >= 0) {
            mine.trace_id = m->trace_id;
            if (m->is_init) mine.throwable_class = 0;
        }
        if (!classfile_code_rewrite(&pc->pool, classfile_u2(in + m->code_at), in + body_at, body_len, &mine, out,
                                    err)) {
            name_method(pc, m, err);
            return false;
        }
        classfile_buf_put(out, in + body_at + body_len, end - body_at - body_len);
    }
    classfile_buf_put(out, in + pc->attributes_at, pc->len - pc->attributes_at);
    if (out->failed) return classfile_fail(err, "out of memory writing the class");
    return true;
}

/* Both rewrites: parse, add what the calls need to the pool ('add_refs'), write. */
typedef bool (*probe_refs)(classfile_pool *pool, const char *helper_class, const char *const names[2],
                           uint32_t major, classfile_probe *probe, classfile_err *err);

static classfile_result rewrite(const uint8_t *in, size_t in_len, const char *helper_class,
                                const char *const names[2], const method_chooser *chooser, probe_refs add_refs,
                                uint8_t **out, size_t *out_len, int *methods_rewritten, char *why, size_t why_len) {
    classfile_err err = {why, why_len};
    if (why && why_len) why[0] = 0;
    if (out) *out = NULL;
    if (out_len) *out_len = 0;
    if (methods_rewritten) *methods_rewritten = 0;
    if (!in || !helper_class || !names[0] || !(chooser->sample || chooser->trace) || !out || !out_len) {
        classfile_fail(&err, "classfile_instrument: missing argument");
        return CLASSFILE_REFUSED;
    }
    parsed_class pc = {.in = in, .len = in_len};
    classfile_buf buf = {0};
    classfile_result result = CLASSFILE_REFUSED;
    if (parse_class(&pc, helper_class, chooser, &err)) {
        result = CLASSFILE_UNCHANGED;
        if (pc.selected > 0) {
            result = CLASSFILE_REFUSED;
            classfile_probe probe = {.trace_id = -1};
            if (add_refs(&pc.pool, helper_class, names, classfile_u2(in + 6), &probe, &err) &&
                write_class(&pc, &probe, &buf, &err)) {
                result = CLASSFILE_REWRITTEN;
                *out = buf.data;
                *out_len = buf.len;
                buf.data = NULL;
                if (methods_rewritten) *methods_rewritten = pc.selected;
            }
        }
    }
    classfile_buf_free(&buf);
    classfile_pool_free(&pc.pool);
    free(pc.class_name);
    free(pc.methods);
    return result;
}

static bool sample_refs(classfile_pool *pool, const char *helper_class, const char *const names[2], uint32_t major,
                        classfile_probe *probe, classfile_err *err) {
    (void)major;
    probe->enter_ref = classfile_pool_methodref(pool, helper_class, names[0], "()V", err);
    return probe->enter_ref != 0;
}

/* The entry and exit calls, and for the handler java/lang/Throwable and, from version 50 on, the name of
 * the StackMapTable a method without one gets. */
static bool trace_refs(classfile_pool *pool, const char *helper_class, const char *const names[2], uint32_t major,
                       classfile_probe *probe, classfile_err *err) {
    probe->trace_id = 0;
    probe->enter_ref = classfile_pool_methodref(pool, helper_class, names[0], "(I)V", err);
    probe->exit_ref = probe->enter_ref ? classfile_pool_methodref(pool, helper_class, names[1], "(I)V", err) : 0;
    probe->throwable_class = probe->exit_ref ? classfile_pool_class(pool, "java/lang/Throwable", err) : 0;
    if (!probe->throwable_class) return false;
    if (major < 50) return true;
    probe->stack_map_name = classfile_pool_utf8_add(pool, "StackMapTable", err);
    return probe->stack_map_name != 0;
}

classfile_result classfile_instrument(const uint8_t *in, size_t in_len, const char *helper_class,
                                      const char *helper_method, classfile_method_filter filter, void *arg,
                                      uint8_t **out, size_t *out_len, int *methods_rewritten,
                                      char *why, size_t why_len) {
    const char *const names[2] = {helper_method, NULL};
    method_chooser chooser = {.sample = filter, .arg = arg};
    return rewrite(in, in_len, helper_class, names, &chooser, sample_refs, out, out_len, methods_rewritten, why,
                   why_len);
}

classfile_result classfile_trace(const uint8_t *in, size_t in_len, const char *helper_class, const char *enter,
                                 const char *exit, classfile_trace_filter filter, void *arg, uint8_t **out,
                                 size_t *out_len, int *methods_rewritten, char *why, size_t why_len) {
    /* A missing exit name is a missing argument like a missing entry name. */
    const char *const names[2] = {exit ? enter : NULL, exit};
    method_chooser chooser = {.trace = filter, .arg = arg};
    return rewrite(in, in_len, helper_class, names, &chooser, trace_refs, out, out_len, methods_rewritten, why,
                   why_len);
}
