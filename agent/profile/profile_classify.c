/*
 * profile_classify: see profile_classify.h. Three passes over a stack, each a stronger statement than the
 * next: what kind of thread the root-side native frames say it is (a GC worker, a compiler thread, the VM
 * thread running a collection); whether the JVM is loading, linking or initialising a class anywhere in
 * the stack (the frame nearest the leaf decides); otherwise what the leaf end runs: the kernel, Java code
 * by its execution type, the VM's runtime called from Java, or native code.
 * Names are compared by their core: without a "lib`" prefix, an "_[x]" annotation and, for Java frames,
 * a descriptor, ":LINE" or "@BCI" suffix, so every naming option of jfrconv classifies alike.
 */
#include "profile_classify.h"

#include <stdbool.h>
#include <string.h>

typedef struct {
    const char *s;
    size_t n;
} core_name;

/* The stack being classified: its frames' names in p, and their types (per frame when given, else by name). */
typedef struct {
    const profile *p;
    const uint32_t *frames;
    const uint8_t *types;
    uint32_t depth;
} stack_view;

static frame_type type_at(const stack_view *v, uint32_t i) {
    return (frame_type)(v->types ? v->types[i] : v->p->types[v->frames[i]]);
}

/* A Java frame; a "lib`sym" name is native whatever its type says (collapsed text guesses "libjvm.so`x"
 * Java by its dot). */
static bool is_java(const stack_view *v, uint32_t i) {
    return frame_type_is_java(type_at(v, i)) && !strchr(v->p->names[v->frames[i]], '`');
}

static core_name core(const stack_view *v, uint32_t i) {
    const char *name = v->p->names[v->frames[i]];
    const char *tick = strchr(name, '`');
    if (tick) name = tick + 1;
    size_t n = strlen(name);
    const char *ann = strstr(name, "_[");
    if (ann && ann[2] && ann[3] == ']' && ann[4] == 0) n = (size_t)(ann - name);
    if (is_java(v, i)) n = strcspn(name, "(:@") < n ? strcspn(name, "(:@") : n;
    return (core_name){name, n};
}

static bool starts(core_name c, const char *prefix) {
    size_t k = strlen(prefix);
    return c.n >= k && memcmp(c.s, prefix, k) == 0;
}

static bool ends(core_name c, const char *suffix) {
    size_t k = strlen(suffix);
    return c.n >= k && memcmp(c.s + c.n - k, suffix, k) == 0;
}

static bool starts_any(core_name c, const char *const *prefixes) {
    for (; *prefixes; prefixes++) if (starts(c, *prefixes)) return true;
    return false;
}

/* HotSpot's GC threads by their run loops (JDK 8 to 25, every collector), and the VM operations and heap
 * code that collect when the VM thread runs them. */
static const char *const gc_threads[] = {"GCTaskThread::", "WorkerThread::", "AbstractGangWorker::", "GangWorker::",
                                         "ConcurrentGCThread::", "G1ConcurrentRefineThread::", "G1ServiceThread::",
                                         "ZWorker", "ZDirector", "ShenandoahControlThread::", NULL};
static const char *const gc_work[] = {"VM_GC", "VM_G1", "VM_Collect", "VM_ParallelGC", "VM_GenCollect", "VM_Z",
                                      "VM_Shenandoah", "CollectedHeap::", "G1CollectedHeap::", NULL};

/* Pass 1: the thread's role, from its native frames below the first Java frame; NULL when none is known. */
static const char *thread_role(const stack_view *v) {
    bool vm_thread = false, gc = false;
    for (uint32_t i = 0; i < v->depth && !is_java(v, i); i++) {
        core_name c = core(v, i);
        if (starts_any(c, gc_threads)) return "[gc]";
        if (starts(c, "CompileBroker::")) return "[jit]";
        vm_thread |= starts(c, "VMThread::");
        gc |= starts_any(c, gc_work);
    }
    return vm_thread && gc ? "[gc]" : NULL;
}

/* Pass 2: class loading, linking, verification, initialisation; the frame nearest the leaf decides. */
static const char *class_work(core_name c) {
    if (starts(c, "Verifier::") || starts(c, "ClassVerifier::")) return "[class_verify]";
    if (starts(c, "InstanceKlass::initialize")) return "[class_init]";
    if (starts(c, "LinkResolver::") || starts(c, "InterpreterRuntime::resolve")) return "[class_resolve]";
    if (ends(c, "ClassLoader.loadClass") || ends(c, "ClassLoader.defineClass") || ends(c, "ClassLoader.defineClass1") ||
        starts(c, "SystemDictionary::") || starts(c, "ClassFileParser::") || starts(c, "ClassLoader::load_class") ||
        starts(c, "KlassFactory::") || starts(c, "JVM_DefineClass"))
        return "[class_load]";
    if (ends(c, "LambdaMetafactory.metafactory") || ends(c, "LambdaMetafactory.altMetafactory")) return "[lambda_init]";
    return NULL;
}

/* The JVM's runtime entered from Java code (its native methods' implementations, JNI, runtime calls) and
 * the stack markers of code the walk could not name (async-profiler counts those as the VM's too). */
static const char *const vm_entries[] = {"JVM_", "Unsafe_", "jni_", "MHN_", "SharedRuntime::", "OptoRuntime::",
                                         "Runtime1::", "InterpreterRuntime::", "call_stub", "[unknown_Java]",
                                         "[not_walkable_Java]", "[deoptimization]", "InlineCacheBuffer", NULL};

/* Code the JVM generates between Java frames that says nothing about who runs: copy stubs. */
static bool transparent(core_name c) {
    return ends(c, "_arraycopy") || starts(c, "StubRoutines");
}

static const char *java_category(frame_type t) {
    switch (t) {
    case FTYPE_INTERPRETED: return "[Interpreter]";
    case FTYPE_C1: return "[c1_comp]";
    case FTYPE_JIT: return "[c2_comp]";
    default: return "[java]";   /* the execution type is unknown (AsyncGetCallTrace, the JDK's native methods) */
    }
}

/* Pass 3: what the leaf end runs. */
static const char *leaf_work(const stack_view *v) {
    if (v->depth && type_at(v, v->depth - 1) == FTYPE_KERNEL) return "[kernel]";
    bool native = false, jvm_thread = false;
    for (uint32_t i = v->depth; i-- > 0;) {
        frame_type t = type_at(v, i);
        core_name c = core(v, i);
        if (t == FTYPE_INLINED) continue;          /* its compiled frame, nearer the root, says how it runs */
        if (is_java(v, i)) return native ? "[native]" : java_category(t);
        if (t == FTYPE_CLASS || t == FTYPE_KERNEL || transparent(c)) continue;
        if (starts_any(c, vm_entries)) return "[vm]";
        if (starts(c, "Interpreter")) return "[Interpreter]";
        if (t == FTYPE_MARKER) continue;
        native = true;
        jvm_thread |= memchr(c.s, ':', c.n) != NULL || starts(c, "thread_native_entry") || starts(c, "java_start");
    }
    /* No Java frame: one of the JVM's own threads (C++ frames), or a thread of native code alone. */
    return jvm_thread ? "[vm]" : "[native]";
}

const char *profile_classify_typed(const profile *p, const uint32_t *frames, const uint8_t *types, uint32_t depth) {
    stack_view v = {p, frames, types, depth};
    while (v.depth && type_at(&v, 0) == FTYPE_THREAD) {
        v.frames++;
        if (v.types) v.types++;
        v.depth--;
    }
    const char *category = thread_role(&v);
    for (uint32_t i = v.depth; !category && i-- > 0;) category = class_work(core(&v, i));
    return category ? category : leaf_work(&v);
}

const char *profile_classify(const profile *p, const uint32_t *frames, uint32_t depth) {
    return profile_classify_typed(p, frames, NULL, depth);
}

bool profile_classify_is_category(const char *name) {
    static const char *const categories[] = {"[gc]", "[jit]", "[vm]", "[class_load]", "[class_init]", "[class_resolve]",
                                             "[class_verify]", "[lambda_init]", "[Interpreter]", "[c1_comp]",
                                             "[c2_comp]", "[java]", "[native]", "[kernel]", NULL};
    for (const char *const *c = categories; *c; c++) if (strcmp(name, *c) == 0) return true;
    return false;
}
