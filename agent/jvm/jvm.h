/*
 * jvm: everything the agent asks of the JVM through JVMTI: the environment and its callbacks (ClassLoad,
 * ClassPrepare -> jmethodID preallocation, ThreadStart/End, VMInit, VMDeath), AsyncGetCallTrace found in
 * libjvm.so at run time, and method names for the dump. What the callbacks mean to the session and the
 * engines is theirs: they pass it in as jvm_listeners (session/jvm_callbacks.c), so this layer calls none
 * of them by name.
 */
#ifndef LIBPROF_JVM_H
#define LIBPROF_JVM_H

#include "asgct.h"
#include "names.h"

#include <jni.h>
#include <jvmti.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What the layers above want to hear of the JVM. Thread and VM events come after jvm's own bookkeeping
 * (java_tids, thread names); the raw JVMTI callbacks go to JVMTI as they are and are enabled by their
 * engines while profiling. Any member may be NULL. */
typedef struct {
    void (*class_prepared)(JNIEnv *jni);
    void (*thread_started)(int tid);
    void (*thread_ended)(int tid);
    void (*vm_started)(void);
    void (*vm_dying)(void);
    jvmtiEventClassFileLoadHook class_file_load_hook;
    jvmtiEventSampledObjectAlloc sampled_object_alloc;
    jvmtiEventMonitorContendedEnter monitor_contended_enter;
    jvmtiEventMonitorContendedEntered monitor_contended_entered;
} jvm_listeners;

/* Once per process; later calls return 0 at once. 'live' = loaded into a running JVM (attach): classes
 * already loaded get their jmethodIDs now. Returns -1 with a message in err. */
int jvm_init(JavaVM *vm, bool live, const jvm_listeners *listeners, char *err, size_t errlen);

JavaVM *jvm_vm(void);
jvmtiEnv *jvm_jvmti(void);

/* Tells the JVM the calling native frame is about to hold 'count' more local references (a JVMTI list of
 * classes or threads): within its planned capacity, so -Xcheck:jni has nothing to warn about. */
void jvm_plan_local_refs(JNIEnv *jni, jint count);
asgct_fn jvm_asgct(void);
/* True once the VM has finished starting (VMInit seen, or loaded into a live VM). */
bool jvm_is_live(void);
/* True from the VMDeath event on: the JVM has stopped some of its own threads already. */
bool jvm_is_dying(void);
/* The JDK's feature version (java.vm.specification.version: 11, 17, 25), 0 when unknown. */
int jvm_feature_version(void);
/* True when loaded at start-up: then java_tids holds every Java thread, and a thread outside it is a
 * JVM-internal thread (compiler, GC, VM thread). */
bool jvm_tracks_all_java_threads(void);

/* Writes the method's frame name. Returns -1 when the method is no longer valid (class unloaded). */
int jvm_method_name(jmethodID method, names_style style, char *buf, size_t len);

/* What the JFR writer records about a Java method. */
typedef struct {
    char class_name[1024];   /* internal form, "java/util/HashMap" (the class signature without L and ;) */
    char name[512];
    char descriptor[1024];
    int modifiers;
    int class_modifiers;
    int line_count;          /* entries in lines: (first bytecode index, line number) pairs */
    struct jvm_line { int32_t bci, line; } *lines;   /* malloc'd, caller frees; NULL without a table */
} jvm_method_info;

/* Fills 'out'. Returns -1 when the method is no longer valid (class unloaded). */
int jvm_method_describe(jmethodID method, jvm_method_info *out);

/* The line of 'bci' by a table from jvm_method_describe: -1 without a table or with an unknown bci. */
int jvm_lines_at(const jvm_method_info *m, int bci);
/* The same over a bare table of 'count' entries. */
int jvm_lines_find(const struct jvm_line *lines, int count, int bci);

/* Attaches the calling native thread to the VM (as a daemon) so it may call JVMTI; NULL if it cannot. */
JNIEnv *jvm_attach_current_thread(void);
/* The same, under the given thread name. */
JNIEnv *jvm_attach_current_thread_named(const char *name);

/* The OS thread id of a started, live java.lang.Thread (its JavaThread through the VM's structure tables);
 * 0 when unknown (not started, ended, or this VM does not describe its threads). */
int jvm_thread_os_tid(JNIEnv *jni, jobject thread);

/* A system property of the VM ("java.vm.name"); "" when unknown. */
void jvm_system_property(const char *name, char *buf, size_t len);
void jvm_detach_current_thread(void);

#endif
