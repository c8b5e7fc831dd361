/*
 * alloc_stack: see alloc_stack.h. One buffer per thread, sized for the session's jstackdepth when first used
 * (and again when a later session asks for more): the walk writes native, Java and kernel frames and
 * AsyncGetCallTrace's raw frames into it, and must never run out of room.
 */
#include "alloc_stack.h"

#include "java_stack.h"
#include "native_map.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define EXTRA_SLOTS 4

typedef struct {
    size_t frame_room;     /* sample_call_frames() when allocated */
    int raw_room;          /* jstackdepth when allocated */
    asgct_frame *raw;
    trace_frame *frames;   /* EXTRA_SLOTS + frame_room */
} call_buffer;

static pthread_key_t buffer_key;
static pthread_once_t buffer_key_once = PTHREAD_ONCE_INIT;

static void create_buffer_key(void) {
    pthread_key_create(&buffer_key, free);
}

static call_buffer *thread_buffer(void) {
    pthread_once(&buffer_key_once, create_buffer_key);
    size_t frame_room = sample_call_frames();
    int raw_room = sample_max_depth();
    call_buffer *b = pthread_getspecific(buffer_key);
    if (b && b->frame_room >= frame_room && b->raw_room >= raw_room) return b;
    free(b);
    b = malloc(sizeof(*b) + (size_t)raw_room * sizeof(asgct_frame) + (EXTRA_SLOTS + frame_room) * sizeof(trace_frame));
    if (b) {
        b->frame_room = frame_room;
        b->raw_room = raw_room;
        b->raw = (asgct_frame *)(b + 1);
        b->frames = (trace_frame *)(b->raw + raw_room);
    }
    pthread_setspecific(buffer_key, b);
    return b;
}

/* HotSpot's allocation entry points, by their symbols: the shared allocator, and the runtime calls the
 * interpreter, the compilers' code and shared stubs make into the VM. */
static bool is_vm_allocation_entry(const char *symbol) {
    static const char *const prefixes[] = {"_ZNK12MemAllocator8allocate", "_Z22post_allocation_notify",
                                           "_ZN11OptoRuntime", "_ZN8Runtime1", "_ZN13SharedRuntime",
                                           "_ZN18InterpreterRuntime"};
    for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
        if (strncmp(symbol, prefixes[i], strlen(prefixes[i])) == 0) return true;
    return false;
}

static const char *symbol_at(uint64_t pc) {
    const native_object *o = native_map_lookup((uintptr_t)pc);
    return o && o->symbols && pc >= o->bias ? symtab_find(o->symbols, pc - o->bias, NULL) : NULL;
}

/* The frames of the JVM's allocation path, from the leaf through the last allocation entry point above
 * the first Java frame: the sampler's own posting and the allocator, the same in every sample, so that
 * the allocated class stands on the frame that asked for the object (a Java method, or the VM function
 * that allocated for itself). */
static uint32_t allocation_path_frames(const trace_frame *frames, uint32_t n) {
    uint32_t cut = 0;
    for (uint32_t i = 0; i < n && frames[i].kind == FRAME_NATIVE; i++) {
        const char *symbol = symbol_at(frames[i].id);
        if (symbol && is_vm_allocation_entry(symbol)) cut = i + 1;
    }
    return cut;
}

static bool is_walk_failure(const trace_frame *f) {
    return f->kind == FRAME_MARKER && f->id >= MARKER_UNKNOWN_NOT_JAVA && f->id <= MARKER_UNKNOWN_STATE;
}

/* AsyncGetCallTrace cannot walk from a frame anchor the VM has not made walkable yet (a runtime call from
 * compiled code: most allocations once the allocating method is compiled); JVMTI can, so a stitched
 * stack whose Java part failed gets it from there. A thread with no Java frames at all (the VM's own
 * start-up) keeps its native frames alone, complete. */
static uint32_t java_part_by_jvmti(JNIEnv *jni, trace_frame *out, uint32_t n, size_t room) {
    if (!n || !is_walk_failure(&out[n - 1])) return n;
    for (uint32_t i = 0; i + 1 < n; i++)
        if (out[i].kind != FRAME_NATIVE) return n;   /* Java frames walked already: the failure is deeper */
    trace_frame *java = NULL;
    uint32_t m = java_stack_take(jni, false, 0, true, &java);
    if (!m) return n;
    if (m == 1 && java[0].kind == FRAME_MARKER) {
        if (java[0].id == MARKER_NO_JAVA_FRAMES && n > 1) return n - 1;
        return n;
    }
    if (n - 1 + m > room) m = (uint32_t)(room - (n - 1));
    memcpy(out + n - 1, java, m * sizeof(*java));
    return n - 1 + m;
}

uint32_t alloc_stack_take(const sample_call_site *site, JNIEnv *jni, uint32_t extra, trace_frame **frames) {
    if (extra > EXTRA_SLOTS || sample_max_depth() <= 0) return 0;
    call_buffer *b = thread_buffer();
    if (!b) return 0;
    trace_frame *out = b->frames + EXTRA_SLOTS;
    uint32_t n = java_part_by_jvmti(jni, out, sample_walk_call(site, jni, b->raw, out), b->frame_room);
    uint32_t cut = allocation_path_frames(out, n);
    if (cut >= n) return 0;
    *frames = out + cut - extra;
    return n - cut;
}
