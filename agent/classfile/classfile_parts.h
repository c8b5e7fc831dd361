/*
 * classfile_parts: the pieces the class file rewriter (classfile*.c) shares among its files: big-endian
 * reads, a bounds-checked cursor, a growable output buffer, error text, the constant pool, and the Code
 * attribute rewrite. Internal to classfile*.c and their unit tests; everyone else uses classfile.h.
 */
#ifndef LIBPROF_CLASSFILE_PARTS_H
#define LIBPROF_CLASSFILE_PARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Newest class file major version we know the format of (JDK 25). A newer class may contain structures
 * we would copy without understanding, so it is refused. */
#define CLASSFILE_MAX_MAJOR 69
#define CLASSFILE_MIN_MAJOR 45

/* Bytes inserted at offset 0 of every selected method: invokestatic #helper; nop (see classfile.c). */
#define CLASSFILE_PROLOGUE_LEN 4

static inline uint16_t classfile_u2(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }
static inline uint32_t classfile_u4(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline void classfile_put2(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}
static inline void classfile_put4(uint8_t *p, uint32_t v) {
    classfile_put2(p, v >> 16);
    classfile_put2(p + 2, v);
}

/* Where a failure is described: the caller's 'why' buffer. */
typedef struct {
    char *why;
    size_t len;
} classfile_err;

/* Writes the reason (printf-style) and returns false, so that failures read `return classfile_fail(...)`. */
bool classfile_fail(classfile_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A read position inside [data, data + len): every read checks the remaining length first. */
typedef struct {
    const uint8_t *data;
    size_t len;
    size_t pos;
} classfile_cursor;

static inline bool classfile_has(const classfile_cursor *c, size_t n) { return c->len - c->pos >= n; }

/* Reads a u2/u4 and advances; false (and nothing read) past the end. */
bool classfile_read2(classfile_cursor *c, uint16_t *v);
bool classfile_read4(classfile_cursor *c, uint32_t *v);
/* Skips n bytes; false past the end. */
bool classfile_skip(classfile_cursor *c, size_t n);
/* Skips an attributes table (u2 count, then u2 name, u4 length, bytes each); false past the end. */
bool classfile_skip_attributes(classfile_cursor *c);

/* Output: grows as needed. A failed allocation sets 'failed' and later writes are dropped, so writers
 * check once at the end. */
typedef struct {
    uint8_t *data;
    size_t len;
    size_t cap;
    bool failed;
} classfile_buf;

void classfile_buf_put(classfile_buf *b, const void *bytes, size_t n);
void classfile_buf_put1(classfile_buf *b, uint32_t v);
void classfile_buf_put2(classfile_buf *b, uint32_t v);
void classfile_buf_put4(classfile_buf *b, uint32_t v);
void classfile_buf_free(classfile_buf *b);

/* Constant pool tags (JVMS 4.4). */
enum {
    CP_UTF8 = 1, CP_INTEGER = 3, CP_FLOAT = 4, CP_LONG = 5, CP_DOUBLE = 6, CP_CLASS = 7, CP_STRING = 8,
    CP_FIELDREF = 9, CP_METHODREF = 10, CP_INTERFACE_METHODREF = 11, CP_NAME_AND_TYPE = 12,
    CP_METHOD_HANDLE = 15, CP_METHOD_TYPE = 16, CP_DYNAMIC = 17, CP_INVOKE_DYNAMIC = 18, CP_MODULE = 19,
    CP_PACKAGE = 20,
};

/* The constant pool of one class file, plus the entries the rewriter appends to it. Existing entries
 * keep their indexes: new ones only go at the end, so nothing else in the class needs renumbering. */
typedef struct {
    const uint8_t *data;  /* the class file */
    uint16_t count;       /* constant_pool_count as read: entries are 1..count-1 */
    uint8_t *tags;        /* [count]; 0 where no entry starts (index 0, second slot of Long/Double) */
    uint32_t *offsets;    /* [count]: offset of the entry's tag byte in data */
    size_t end;           /* offset just past the pool in data */
    classfile_buf added;         /* appended entries, ready to write after the existing ones */
    uint32_t added_slots; /* how many indexes they take */
} classfile_pool;

/* Parses and cross-checks the pool starting at data[8] (its count); false with a reason when any entry
 * is truncated, has an unknown tag or refers to an index of the wrong kind. */
bool classfile_pool_parse(classfile_pool *pool, const uint8_t *data, size_t len, classfile_err *err);
void classfile_pool_free(classfile_pool *pool);

/* The bytes of Utf8 entry 'index' (false when it is not one). */
bool classfile_pool_utf8(const classfile_pool *pool, uint32_t index, const uint8_t **bytes, uint16_t *len);
/* Whether entry 'index' is a Utf8 equal to the NUL-terminated 'text'. */
bool classfile_pool_utf8_is(const classfile_pool *pool, uint32_t index, const char *text);
/* The name (Utf8 index) of Class entry 'index', 0 when it is not a Class. */
uint16_t classfile_pool_class_name(const classfile_pool *pool, uint32_t index);

/* The index of a Methodref to class_name.method_name:descriptor, reusing equal existing entries and
 * appending the missing ones; 0 with a reason when the pool would exceed 65535 slots or memory fails. */
uint16_t classfile_pool_methodref(classfile_pool *pool, const char *class_name, const char *method_name,
                           const char *descriptor, classfile_err *err);

/* The index of a Utf8 entry / a Class entry named 'text', reused or appended; 0 with a reason when the pool
 * is full or memory fails. */
uint16_t classfile_pool_utf8_add(classfile_pool *pool, const char *text, classfile_err *err);
uint16_t classfile_pool_class(classfile_pool *pool, const char *class_name, classfile_err *err);

/* Checks a method's bytecode: every opcode known, every instruction complete, every branch and switch
 * target the start of an instruction. False with a reason (naming the offset) otherwise. */
bool classfile_code_check(const uint8_t *code, uint32_t len, classfile_err *err);

/* The length of the instruction at pc (switches and wide included), 0 when undefined or truncated. */
uint32_t classfile_instruction_length(const uint8_t *code, uint32_t len, uint32_t pc);

/* What goes into one method's code. Sampling (trace_id < 0): invokestatic #enter_ref; nop at offset 0.
 * Tracing: sipush trace_id; invokestatic #enter_ref; nop; nop at offset 0, sipush trace_id; invokestatic
 * #exit_ref; nop; nop before every return instruction, and, when throwable_class is set, a handler after the
 * code over all of it that calls exit the same way and rethrows (a catch-all, last in the exception table).
 * Every insertion is a multiple of 4 bytes, so switch padding never changes (classfile.c). */
typedef struct {
    uint16_t enter_ref, exit_ref;  /* Methodrefs: ()V for sampling, (I)V both for tracing */
    int trace_id;                  /* 0..32767 when tracing, -1 when sampling */
    uint16_t throwable_class;      /* Class java/lang/Throwable: the handler's frame; 0: no handler (<init>) */
    uint16_t stack_map_name;       /* Utf8 StackMapTable, to add a table where a method needs one; 0 for
                                      versions before 50, which have none */
} classfile_probe;

#define CLASSFILE_TRACE_PROLOGUE_LEN 8
#define CLASSFILE_TRACE_EXIT_LEN 8
#define CLASSFILE_TRACE_HANDLER_LEN 7

/* Where an original code offset lands in the rewritten code: after the prologue and the exit calls put
 * before every return that precedes it; a return's own offset names its exit call, so branches to a return
 * run it. 'returns' holds the original offsets of the return instructions, ascending. */
typedef struct {
    uint32_t code_len;          /* original length */
    uint32_t prologue, exit_len;
    const uint32_t *returns;
    uint32_t return_count;
} classfile_reloc;

/* The new offset of original offset pc (0..code_len). */
uint32_t classfile_reloc_map(const classfile_reloc *r, uint32_t pc);

/* Copies the checked code into out, inserting the exit sequence 'exit' (r->exit_len bytes) before each
 * return and moving every branch and switch offset by the relocation; false with a reason when a 16-bit
 * branch would no longer reach. */
bool classfile_code_copy(const uint8_t *code, const classfile_reloc *r, const uint8_t *exit, classfile_buf *out,
                         classfile_err *err);

/* The original offsets of the return instructions of checked code (malloc'ed, *n of them; NULL when none
 * or out of memory, *failed then set). */
uint32_t *classfile_code_returns(const uint8_t *code, uint32_t len, uint32_t *n, bool *failed);

/* Writes the rewritten Code attribute (name index, length, contents) to 'out' as 'probe' says, every code
 * offset in the attribute moved accordingly. 'body' is the attribute's contents (after its length). Every
 * version has the same Code layout as far as HotSpot is concerned (it reads 45.0-45.2 classes with u2
 * max_stack/max_locals and a u4 length, not the JDK 1.0 u1/u1/u2 layout), and so does this rewriter. */
bool classfile_code_rewrite(const classfile_pool *pool, uint16_t name_index, const uint8_t *body, uint32_t body_len,
                     const classfile_probe *probe, classfile_buf *out, classfile_err *err);

/* Rewrites a Code-level Runtime(In)VisibleTypeAnnotations attribute body in place (it has already been
 * copied) by moving every code offset by the relocation; false when the structure is not understood. */
bool classfile_type_annotations_shift(uint8_t *body, uint32_t len, const classfile_reloc *r);

#endif
