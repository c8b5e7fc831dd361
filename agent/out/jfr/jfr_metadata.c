/*
 * jfr_metadata: the declarations are tables (one row per class, one per field) serialised as the element
 * tree the JDK expects: root -> metadata -> class* -> field* / annotation*, and root -> region. Every
 * attribute value is a string; strings are written once in a table and referred to by index.
 */
#include "jfr_metadata.h"

#include "jfr_types.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    const char *name;
    int type;
    bool pool;            /* constantPool="true": a pool key, not the value */
    bool array;           /* dimension="1" */
    int annotation;       /* 0, or an annotation type id */
    const char *value;    /* the annotation's value, when its type has one */
} field_def;

typedef struct {
    int id;
    const char *name;
    const char *super_type;   /* NULL for none */
    bool simple;              /* simpleType="true" */
    const char *label;        /* jdk.jfr.Label on the class, or NULL */
    int content_type;         /* annotation types that are content types carry jdk.jfr.ContentType */
    const field_def *fields;
    int field_count;
} class_def;

#define F(...) ((const field_def[]){__VA_ARGS__})
#define N(...) (int)(sizeof((const field_def[]){__VA_ARGS__}) / sizeof(field_def))
#define FIELDS(...) F(__VA_ARGS__), N(__VA_ARGS__)
#define NO_FIELDS NULL, 0

#define V(name, type) {name, type, false, false, 0, NULL}
#define P(name, type) {name, type, true, false, 0, NULL}
#define START_TIME {"startTime", JFR_LONG, false, false, JFR_ANN_TIMESTAMP, "TICKS"}
#define DURATION {"duration", JFR_LONG, false, false, JFR_ANN_TIMESPAN, "TICKS"}
#define EVENT_THREAD P("eventThread", JFR_THREAD)
#define STACK_TRACE P("stackTrace", JFR_STACK_TRACE)
#define PERCENT(name) {name, JFR_FLOAT, false, false, JFR_ANN_PERCENTAGE, NULL}
#define BYTES(name) {name, JFR_LONG, false, false, JFR_ANN_DATA_AMOUNT, "BYTES"}

static const char *const EVENT = "jdk.jfr.Event";
static const char *const ANNOTATION = "java.lang.annotation.Annotation";

static const class_def classes[] = {
    {JFR_BOOLEAN, "boolean", NULL, false, NULL, 0, NO_FIELDS},
    {JFR_CHAR, "char", NULL, false, NULL, 0, NO_FIELDS},
    {JFR_FLOAT, "float", NULL, false, NULL, 0, NO_FIELDS},
    {JFR_DOUBLE, "double", NULL, false, NULL, 0, NO_FIELDS},
    {JFR_BYTE, "byte", NULL, false, NULL, 0, NO_FIELDS},
    {JFR_SHORT, "short", NULL, false, NULL, 0, NO_FIELDS},
    {JFR_INT, "int", NULL, false, NULL, 0, NO_FIELDS},
    {JFR_LONG, "long", NULL, false, NULL, 0, NO_FIELDS},
    {JFR_STRING, "java.lang.String", NULL, false, NULL, 0, NO_FIELDS},

    {JFR_ANN_LABEL, "jdk.jfr.Label", ANNOTATION, false, NULL, 0, FIELDS(V("value", JFR_STRING))},
    {JFR_ANN_CONTENT_TYPE, "jdk.jfr.ContentType", ANNOTATION, false, NULL, 0, NO_FIELDS},
    {JFR_ANN_TIMESTAMP, "jdk.jfr.Timestamp", ANNOTATION, false, NULL, 1, FIELDS(V("value", JFR_STRING))},
    {JFR_ANN_TIMESPAN, "jdk.jfr.Timespan", ANNOTATION, false, NULL, 1, FIELDS(V("value", JFR_STRING))},
    {JFR_ANN_DATA_AMOUNT, "jdk.jfr.DataAmount", ANNOTATION, false, NULL, 1, FIELDS(V("value", JFR_STRING))},
    {JFR_ANN_PERCENTAGE, "jdk.jfr.Percentage", ANNOTATION, false, NULL, 1, NO_FIELDS},

    {JFR_THREAD, "java.lang.Thread", NULL, false, "Thread",
     0, FIELDS(V("osName", JFR_STRING), V("osThreadId", JFR_LONG), V("javaName", JFR_STRING),
               V("javaThreadId", JFR_LONG), P("group", JFR_THREAD_GROUP))},
    {JFR_THREAD_GROUP, "jdk.types.ThreadGroup", NULL, false, "Thread Group",
     0, FIELDS(P("parent", JFR_THREAD_GROUP), V("name", JFR_STRING))},
    {JFR_CLASS, "java.lang.Class", NULL, false, "Java Class",
     0, FIELDS(P("classLoader", JFR_CLASS_LOADER), P("name", JFR_SYMBOL), P("package", JFR_PACKAGE),
               V("modifiers", JFR_INT), V("hidden", JFR_BOOLEAN))},
    {JFR_CLASS_LOADER, "jdk.types.ClassLoader", NULL, false, "Java Class Loader",
     0, FIELDS(P("type", JFR_CLASS), P("name", JFR_SYMBOL))},
    {JFR_PACKAGE, "jdk.types.Package", NULL, false, "Package",
     0, FIELDS(P("name", JFR_SYMBOL), P("module", JFR_MODULE), V("exported", JFR_BOOLEAN))},
    {JFR_MODULE, "jdk.types.Module", NULL, false, "Module",
     0, FIELDS(P("name", JFR_SYMBOL), P("version", JFR_SYMBOL), P("location", JFR_SYMBOL),
               P("classLoader", JFR_CLASS_LOADER))},
    {JFR_METHOD, "jdk.types.Method", NULL, false, "Java Method",
     0, FIELDS(P("type", JFR_CLASS), P("name", JFR_SYMBOL), P("descriptor", JFR_SYMBOL),
               V("modifiers", JFR_INT), V("hidden", JFR_BOOLEAN))},
    {JFR_SYMBOL, "jdk.types.Symbol", NULL, true, "Symbol", 0, FIELDS(V("string", JFR_STRING))},
    {JFR_STACK_TRACE, "jdk.types.StackTrace", NULL, false, "Stacktrace",
     0, FIELDS(V("truncated", JFR_BOOLEAN), {"frames", JFR_STACK_FRAME, false, true, 0, NULL})},
    {JFR_STACK_FRAME, "jdk.types.StackFrame", NULL, false, NULL,
     0, FIELDS(P("method", JFR_METHOD), V("lineNumber", JFR_INT), V("bytecodeIndex", JFR_INT),
               P("type", JFR_FRAME_TYPE))},
    {JFR_FRAME_TYPE, "jdk.types.FrameType", NULL, true, "Frame type", 0, FIELDS(V("description", JFR_STRING))},
    {JFR_THREAD_STATE, "jdk.types.ThreadState", NULL, true, "Java Thread State", 0, FIELDS(V("name", JFR_STRING))},

    {JFR_EXECUTION_SAMPLE, "jdk.ExecutionSample", EVENT, false, "Method Profiling Sample",
     0, FIELDS(START_TIME, P("sampledThread", JFR_THREAD), P("stackTrace", JFR_STACK_TRACE),
               P("state", JFR_THREAD_STATE))},
    {JFR_ACTIVE_RECORDING, "jdk.ActiveRecording", EVENT, false, "Flight Recording",
     0, FIELDS(START_TIME, DURATION, EVENT_THREAD, STACK_TRACE, V("id", JFR_LONG), V("name", JFR_STRING),
               V("destination", JFR_STRING), {"maxAge", JFR_LONG, false, false, JFR_ANN_TIMESPAN, "MILLISECONDS"},
               {"flushInterval", JFR_LONG, false, false, JFR_ANN_TIMESPAN, "MILLISECONDS"},
               {"maxSize", JFR_LONG, false, false, JFR_ANN_DATA_AMOUNT, "BYTES"},
               {"recordingStart", JFR_LONG, false, false, JFR_ANN_TIMESTAMP, "MILLISECONDS_SINCE_EPOCH"},
               {"recordingDuration", JFR_LONG, false, false, JFR_ANN_TIMESPAN, "MILLISECONDS"})},
    {JFR_ACTIVE_SETTING, "jdk.ActiveSetting", EVENT, false, "Recording Setting",
     0, FIELDS(START_TIME, DURATION, EVENT_THREAD, STACK_TRACE, V("id", JFR_LONG), V("name", JFR_STRING),
               V("value", JFR_STRING))},
    {JFR_MALLOC, "profiler.Malloc", EVENT, false, "malloc",
     0, FIELDS(START_TIME, EVENT_THREAD, STACK_TRACE, V("address", JFR_LONG),
               {"size", JFR_LONG, false, false, JFR_ANN_DATA_AMOUNT, "BYTES"})},
    {JFR_FREE, "profiler.Free", EVENT, false, "free",
     0, FIELDS(START_TIME, EVENT_THREAD, STACK_TRACE, V("address", JFR_LONG))},
    {JFR_NATIVE_LOCK, "profiler.NativeLock", EVENT, false, "Native Lock Sample",
     0, FIELDS(START_TIME, DURATION, EVENT_THREAD, STACK_TRACE, V("address", JFR_LONG))},
    /* What async-profiler writes: its method field stays null (the stack's top frame is the method). */
    {JFR_METHOD_TRACE, "jdk.MethodTrace", EVENT, false, "Method Trace",
     0, FIELDS(START_TIME, DURATION, EVENT_THREAD, STACK_TRACE, P("method", JFR_METHOD))},
    {JFR_LIVE_OBJECT, "profiler.LiveObject", EVENT, false, "Live Object",
     0, FIELDS(START_TIME, EVENT_THREAD, STACK_TRACE, P("objectClass", JFR_CLASS),
               {"allocationSize", JFR_LONG, false, false, JFR_ANN_DATA_AMOUNT, "BYTES"},
               {"allocationTime", JFR_LONG, false, false, JFR_ANN_TIMESTAMP, "TICKS"})},
    {JFR_WALL_CLOCK_SAMPLE, "profiler.WallClockSample", EVENT, false, "Wall Clock Sample",
     0, FIELDS(START_TIME, P("sampledThread", JFR_THREAD), P("stackTrace", JFR_STACK_TRACE),
               P("state", JFR_THREAD_STATE), V("samples", JFR_INT),
               {"timeSpan", JFR_LONG, false, false, JFR_ANN_TIMESPAN, "TICKS"})},
    {JFR_WINDOW, "profiler.Window", EVENT, false, "Profiling Window", 0, FIELDS(START_TIME, DURATION, EVENT_THREAD)},
    {JFR_SPAN, "profiler.Span", EVENT, false, "Span",
     0, FIELDS(START_TIME, DURATION, EVENT_THREAD, P("tag", JFR_STRING))},
    {JFR_PROCESS_SAMPLE, "profiler.ProcessSample", EVENT, false, "Process Stats Sample",
     0, FIELDS(START_TIME, V("pid", JFR_INT), V("ppid", JFR_INT), V("name", JFR_STRING), V("cmdLine", JFR_STRING),
               V("uid", JFR_INT), V("state", JFR_BYTE),
               {"processStartTime", JFR_LONG, false, false, JFR_ANN_TIMESTAMP, "MILLISECONDS_SINCE_EPOCH"},
               V("cpuUser", JFR_FLOAT), V("cpuSystem", JFR_FLOAT), PERCENT("cpuPercent"), V("threads", JFR_INT),
               BYTES("vmSize"), BYTES("vmRss"), BYTES("rssAnon"), BYTES("rssFiles"), BYTES("rssShmem"),
               V("minorFaults", JFR_LONG), V("majorFaults", JFR_LONG), BYTES("ioRead"), BYTES("ioWrite"))},
    {JFR_CPU_LOAD, "jdk.CPULoad", EVENT, false, "CPU Load",
     0, FIELDS(START_TIME, PERCENT("jvmUser"), PERCENT("jvmSystem"), PERCENT("machineTotal"))},
    {JFR_OS_INFORMATION, "jdk.OSInformation", EVENT, false, "OS Information",
     0, FIELDS(START_TIME, V("osVersion", JFR_STRING))},
    {JFR_JVM_INFORMATION, "jdk.JVMInformation", EVENT, false, "JVM Information",
     0, FIELDS(START_TIME, V("jvmName", JFR_STRING), V("jvmVersion", JFR_STRING), V("jvmArguments", JFR_STRING),
               V("jvmFlags", JFR_STRING), V("javaArguments", JFR_STRING),
               {"jvmStartTime", JFR_LONG, false, false, JFR_ANN_TIMESTAMP, "MILLISECONDS_SINCE_EPOCH"},
               V("pid", JFR_LONG))},
    {JFR_ALLOC_IN_NEW_TLAB, "jdk.ObjectAllocationInNewTLAB", EVENT, false, "Allocation in new TLAB",
     0, FIELDS(START_TIME, EVENT_THREAD, STACK_TRACE, P("objectClass", JFR_CLASS),
               {"allocationSize", JFR_LONG, false, false, JFR_ANN_DATA_AMOUNT, "BYTES"},
               {"tlabSize", JFR_LONG, false, false, JFR_ANN_DATA_AMOUNT, "BYTES"})},
    {JFR_JAVA_MONITOR_ENTER, "jdk.JavaMonitorEnter", EVENT, false, "Java Monitor Blocked",
     0, FIELDS(START_TIME, DURATION, EVENT_THREAD, STACK_TRACE, P("monitorClass", JFR_CLASS),
               P("previousOwner", JFR_THREAD), V("address", JFR_LONG))},
    {JFR_THREAD_PARK, "jdk.ThreadPark", EVENT, false, "Java Thread Park",
     0, FIELDS(START_TIME, DURATION, EVENT_THREAD, STACK_TRACE, P("parkedClass", JFR_CLASS),
               {"timeout", JFR_LONG, false, false, JFR_ANN_TIMESPAN, "NANOSECONDS"},
               {"until", JFR_LONG, false, false, JFR_ANN_TIMESTAMP, "MILLISECONDS_SINCE_EPOCH"},
               V("address", JFR_LONG))},
};

/* The string table: each distinct string once, in order of first use. */
#define MAX_STRINGS 512
typedef struct {
    const char *strings[MAX_STRINGS];
    char numbers[MAX_STRINGS][24];   /* storage for numbers written as text */
    int count, number_count;
    jfr_buf tree;
} writer;

static int intern(writer *w, const char *s) {
    for (int i = 0; i < w->count; i++) {
        if (strcmp(w->strings[i], s) == 0) return i;
    }
    if (w->count == MAX_STRINGS) return 0;   /* cannot happen with the tables above */
    w->strings[w->count] = s;
    return w->count++;
}

static int intern_number(writer *w, long long v) {
    char text[24];
    snprintf(text, sizeof(text), "%lld", v);
    for (int i = 0; i < w->count; i++) {
        if (strcmp(w->strings[i], text) == 0) return i;
    }
    char *slot = w->numbers[w->number_count++];
    strcpy(slot, text);
    return intern(w, slot);
}

/* An element: name, attributes as (key, value) string pairs, then the number of children (written by the
 * caller, followed by the children). */
static void element(writer *w, const char *name, int attr_count, const int *attrs) {
    jfr_buf_put_varint(&w->tree, (uint64_t)intern(w, name));
    jfr_buf_put_varint(&w->tree, (uint64_t)attr_count);
    for (int i = 0; i < 2 * attr_count; i++) jfr_buf_put_varint(&w->tree, (uint64_t)attrs[i]);
}

static void annotation(writer *w, int type, const char *value) {
    int attrs[4] = {intern(w, "class"), intern_number(w, type), intern(w, "value"), value ? intern(w, value) : 0};
    element(w, "annotation", value ? 2 : 1, attrs);
    jfr_buf_put_varint(&w->tree, 0);
}

static void field(writer *w, const field_def *f) {
    int attrs[8], n = 0;
    attrs[n++] = intern(w, "name");
    attrs[n++] = intern(w, f->name);
    attrs[n++] = intern(w, "class");
    attrs[n++] = intern_number(w, f->type);
    if (f->pool) {
        attrs[n++] = intern(w, "constantPool");
        attrs[n++] = intern(w, "true");
    }
    if (f->array) {
        attrs[n++] = intern(w, "dimension");
        attrs[n++] = intern(w, "1");
    }
    element(w, "field", n / 2, attrs);
    jfr_buf_put_varint(&w->tree, f->annotation ? 1 : 0);
    if (f->annotation) annotation(w, f->annotation, f->value);
}

static void class_element(writer *w, const class_def *c) {
    int attrs[8], n = 0;
    attrs[n++] = intern(w, "name");
    attrs[n++] = intern(w, c->name);
    attrs[n++] = intern(w, "id");
    attrs[n++] = intern_number(w, c->id);
    if (c->super_type) {
        attrs[n++] = intern(w, "superType");
        attrs[n++] = intern(w, c->super_type);
    }
    if (c->simple) {
        attrs[n++] = intern(w, "simpleType");
        attrs[n++] = intern(w, "true");
    }
    element(w, "class", n / 2, attrs);
    jfr_buf_put_varint(&w->tree, (uint64_t)(c->field_count + (c->label ? 1 : 0) + (c->content_type ? 1 : 0)));
    for (int i = 0; i < c->field_count; i++) field(w, &c->fields[i]);
    if (c->label) annotation(w, JFR_ANN_LABEL, c->label);
    if (c->content_type) annotation(w, JFR_ANN_CONTENT_TYPE, NULL);
}

void jfr_metadata_write(jfr_buf *b, uint64_t start_ticks, uint64_t metadata_id) {
    static writer w;   /* large; the writer is single-threaded (one recording at a time) */
    memset(&w, 0, sizeof(w));
    jfr_buf_init(&w.tree);
    intern(&w, "");   /* index 0 */
    element(&w, "root", 0, NULL);
    jfr_buf_put_varint(&w.tree, 2);
    element(&w, "metadata", 0, NULL);
    size_t count = sizeof(classes) / sizeof(classes[0]);
    jfr_buf_put_varint(&w.tree, count);
    for (size_t i = 0; i < count; i++) class_element(&w, &classes[i]);
    int region[4] = {intern(&w, "locale"), intern(&w, "en_US"), intern(&w, "gmtOffset"), intern(&w, "0")};
    element(&w, "region", 2, region);
    jfr_buf_put_varint(&w.tree, 0);

    size_t at = jfr_buf_event_begin(b, JFR_METADATA);
    jfr_buf_put_varint(b, start_ticks);
    jfr_buf_put_varint(b, 0);   /* duration */
    jfr_buf_put_varint(b, metadata_id);
    jfr_buf_put_varint(b, (uint64_t)w.count);
    for (int i = 0; i < w.count; i++) jfr_buf_put_string(b, w.strings[i]);
    jfr_buf_put_bytes(b, w.tree.data, w.tree.len);
    if (w.tree.failed) b->failed = true;
    jfr_buf_event_end(b, at);
    jfr_buf_free(&w.tree);
}
