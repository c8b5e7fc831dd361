/*
 * instrument_helper: why the boot loader, and why JNI DefineClass. The rewriter makes classes of every
 * loader call the helper, and every loader that delegates to its parent finds the boot loader's classes;
 * the JDK's own classes see nothing else. DefineClass with a NULL loader puts the class there straight
 * from the embedded bytes, in any phase, with no temporary jar to create, secure and delete (which
 * AddToBootstrapClassLoaderSearch would need). The class is never undefined: later sessions reuse it.
 *
 * Since Java 9 the helper lives in the boot loader's unnamed module, which named modules do not read by
 * default: an instrumented java.base method would fail to link (IllegalAccessError). JVMTI AddModuleReads
 * adds the edge for each named module; modules defined later (new layers) are caught when the module count
 * grows.
 */
#include "instrument_helper.h"

#include "log.h"

#include <stdio.h>
#include <string.h>

extern const char instrument_class[];
extern const size_t instrument_class_len;

static jclass helper;          /* global reference, once defined */
static jobject helper_module;  /* global reference; NULL before Java 9 */
static jint modules_seen;      /* module count at the last opening */

static bool has_modules(jvmtiEnv *jvmti) {
    jint version = 0;
    (*jvmti)->GetVersionNumber(jvmti, &version);
    return ((version & JVMTI_VERSION_MASK_MAJOR) >> JVMTI_VERSION_SHIFT_MAJOR) >= 9;
}

/* Class.getModule() of the helper: the boot loader's unnamed module. */
static jobject module_of_helper(JNIEnv *jni) {
    jclass class_class = (*jni)->FindClass(jni, "java/lang/Class");
    jmethodID get_module = class_class ? (*jni)->GetMethodID(jni, class_class, "getModule", "()Ljava/lang/Module;")
                                       : NULL;
    jobject module = get_module ? (*jni)->CallObjectMethod(jni, helper, get_module) : NULL;
    if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
    jobject global = module ? (*jni)->NewGlobalRef(jni, module) : NULL;
    if (module) (*jni)->DeleteLocalRef(jni, module);
    if (class_class) (*jni)->DeleteLocalRef(jni, class_class);
    return global;
}

/* Defines the helper class once per process. */
static int define_helper(JNIEnv *jni, jvmtiEnv *jvmti, char *err, size_t errlen) {
    if (helper) return 0;
    jclass defined = (*jni)->DefineClass(jni, INSTRUMENT_HELPER_CLASS, NULL, (const jbyte *)instrument_class,
                                         (jsize)instrument_class_len);
    if (!defined) {
        /* Another copy of the agent (another path) may have defined it already: bind ours instead. */
        (*jni)->ExceptionClear(jni);
        defined = (*jni)->FindClass(jni, INSTRUMENT_HELPER_CLASS);
        if (!defined) {
            (*jni)->ExceptionClear(jni);
            snprintf(err, errlen, "cannot define the helper class %s in the boot loader", INSTRUMENT_HELPER_CLASS);
            return -1;
        }
    }
    helper = (*jni)->NewGlobalRef(jni, defined);
    (*jni)->DeleteLocalRef(jni, defined);
    if (!helper) {
        snprintf(err, errlen, "out of memory keeping the helper class");
        return -1;
    }
    if (has_modules(jvmti)) helper_module = module_of_helper(jni);
    return 0;
}

/* Defines the helper if needed and binds its static native 'name' ()V to 'native'. */
static int bind_native(JNIEnv *jni, jvmtiEnv *jvmti, const char *name, void(JNICALL *native)(JNIEnv *, jclass),
                       char *err, size_t errlen) {
    if (define_helper(jni, jvmti, err, errlen)) return -1;
    JNINativeMethod method = {(char *)name, (char *)"()V", (void *)native};
    if ((*jni)->RegisterNatives(jni, helper, &method, 1) != 0) {
        (*jni)->ExceptionClear(jni);
        snprintf(err, errlen, "cannot bind %s.%s to the agent", INSTRUMENT_HELPER_CLASS, name);
        return -1;
    }
    return 0;
}

int instrument_helper_define(JNIEnv *jni, jvmtiEnv *jvmti, void(JNICALL *native)(JNIEnv *, jclass), char *err,
                             size_t errlen) {
    return bind_native(jni, jvmti, INSTRUMENT_HELPER_METHOD, native, err, errlen);
}

int instrument_helper_bind_park(JNIEnv *jni, jvmtiEnv *jvmti, void(JNICALL *native)(JNIEnv *, jclass), char *err,
                                size_t errlen) {
    return bind_native(jni, jvmti, INSTRUMENT_HELPER_PARK_METHOD, native, err, errlen);
}

int instrument_helper_bind_trace(JNIEnv *jni, jvmtiEnv *jvmti, void(JNICALL *enter)(JNIEnv *, jclass, jint),
                                 void(JNICALL *exit)(JNIEnv *, jclass, jint), char *err, size_t errlen) {
    if (define_helper(jni, jvmti, err, errlen)) return -1;
    JNINativeMethod methods[] = {{(char *)INSTRUMENT_HELPER_TRACE_ENTER, (char *)"(I)V", (void *)enter},
                                 {(char *)INSTRUMENT_HELPER_TRACE_EXIT, (char *)"(I)V", (void *)exit}};
    if ((*jni)->RegisterNatives(jni, helper, methods, 2) != 0) {
        (*jni)->ExceptionClear(jni);
        snprintf(err, errlen, "cannot bind %s.%s/%s to the agent", INSTRUMENT_HELPER_CLASS,
                 INSTRUMENT_HELPER_TRACE_ENTER, INSTRUMENT_HELPER_TRACE_EXIT);
        return -1;
    }
    return 0;
}

void instrument_helper_open_modules(JNIEnv *jni, jvmtiEnv *jvmti) {
    if (!helper_module) return;
    jint count = 0;
    jobject *modules = NULL;
    if ((*jni)->PushLocalFrame(jni, 16) != 0) {
        (*jni)->ExceptionClear(jni);
        return;
    }
    if ((*jvmti)->GetAllModules(jvmti, &count, &modules) == JVMTI_ERROR_NONE) {
        if (count != modules_seen) {
            int failed = 0;
            for (jint i = 0; i < count; i++) {
                /* Unnamed modules read every module already: JVMTI makes this a no-op for them. */
                if ((*jvmti)->AddModuleReads(jvmti, modules[i], helper_module) != JVMTI_ERROR_NONE) failed++;
            }
            if (failed) log_warn("instrument: %d of %d modules cannot read the helper class's module", failed, count);
            modules_seen = count;
        }
        (*jvmti)->Deallocate(jvmti, (unsigned char *)modules);
    }
    if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
    (*jni)->PopLocalFrame(jni, NULL);
}
