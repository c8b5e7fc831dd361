/*
 * jfr_types: the JFR types libprof writes (their ids, as declared in each chunk's metadata event) and the
 * convention by which our stack frames map onto JDK frame types. The writer (out_jfr, jfr_pools) and the
 * reader (jfrconv) both follow this header; change it only on both sides at once.
 *
 * FRAME CONVENTION (so that collapsed stacks converted from our .jfr equal the collapsed stacks the agent
 * writes directly for the same samples):
 * - Java frames are methods of their real class: java.lang.Class name in internal form
 *   ("java/util/HashMap"), method name ("get"), descriptor ("(Ljava/lang/Object;)Ljava/lang/Object;"),
 *   the line number from the method's line number table at the frame's bytecode index (-1 when the method
 *   has no table or the index is unknown), the bytecode index (-1 when unknown). Their frame type is one of
 *   the Java types below: "Interpreted", "C1 compiled", "JIT compiled", "Inlined" as the walk found them
 *   (the stitching modes, which cannot tell, write "JIT compiled"). A reader names Java-typed frames
 *   class.method (its own simple / dot / sig / ann options apply, as in names.h).
 * - Every other frame is a method of a synthetic class (name JFR_SYNTHETIC_CLASS, no package) whose METHOD
 *   NAME IS EXACTLY the frame name the agent's collapsed writer prints: a native symbol demangled, without
 *   its symbol version, prefixed "lib`" with the `lib` option ("deflate", "JavaCalls::call_helper",
 *   "libz.so.1.2.13`deflate"); a marker ("[unknown_Java]", "[truncated]", "[unknown_method]"); a kernel
 *   symbol. The `ann` suffixes ("_[j]", "_[k]") are NOT part of any name: a reader adds them from the frame
 *   type. Types: "Native" for native library code and markers, "C++" for libjvm frames and other demangled
 *   C++ functions, "Kernel" for kernel frames. A reader names these frames by the method name alone.
 * - Stacks are leaf first (frames[0] is the executing frame), as JFR defines them. A stack deeper than
 *   jstackdepth keeps its "[truncated]" marker frame at the root end AND has truncated=true; a reader
 *   must not add a second marker.
 * - Thread frames ("[main tid=1234]") are not frames in JFR: the event's sampledThread carries the OS
 *   thread id (osThreadId) and the same name the collapsed writer uses, in both osName and javaName
 *   (javaThreadId > 0 for threads the JVM reported, 0 for others).
 * - include= / exclude= do not filter what is recorded (a reader has its own filters).
 * Each jdk.ExecutionSample stands for one CPU sample, with state STATE_DEFAULT. A wall-clock sample is a
 * profiler.WallClockSample (samples = 1) with the state its thread was in, as async-profiler writes them; with
 * nobatch, a jdk.ExecutionSample in that state (never STATE_DEFAULT: readers tell CPU from wall by it).
 * - Allocation and lock samples end in their class (FRAME_CLASS_* kinds in the agent, "int[]_[i]" in collapsed
 *   stacks): in JFR the class is not a frame but the event's class field, as the JDK records them:
 *   jdk.ObjectAllocationInNewTLAB (objectClass, allocationSize = the object's bytes, tlabSize = the bytes the
 *   sample stands for: async-profiler's event and fields), jdk.JavaMonitorEnter (monitorClass,
 *   duration = time waited), jdk.ThreadPark (parkedClass, duration). Classes named in the JDK's form
 *   ("java/lang/String", "[B"); a reader spells them as the agent does ("java.lang.String", "byte[]").
 */
#ifndef LIBPROF_JFR_TYPES_H
#define LIBPROF_JFR_TYPES_H

enum jfr_type_id {
    JFR_METADATA = 0,
    JFR_CHECKPOINT = 1,
    /* primitive and built-in types */
    JFR_BOOLEAN = 4, JFR_CHAR, JFR_FLOAT, JFR_DOUBLE, JFR_BYTE, JFR_SHORT, JFR_INT, JFR_LONG,
    JFR_STRING = 20,
    /* constant-pool types */
    JFR_THREAD = 21, JFR_THREAD_GROUP, JFR_CLASS, JFR_CLASS_LOADER, JFR_PACKAGE, JFR_MODULE, JFR_METHOD,
    JFR_SYMBOL, JFR_STACK_TRACE, JFR_STACK_FRAME, JFR_FRAME_TYPE, JFR_THREAD_STATE,
    /* events: above the ids the JDK gives its own (up to about 2000 in JDK 25), so that in a recording that
     * holds the JDK's chunks beside ours (jfrsync) no id names two events: `jfr summary` counts events by
     * id under the first name it saw for that id, across chunks */
    JFR_EXECUTION_SAMPLE = 16001, JFR_ACTIVE_RECORDING, JFR_ACTIVE_SETTING, JFR_CPU_LOAD, JFR_OS_INFORMATION,
    JFR_JVM_INFORMATION, JFR_ALLOC_IN_NEW_TLAB, JFR_JAVA_MONITOR_ENTER, JFR_THREAD_PARK,
    /* async-profiler's native memory and lock events (names and fields as it declares them) */
    JFR_MALLOC = 16020, JFR_FREE, JFR_NATIVE_LOCK,
    /* async-profiler's object still alive at the recording's end (alloc,live) */
    JFR_LIVE_OBJECT,
    /* async-profiler's wall-clock sample: one or more samples of a thread in one state with one stack */
    JFR_WALL_CLOCK_SAMPLE,
    /* async-profiler's sampling window (begin=/end=, ttsp) */
    JFR_WINDOW,
    /* a traced call slower than its threshold (trace=): the JDK's event name, async-profiler's fields */
    JFR_METHOD_TRACE,
    /* async-profiler's span an application recorded (one.profiler.Span, dev.libprof.Span) */
    JFR_SPAN = 130,
    /* async-profiler's sample of one process of the machine (proc=) */
    JFR_PROCESS_SAMPLE,
    /* annotations (display only) */
    JFR_ANN_LABEL = 200, JFR_ANN_CONTENT_TYPE, JFR_ANN_TIMESTAMP, JFR_ANN_TIMESPAN, JFR_ANN_DATA_AMOUNT,
    JFR_ANN_PERCENTAGE,
};

/* jdk.types.FrameType pool keys: async-profiler's own numbering (the JDK's for its first four), which its
 * converter takes as indices, not as references into the pool (kept below 128: some readers read them as one
 * byte). */
enum jfr_frame_type {
    JFR_FRAME_INTERPRETED = 0,
    JFR_FRAME_JIT = 1,
    JFR_FRAME_INLINED = 2,
    JFR_FRAME_NATIVE = 3,
    JFR_FRAME_CPP = 4,
    JFR_FRAME_KERNEL = 5,
    JFR_FRAME_C1 = 6,          /* async-profiler's "C1 compiled" */
    JFR_FRAME_TYPE_COUNT
};

/* "Interpreted", "JIT compiled", "Inlined", "Native", "C++", "Kernel"; NULL out of range. */
static inline const char *jfr_frame_type_name(int t) {
    static const char *const names[JFR_FRAME_TYPE_COUNT] = {
        [JFR_FRAME_INTERPRETED] = "Interpreted", [JFR_FRAME_JIT] = "JIT compiled",
        [JFR_FRAME_INLINED] = "Inlined",         [JFR_FRAME_NATIVE] = "Native",
        [JFR_FRAME_CPP] = "C++",                 [JFR_FRAME_KERNEL] = "Kernel",
        [JFR_FRAME_C1] = "C1 compiled",
    };
    return t >= 0 && t < JFR_FRAME_TYPE_COUNT ? names[t] : 0;
}

/* True for the types whose frames a reader names class.method. */
static inline int jfr_frame_type_is_java(int t) {
    return t == JFR_FRAME_INTERPRETED || t == JFR_FRAME_JIT || t == JFR_FRAME_INLINED || t == JFR_FRAME_C1;
}

/* The class of every non-Java frame's method: an empty name, as async-profiler writes them (jfr print
 * shows ".deflate()", JMC "deflate"). */
#define JFR_SYNTHETIC_CLASS ""
/* The descriptor of non-Java methods: JDK tools need a valid one. */
#define JFR_SYNTHETIC_DESCRIPTOR "()V"

/* jdk.types.ThreadState pool key of a thread_state (thread_state.h): its value + 1, as 0 is never a key.
 * Every chunk's pool holds every state, named by thread_state_jfr_name. */
#define JFR_THREAD_STATE_KEY(state) ((uint64_t)(state) + 1)

#endif
