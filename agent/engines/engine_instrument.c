/*
 * engine_instrument: samples chosen Java methods by bytecode instrumentation instead of signals. Each
 * selected method starts with `invokestatic libprof/Instrument.recordSample()V` (classfile.c inserts it);
 * the native behind it counts the call and every Nth call (interval=N, default 1) takes the calling
 * thread's Java stack on that thread, without a signal (java_stack.h), and stores it with the other samples.
 *
 * Classes loaded from now on are rewritten by the ClassFileLoadHook; classes already loaded (those loaded
 * before VMInit included) by RetransformClasses. Stopping turns the hook into a pass-through and
 * retransforms the same classes again, which gives them back their original bytes; methods still running
 * their instrumented version find the recorder off and return at once.
 *
 * Nothing here runs Java code while recording (JVMTI and JNI calls that do not call back into Java), so an
 * instrumented JDK method can never recurse into the recorder. Runs on Java threads only, never in signal
 * handlers.
 */
#define _GNU_SOURCE
#include "engine_instrument.h"

#include "classfile.h"
#include "engine.h"
#include "class_rewrite.h"
#include "instrument_helper.h"
#include "java_stack.h"
#include "jvm.h"
#include "log.h"
#include "method_target.h"
#include "sample.h"
#include "sample_cost.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char configured[sizeof(((prof_options *)0)->event)];
/* The running session's target, NULL when the hook must pass classes through. Each session gets its own
 * copy, never freed: a hook on another thread may still be reading the previous one. */
static method_target *_Atomic hook_target;
static _Atomic bool recording;
static _Atomic uint64_t calls;
static uint64_t every = 1;
static bool vm_dying;
static bool jvmti_only;   /* LIBPROF_TEST_INSTRUMENT_JVMTI=1 (tests): skip AsyncGetCallTrace */
static _Atomic uint64_t classes_rewritten, methods_rewritten, classes_refused;

static void record_stack(JNIEnv *jni) {
    uint64_t started = sample_cost_now();
    trace_frame *frames = NULL;
    uint32_t n = java_stack_take(jni, true, 0, jvmti_only, &frames);
    /* Each recorded call stands for 'every' calls, so 'total' estimates the number of calls. */
    if (n) sample_store(frames, n, every, started);
}

/* libprof/Instrument.recordSample(): the fast path is one load and, while recording, one atomic add. */
static void JNICALL record_sample(JNIEnv *jni, jclass helper) {
    (void)helper;
    if (!atomic_load_explicit(&recording, memory_order_acquire)) return;
    uint64_t n = atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed) + 1;
    if (n % every) return;
    if (sample_enter()) record_stack(jni);
    sample_leave();
}

static bool method_filter(const char *class_name, const char *method_name, const char *descriptor, void *arg) {
    return strcmp(class_name, INSTRUMENT_HELPER_CLASS) != 0 &&
           method_target_matches((const method_target *)arg, class_name, method_name, descriptor);
}

void JNICALL engine_instrument_class_file_load_hook(jvmtiEnv *jvmti, JNIEnv *jni, jclass class_being_redefined,
                                                    jobject loader, const char *name, jobject protection_domain,
                                                    jint class_data_len, const unsigned char *class_data,
                                                    jint *new_class_data_len, unsigned char **new_class_data) {
    (void)jni, (void)class_being_redefined, (void)loader, (void)protection_domain;
    const method_target *t = atomic_load(&hook_target);
    if (!t || class_data_len <= 0) return;
    /* Classes defined without a name (some Lookup.defineClass paths) are named by the parser. */
    if (name && (strcmp(name, INSTRUMENT_HELPER_CLASS) == 0 || !method_target_matches_class(t, name))) return;
    uint8_t *out = NULL;
    size_t out_len = 0;
    int methods = 0;
    char why[256] = "";
    classfile_result r = classfile_instrument(class_data, (size_t)class_data_len, INSTRUMENT_HELPER_CLASS,
                                              INSTRUMENT_HELPER_METHOD, method_filter, (void *)t, &out, &out_len,
                                              &methods, why, sizeof(why));
    if (r == CLASSFILE_REFUSED) {
        atomic_fetch_add(&classes_refused, 1);
        log_warn("instrument: class %s left unchanged: %s", name ? name : "(unnamed)", why);
        return;
    }
    if (r != CLASSFILE_REWRITTEN || !out) return;
    if (class_rewrite_hand_over(jvmti, out, out_len, new_class_data_len, new_class_data)) {
        atomic_fetch_add(&classes_rewritten, 1);
        atomic_fetch_add(&methods_rewritten, (uint64_t)methods);
        log_debug("instrument: %s: %d methods", name ? name : "(unnamed)", methods);
    } else {
        log_warn("instrument: class %s left unchanged: out of memory", name ? name : "(unnamed)");
    }
    free(out);
}

void engine_instrument_class_prepare(JNIEnv *jni) {
    /* Only a class rewritten since the last look can need a new module edge; modules exist before their
     * classes load, so the rewritten class's own module is listed by then. */
    static _Atomic uint64_t rewritten_when_opened;
    uint64_t rewritten = atomic_load(&classes_rewritten);
    if (!atomic_load(&hook_target) || atomic_exchange(&rewritten_when_opened, rewritten) == rewritten) return;
    instrument_helper_open_modules(jni, jvm_jvmti());
}

void engine_instrument_vm_death(void) {
    vm_dying = true;
}

/* Internal name of a loaded class into buf; false for arrays and primitives. Frees what JVMTI allocated. */
static bool class_name_of(jvmtiEnv *jvmti, jclass k, char *buf, size_t len) {
    char *sig = NULL;
    if ((*jvmti)->GetClassSignature(jvmti, k, &sig, NULL) != JVMTI_ERROR_NONE || !sig) return false;
    bool ok = sig[0] == 'L' && strlen(sig) >= 3 && strlen(sig) - 2 < len;
    if (ok) snprintf(buf, len, "%.*s", (int)strlen(sig) - 2, sig + 1);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)sig);
    return ok;
}

static bool target_wants_class(const char *class_name, const void *arg) {
    return method_target_matches_class((const method_target *)arg, class_name);
}

/* Retransforms every loaded, modifiable class the target's class part selects: with the hook on, this
 * instruments them; with the hook passing through, it restores their original bytes. One batch, and class
 * by class when the batch fails, so one bad class names itself and does not hold the others back. */
void engine_instrument_retransform(JNIEnv *jni, bool (*wants)(const char *class_name, const void *arg),
                                   const void *arg, const char *what) {
    jvmtiEnv *jvmti = jvm_jvmti();
    jint count = 0;
    jclass *loaded = NULL;
    if ((*jvmti)->GetLoadedClasses(jvmti, &count, &loaded) != JVMTI_ERROR_NONE) {
        log_warn("instrument: cannot list the loaded classes: classes already loaded are not %s", what);
        return;
    }
    jvm_plan_local_refs(jni, count + 4);
    jclass *chosen = malloc((size_t)(count > 0 ? count : 1) * sizeof(jclass));
    jint n = 0;
    char name[1024];
    for (jint i = 0; chosen && i < count; i++) {
        jboolean modifiable = JNI_FALSE;
        if ((*jvmti)->IsModifiableClass(jvmti, loaded[i], &modifiable) == JVMTI_ERROR_NONE && modifiable &&
            class_name_of(jvmti, loaded[i], name, sizeof(name)) && strcmp(name, INSTRUMENT_HELPER_CLASS) != 0 &&
            wants(name, arg))
            chosen[n++] = loaded[i];
    }
    jvmtiError e = n ? (*jvmti)->RetransformClasses(jvmti, n, chosen) : JVMTI_ERROR_NONE;
    if (e != JVMTI_ERROR_NONE) {
        for (jint i = 0; i < n; i++) {
            e = (*jvmti)->RetransformClasses(jvmti, 1, &chosen[i]);
            if (e != JVMTI_ERROR_NONE && class_name_of(jvmti, chosen[i], name, sizeof(name)))
                log_warn("instrument: class %s not %s: JVMTI RetransformClasses error %d", name, what, (int)e);
        }
    }
    if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
    log_debug("instrument: %d loaded classes %s", (int)n, what);
    free(chosen);
    for (jint i = 0; i < count; i++) (*jni)->DeleteLocalRef(jni, loaded[i]);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)loaded);
}

JNIEnv *engine_instrument_jni(char *err, size_t errlen) {
    JNIEnv *jni = NULL;
    JavaVM *vm = jvm_vm();
    if (!vm || (*vm)->GetEnv(vm, (void **)&jni, JNI_VERSION_1_6) != JNI_OK) {
        snprintf(err, errlen, "instrumentation must be started from a Java thread");
        return NULL;
    }
    return jni;
}

/* The target parses, and this JVM lets us rewrite classes now. */
static int instrument_check(const prof_options *o, char *err, size_t errlen) {
    method_target t;
    if (method_target_parse(o->event, &t, err, errlen)) return -1;
    char what[600];
    snprintf(what, sizeof(what), "event=%s", o->event);
    return engine_instrument_capabilities(what, err, errlen);
}

/* Capabilities added here when missing: at start-up everything is possible, in a live JVM what HotSpot
 * offers in the live phase. */
int engine_instrument_capabilities(const char *what, char *err, size_t errlen) {
    jvmtiEnv *jvmti = jvm_jvmti();
    if (!jvmti) {
        snprintf(err, errlen, "no JVMTI environment");
        return -1;
    }
    jvmtiCapabilities have, potential, want;
    memset(&have, 0, sizeof(have));
    (*jvmti)->GetCapabilities(jvmti, &have);
    if (have.can_retransform_classes && have.can_generate_all_class_hook_events) return 0;
    memset(&potential, 0, sizeof(potential));
    memset(&want, 0, sizeof(want));
    (*jvmti)->GetPotentialCapabilities(jvmti, &potential);
    if (!potential.can_retransform_classes || !potential.can_generate_all_class_hook_events) {
        snprintf(err, errlen, "%s: this JVM does not let agents %s now", what,
                 potential.can_retransform_classes ? "see every class load" : "retransform classes");
        return -1;
    }
    want.can_retransform_classes = 1;
    want.can_generate_all_class_hook_events = 1;
    want.can_retransform_any_class = potential.can_retransform_any_class;
    jvmtiError e = (*jvmti)->AddCapabilities(jvmti, &want);
    if (e != JVMTI_ERROR_NONE) {
        snprintf(err, errlen, "%s: JVMTI refused the class retransformation capabilities (error %d)", what, (int)e);
        return -1;
    }
    return 0;
}

static int instrument_start(const prof_options *o, uint64_t interval, char *err, size_t errlen) {
    snprintf(configured, sizeof(configured), "%s", o->event);
    const char *test_jvmti = getenv("LIBPROF_TEST_INSTRUMENT_JVMTI");
    jvmti_only = test_jvmti && strcmp(test_jvmti, "1") == 0;
    JNIEnv *jni = engine_instrument_jni(err, errlen);
    if (!jni) return -1;
    method_target *t = malloc(sizeof(*t));
    if (!t) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (method_target_parse(configured, t, err, errlen) ||
        instrument_helper_define(jni, jvm_jvmti(), record_sample, err, errlen)) {
        free(t);
        return -1;
    }
    instrument_helper_open_modules(jni, jvm_jvmti());
    every = interval ? interval : 1;
    atomic_store(&calls, 0);
    atomic_store(&classes_rewritten, 0);
    atomic_store(&methods_rewritten, 0);
    atomic_store(&classes_refused, 0);
    atomic_store_explicit(&recording, true, memory_order_release);
    /* The hook only ever rewrites once the helper exists: a class calling a helper the boot loader cannot
     * find would throw NoClassDefFoundError. */
    atomic_store(&hook_target, t);
    jvmtiEnv *jvmti = jvm_jvmti();
    if ((*jvmti)->SetEventNotificationMode(jvmti, JVMTI_ENABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL) !=
        JVMTI_ERROR_NONE) {
        atomic_store(&hook_target, NULL);
        atomic_store(&recording, false);
        snprintf(err, errlen, "event=%s: JVMTI cannot enable the ClassFileLoadHook", configured);
        return -1;
    }
    engine_instrument_retransform(jni, target_wants_class, t, "instrumented");
    log_info("instrument: %s: %llu methods in %llu loaded classes instrumented, %llu classes refused (later "
             "classes are instrumented as they load)",
             configured, (unsigned long long)atomic_load(&methods_rewritten),
             (unsigned long long)atomic_load(&classes_rewritten), (unsigned long long)atomic_load(&classes_refused));
    return 0;
}

static void instrument_stop(void) {
    atomic_store(&recording, false);
    const method_target *t = atomic_exchange(&hook_target, NULL);
    if (!t || vm_dying) return;
    char err[256];
    JNIEnv *jni = engine_instrument_jni(err, sizeof(err));
    if (!jni) {
        log_warn("instrument: %s; instrumented classes keep the (inactive) calls", err);
        return;
    }
    /* The hook now passes classes through, so retransforming gives them their original bytes. */
    engine_instrument_retransform(jni, target_wants_class, t, "restored");
    jvmtiEnv *jvmti = jvm_jvmti();
    (*jvmti)->SetEventNotificationMode(jvmti, JVMTI_DISABLE, JVMTI_EVENT_CLASS_FILE_LOAD_HOOK, NULL);
    log_info("instrument: %llu calls counted; %llu methods in %llu classes had been instrumented (%llu classes "
             "refused); original classes restored",
             (unsigned long long)atomic_load(&calls), (unsigned long long)atomic_load(&methods_rewritten),
             (unsigned long long)atomic_load(&classes_rewritten), (unsigned long long)atomic_load(&classes_refused));
}

const engine engine_instrument = {
    .name = "instrument",
    .units = ENGINE_UNITS_CALLS,
    .default_interval = 1,
    .check = instrument_check,
    .start = instrument_start,
    .stop = instrument_stop,
    .delivery = ENGINE_DELIVERY_JAVA_CALL,
};
