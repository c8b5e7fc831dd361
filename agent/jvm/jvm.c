/*
 * jvm: AsyncGetCallTrace needs two things from an agent: ClassLoad events enabled (without them it answers
 * ticks_no_class_load) and a jmethodID for every method it may report, which HotSpot creates lazily; we
 * force them in ClassPrepare so the signal handler never needs one that does not exist yet.
 */
#define _GNU_SOURCE
#include "jvm.h"

#include "java_tids.h"
#include "java_tids_init.h"
#include "jit_stubs.h"
#include "jvm_threads.h"
#include "log.h"
#include "safe_read.h"
#include "safe_read_stack.h"
#include "safe_read_mode.h"
#include "sample.h"
#include "self_tid.h"
#include "threads.h"
#include "vmstructs.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static JavaVM *vm;
static jvmtiEnv *jvmti;
static asgct_fn asgct;
static volatile bool live;
static volatile bool dying;   /* VMDeath has begun */
static int feature_version;   /* 11, 17, 25: java.vm.specification.version (set by the VM itself, so known at load); 0 when unknown */
static bool tracking_from_start;  /* saw every Java thread start, so java_tids is complete */
static jvm_listeners listen;

static void preallocate_method_ids(jvmtiEnv *env, jclass klass) {
    jint count;
    jmethodID *methods;
    if ((*env)->GetClassMethods(env, klass, &count, &methods) == JVMTI_ERROR_NONE)
        (*env)->Deallocate(env, (unsigned char *)methods);
}

static void JNICALL on_class_load(jvmtiEnv *env, JNIEnv *jni, jthread thread, jclass klass) {
    (void)env, (void)jni, (void)thread, (void)klass;
}

static void JNICALL on_class_prepare(jvmtiEnv *env, JNIEnv *jni, jthread thread, jclass klass) {
    (void)thread;
    preallocate_method_ids(env, klass);
    if (listen.class_prepared) listen.class_prepared(jni);
}

static void JNICALL on_thread_start(jvmtiEnv *env, JNIEnv *jni, jthread thread) {
    int tid = self_tid();
    java_tids_add(tid);
    sample_set_thread_env(jni);
    safe_read_register_current_stack();
    jvm_threads_track(env, jni, thread, tid);
    if (listen.thread_started) listen.thread_started(tid);
}

static void JNICALL on_thread_end(jvmtiEnv *env, JNIEnv *jni, jthread thread) {
    sample_set_thread_env(NULL);
    jvm_threads_untrack(env, jni, thread, self_tid());
    java_tids_remove(self_tid());
    threads_ended(self_tid(), java_tids_contains);
    if (listen.thread_ended) listen.thread_ended(self_tid());
}

static void preallocate_loaded_classes(void);

static void JNICALL on_vm_init(jvmtiEnv *env, JNIEnv *jni, jthread thread) {
    /* Classes loaded in the primordial phase never saw ClassPrepare; the main thread never saw ThreadStart. */
    preallocate_loaded_classes();
    java_tids_add(self_tid());
    (*env)->GenerateEvents(env, JVMTI_EVENT_DYNAMIC_CODE_GENERATED);   /* stubs generated before the live phase */
    sample_set_thread_env(jni);
    safe_read_register_current_stack();
    jvm_threads_track(env, jni, thread, self_tid());
    live = true;
    if (listen.vm_started) listen.vm_started();
}

static void JNICALL on_vm_death(jvmtiEnv *env, JNIEnv *jni) {
    (void)env, (void)jni;
    dying = true;
    if (listen.vm_dying) listen.vm_dying();
}

/* libjvm.so is usually loaded RTLD_GLOBAL by the launcher, but not by every embedder: fall back to the
 * library that holds the JVMTI function table. */
static asgct_fn find_asgct(void) {
    void *sym = dlsym(RTLD_DEFAULT, "AsyncGetCallTrace");
    if (sym) return (asgct_fn)sym;
    Dl_info info;
    if (dladdr((void *)(*jvmti)->GetVersionNumber, &info) && info.dli_fname) {
        void *lib = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
        if (lib) {
            sym = dlsym(lib, "AsyncGetCallTrace");
            dlclose(lib);
        }
    }
    return (asgct_fn)sym;
}

static void request_capabilities(void) {
    jvmtiCapabilities potential, wanted;
    memset(&wanted, 0, sizeof(wanted));
    if ((*jvmti)->GetPotentialCapabilities(jvmti, &potential) != JVMTI_ERROR_NONE) return;
    wanted.can_get_line_numbers = potential.can_get_line_numbers;
    wanted.can_get_source_file_name = potential.can_get_source_file_name;
    (*jvmti)->AddCapabilities(jvmti, &wanted);
}

/* Names of generated code: stub frames are named by them at dump time (jit_stubs). */
static void JNICALL on_dynamic_code(jvmtiEnv *env, const char *name, const void *address, jint length) {
    (void)env;
    jit_stubs_add(address, length, name);
}

static int enable_events(char *err, size_t errlen) {
    jvmtiEventCallbacks cb;
    memset(&cb, 0, sizeof(cb));
    cb.ClassLoad = on_class_load;
    cb.ClassPrepare = on_class_prepare;
    cb.ThreadStart = on_thread_start;
    cb.ThreadEnd = on_thread_end;
    cb.VMInit = on_vm_init;
    cb.VMDeath = on_vm_death;
    cb.DynamicCodeGenerated = on_dynamic_code;
    cb.ClassFileLoadHook = listen.class_file_load_hook;
    cb.SampledObjectAlloc = listen.sampled_object_alloc;
    cb.MonitorContendedEnter = listen.monitor_contended_enter;
    cb.MonitorContendedEntered = listen.monitor_contended_entered;
    if ((*jvmti)->SetEventCallbacks(jvmti, &cb, sizeof(cb)) != JVMTI_ERROR_NONE) {
        snprintf(err, errlen, "JVMTI SetEventCallbacks failed");
        return -1;
    }
    const jvmtiEvent events[] = {JVMTI_EVENT_CLASS_LOAD, JVMTI_EVENT_CLASS_PREPARE, JVMTI_EVENT_THREAD_START,
                                 JVMTI_EVENT_THREAD_END, JVMTI_EVENT_VM_INIT, JVMTI_EVENT_VM_DEATH,
                                 JVMTI_EVENT_DYNAMIC_CODE_GENERATED};
    for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++) {
        if ((*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, events[i], NULL) != JVMTI_ERROR_NONE) {
            snprintf(err, errlen, "JVMTI cannot enable event %d", (int)events[i]);
            return -1;
        }
    }
    return 0;
}

void jvm_plan_local_refs(JNIEnv *jni, jint count) {
    if ((*jni)->EnsureLocalCapacity(jni, count) != JNI_OK && (*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
}

static void preallocate_loaded_classes(void) {
    jint count;
    jclass *classes;
    if ((*jvmti)->GetLoadedClasses(jvmti, &count, &classes) != JVMTI_ERROR_NONE) return;
    JNIEnv *jni = NULL;
    (*vm)->GetEnv(vm, (void **)&jni, JNI_VERSION_1_6);
    /* The list came as 'count' local references: a native frame (an API call) plans for 16 (-Xcheck:jni warns). */
    if (jni) jvm_plan_local_refs(jni, count);
    for (jint i = 0; i < count; i++) {
        preallocate_method_ids(jvmti, classes[i]);
        if (jni) (*jni)->DeleteLocalRef(jni, classes[i]);
    }
    (*jvmti)->Deallocate(jvmti, (unsigned char *)classes);
}

/* The OS thread id of a java.lang.Thread, through its eetop field (the JavaThread*) and the VM's own
 * structure tables. Reads go through safe_read: the thread may be exiting while we look. 0 if unknown. */
static int os_tid_of(JNIEnv *jni, jobject thread, jfieldID eetop, uint64_t osthread_at, uint64_t tid_at) {
    uintptr_t java_thread = (uintptr_t)(*jni)->GetLongField(jni, thread, eetop), osthread, word;
    if (!java_thread || !safe_read_word(java_thread + osthread_at, &osthread) || !osthread) return 0;
    if (!safe_read_word((osthread + tid_at) & ~(uintptr_t)7, &word)) return 0;
    return (int)(uint32_t)(word >> (((osthread + tid_at) & 7) * 8));
}

/* Where a JavaThread keeps its OSThread, and an OSThread its thread id, from the VM's structure tables. */
static int thread_tid_offsets(uint64_t *osthread_at, uint64_t *tid_at) {
    char why[256];
    if (vmstructs_init(why, sizeof(why)) ||
        !(vmstructs_field_offset("JavaThread", "_osthread", osthread_at) ||
          vmstructs_field_offset("Thread", "_osthread", osthread_at)) ||
        !vmstructs_field_offset("OSThread", "_thread_id", tid_at))
        return -1;
    return 0;
}

int jvm_thread_os_tid(JNIEnv *jni, jobject thread) {
    uint64_t osthread_at, tid_at;
    if (!thread || thread_tid_offsets(&osthread_at, &tid_at)) return 0;
    jclass thread_class = (*jni)->FindClass(jni, "java/lang/Thread");
    jfieldID eetop = thread_class ? (*jni)->GetFieldID(jni, thread_class, "eetop", "J") : NULL;
    if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
    int tid = eetop ? os_tid_of(jni, thread, eetop, osthread_at, tid_at) : 0;
    if (thread_class) (*jni)->DeleteLocalRef(jni, thread_class);
    return tid;
}

/* On attach, Java threads that already exist never pass through ThreadStart: find their OS thread ids so
 * the signal handler knows it may ask the JVM for their JNIEnv. */
static void register_existing_java_threads(void) {
    safe_read_mode_choose();   /* the reads below are the first of this JVM's life */
    uint64_t osthread_at, tid_at;
    if (thread_tid_offsets(&osthread_at, &tid_at)) {
        log_warn("cannot map existing Java threads to OS threads: only threads started from now on will show "
                 "Java frames");
        return;
    }
    JNIEnv *jni = NULL;
    jint count = 0;
    jthread *threads = NULL;
    if ((*vm)->GetEnv(vm, (void **)&jni, JNI_VERSION_1_6) != JNI_OK ||
        (*jvmti)->GetAllThreads(jvmti, &count, &threads) != JVMTI_ERROR_NONE)
        return;
    jvm_plan_local_refs(jni, count + 4);
    jclass thread_class = (*jni)->FindClass(jni, "java/lang/Thread");
    jfieldID eetop = thread_class ? (*jni)->GetFieldID(jni, thread_class, "eetop", "J") : NULL;
    int found = 0;
    for (jint i = 0; i < count; i++) {
        int tid = eetop ? os_tid_of(jni, threads[i], eetop, osthread_at, tid_at) : 0;
        if (tid > 0) {
            java_tids_add(tid);
            jvm_threads_track(jvmti, jni, threads[i], tid);
            found++;
        }
        (*jni)->DeleteLocalRef(jni, threads[i]);
    }
    if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
    if (thread_class) (*jni)->DeleteLocalRef(jni, thread_class);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)threads);
    log_debug("attach: %d of %d existing Java threads mapped to OS threads", found, (int)count);
}

/* An attach may arrive while the JVM is still starting (a script that runs jprof right after java): HotSpot's
 * attach listener already answers, but hands out JVMTI environments only from the live phase on (GetEnv says
 * JNI_EDETACHED before it). Such an attach waits for the live phase, a few seconds at most. */
#define LIVE_PHASE_WAIT_MS 5000

static jint get_jvmti(bool in_live_vm, jvmtiEnv **env) {
    jint rc = (*vm)->GetEnv(vm, (void **)env, JVMTI_VERSION_1_2);
    for (int waited = 0; in_live_vm && rc == JNI_EDETACHED && waited < LIVE_PHASE_WAIT_MS; waited += 10) {
        struct timespec pause = {0, 10 * 1000000L};
        nanosleep(&pause, NULL);
        rc = (*vm)->GetEnv(vm, (void **)env, JVMTI_VERSION_1_2);
    }
    return rc;
}

int jvm_init(JavaVM *java_vm, bool in_live_vm, const jvm_listeners *listeners, char *err, size_t errlen) {
    if (jvmti) return 0;
    vm = java_vm;
    if (listeners) listen = *listeners;
    jvmtiEnv *env;
    jint rc = get_jvmti(in_live_vm, &env);
    if (rc == JNI_EDETACHED) {
        snprintf(err, errlen, "the JVM did not finish starting within %d ms (no JVMTI environment before its "
                 "live phase): attach again later", LIVE_PHASE_WAIT_MS);
        return -1;
    }
    if (rc != JNI_OK) {
        snprintf(err, errlen, "this JVM offers no JVMTI 1.2 environment (GetEnv: %d)", (int)rc);
        return -1;
    }
    jvmti = env;
    char spec[16];
    jvm_system_property("java.vm.specification.version", spec, sizeof(spec));
    feature_version = atoi(spec);
    if (java_tids_init()) {
        snprintf(err, errlen, "cannot reserve the thread id bitmap");
        jvmti = NULL;
        return -1;
    }
    tracking_from_start = !in_live_vm;
    asgct = find_asgct();
    if (!asgct) {
        snprintf(err, errlen, "AsyncGetCallTrace not found in libjvm.so: this JVM is not HotSpot-based");
        jvmti = NULL;
        return -1;
    }
    request_capabilities();
    if (enable_events(err, errlen)) {
        jvmti = NULL;
        return -1;
    }
    if (in_live_vm) {
        live = true;
        preallocate_loaded_classes();
        (*jvmti)->GenerateEvents(jvmti, JVMTI_EVENT_DYNAMIC_CODE_GENERATED);
        register_existing_java_threads();
        threads_snapshot_os_names();
    }
    return 0;
}

JavaVM *jvm_vm(void) { return vm; }
jvmtiEnv *jvm_jvmti(void) { return jvmti; }
asgct_fn jvm_asgct(void) { return asgct; }
bool jvm_is_live(void) { return live; }

bool jvm_is_dying(void) { return dying; }

int jvm_feature_version(void) { return feature_version; }
bool jvm_tracks_all_java_threads(void) { return tracking_from_start; }

/* Frees what a GetMethodName + GetMethodDeclaringClass + GetClassSignature lookup handed out. */
static void release_method_lookup(char *name, char *sig, char *class_sig, jclass klass) {
    if (name) (*jvmti)->Deallocate(jvmti, (unsigned char *)name);
    if (sig) (*jvmti)->Deallocate(jvmti, (unsigned char *)sig);
    if (class_sig) (*jvmti)->Deallocate(jvmti, (unsigned char *)class_sig);
    if (klass) {
        JNIEnv *jni = NULL;
        if ((*vm)->GetEnv(vm, (void **)&jni, JNI_VERSION_1_6) == JNI_OK) (*jni)->DeleteLocalRef(jni, klass);
    }
}

int jvm_method_name(jmethodID method, names_style style, char *buf, size_t len) {
    jclass klass = NULL;
    char *name = NULL, *sig = NULL, *class_sig = NULL;
    int rc = -1;
    if (method && (*jvmti)->GetMethodName(jvmti, method, &name, &sig, NULL) == JVMTI_ERROR_NONE &&
        (*jvmti)->GetMethodDeclaringClass(jvmti, method, &klass) == JVMTI_ERROR_NONE &&
        (*jvmti)->GetClassSignature(jvmti, klass, &class_sig, NULL) == JVMTI_ERROR_NONE) {
        names_java_method(buf, len, class_sig, name, sig, style);
        rc = 0;
    }
    release_method_lookup(name, sig, class_sig, klass);
    return rc;
}

int jvm_method_describe(jmethodID method, jvm_method_info *out) {
    memset(out, 0, sizeof(*out));
    jclass klass = NULL;
    char *name = NULL, *sig = NULL, *class_sig = NULL;
    jint modifiers = 0, class_modifiers = 0;
    int rc = -1;
    if (method && (*jvmti)->GetMethodName(jvmti, method, &name, &sig, NULL) == JVMTI_ERROR_NONE &&
        (*jvmti)->GetMethodDeclaringClass(jvmti, method, &klass) == JVMTI_ERROR_NONE &&
        (*jvmti)->GetClassSignature(jvmti, klass, &class_sig, NULL) == JVMTI_ERROR_NONE) {
        size_t n = strlen(class_sig);
        if (n >= 2 && class_sig[0] == 'L' && class_sig[n - 1] == ';')
            snprintf(out->class_name, sizeof(out->class_name), "%.*s", (int)(n - 2), class_sig + 1);
        else snprintf(out->class_name, sizeof(out->class_name), "%s", class_sig);
        snprintf(out->name, sizeof(out->name), "%s", name);
        snprintf(out->descriptor, sizeof(out->descriptor), "%s", sig);
        if ((*jvmti)->GetMethodModifiers(jvmti, method, &modifiers) == JVMTI_ERROR_NONE) out->modifiers = modifiers;
        if ((*jvmti)->GetClassModifiers(jvmti, klass, &class_modifiers) == JVMTI_ERROR_NONE)
            out->class_modifiers = class_modifiers;
        jint count = 0;
        jvmtiLineNumberEntry *table = NULL;
        if ((*jvmti)->GetLineNumberTable(jvmti, method, &count, &table) == JVMTI_ERROR_NONE && count > 0) {
            out->lines = malloc((size_t)count * sizeof(*out->lines));
            if (out->lines) {
                for (jint i = 0; i < count; i++)
                    out->lines[i] = (struct jvm_line){(int32_t)table[i].start_location, table[i].line_number};
                out->line_count = count;
            }
        }
        if (table) (*jvmti)->Deallocate(jvmti, (unsigned char *)table);
        rc = 0;
    }
    release_method_lookup(name, sig, class_sig, klass);
    return rc;
}

JNIEnv *jvm_attach_current_thread(void) {
    return jvm_attach_current_thread_named("libprof timer");
}

void jvm_system_property(const char *name, char *buf, size_t len) {
    char *value = NULL;
    buf[0] = 0;
    if (jvmti && (*jvmti)->GetSystemProperty(jvmti, name, &value) == JVMTI_ERROR_NONE && value)
        snprintf(buf, len, "%s", value);
    if (value) (*jvmti)->Deallocate(jvmti, (unsigned char *)value);
}

JNIEnv *jvm_attach_current_thread_named(const char *name) {
    JNIEnv *jni = NULL;
    JavaVMAttachArgs args = {JNI_VERSION_1_6, (char *)name, NULL};
    if (!vm) return NULL;   /* a process with no JVM: nothing to attach to */
    if ((*vm)->AttachCurrentThreadAsDaemon(vm, (void **)&jni, &args) != JNI_OK) return NULL;
    return jni;
}

void jvm_detach_current_thread(void) {
    if (vm) (*vm)->DetachCurrentThread(vm);
}
