/*
 * jdk_recording: the JDK's recording driven through JNI, without a class of our own: every call is a
 * public method of jdk.jfr (Configuration.getConfiguration / create, Recording's constructor, enable,
 * disable, setDestination, setDumpOnExit, start, stop, dump, close), except the clock query, which reads
 * jdk.jfr.internal.JVM (JNI does not check module access). A Java exception is turned into the error's
 * text and cleared, so none reaches the application's code.
 */
#define _GNU_SOURCE
#include "jdk_recording.h"

#include "jvm.h"
#include "log.h"

#include <errno.h>
#include <fcntl.h>
#include <jni.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static jobject recording;        /* a global reference while open */
static char dir[1200];           /* the private directory the JDK writes into */
static char file[1300];          /* its recording at stop or at the JVM's exit */
static unsigned snapshots;

/* The calling thread's JNIEnv, attached for the call when it is not a thread the JVM knows. */
static JNIEnv *enter(bool *attached) {
    JavaVM *vm = jvm_vm();
    JNIEnv *env = NULL;
    *attached = false;
    if (!vm) return NULL;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) == JNI_OK) return env;
    env = jvm_attach_current_thread();
    *attached = env != NULL;
    return env;
}

static void leave(bool attached) {
    if (attached) jvm_detach_current_thread();
}

/* A pending exception as its toString() ("java.nio.file.NoSuchFileException: x.jfc"), cleared. */
static bool exception_text(JNIEnv *env, char *buf, size_t len) {
    jthrowable t = (*env)->ExceptionOccurred(env);
    if (!t) return false;
    (*env)->ExceptionClear(env);
    snprintf(buf, len, "a Java exception");
    jclass c = (*env)->GetObjectClass(env, t);
    jmethodID to_string = c ? (*env)->GetMethodID(env, c, "toString", "()Ljava/lang/String;") : NULL;
    jstring s = to_string ? (jstring)(*env)->CallObjectMethod(env, t, to_string) : NULL;
    if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
    const char *chars = s ? (*env)->GetStringUTFChars(env, s, NULL) : NULL;
    if (chars) {
        snprintf(buf, len, "%s", chars);
        (*env)->ReleaseStringUTFChars(env, s, chars);
    }
    return true;
}

/* Clears a pending exception; true when there was one (its text logged at debug level). */
static bool dropped_exception(JNIEnv *env, const char *what) {
    char text[512];
    if (!exception_text(env, text, sizeof(text))) return false;
    log_debug("jfrsync: %s: %s", what, text);
    return true;
}

/* recording.<name><sig>(args...): an instance method of jdk.jfr.Recording returning an object or void. */
static jmethodID recording_method(JNIEnv *env, const char *name, const char *sig) {
    jclass c = (*env)->FindClass(env, "jdk/jfr/Recording");
    return c ? (*env)->GetMethodID(env, c, name, sig) : NULL;
}

/* A java.nio.file.Path for 'path' (java.io.File.toPath: no varargs array to build). */
static jobject path_object(JNIEnv *env, const char *path) {
    jclass c = (*env)->FindClass(env, "java/io/File");
    jmethodID init = c ? (*env)->GetMethodID(env, c, "<init>", "(Ljava/lang/String;)V") : NULL;
    jmethodID to_path = c ? (*env)->GetMethodID(env, c, "toPath", "()Ljava/nio/file/Path;") : NULL;
    jstring s = init && to_path ? (*env)->NewStringUTF(env, path) : NULL;
    jobject f = s ? (*env)->NewObject(env, c, init, s) : NULL;
    return f ? (*env)->CallObjectMethod(env, f, to_path) : NULL;
}

/* The JDK's configuration named 'settings' (default, profile) or read from a .jfc file. */
static jobject configuration(JNIEnv *env, const char *settings, char *err, size_t errlen) {
    jclass c = (*env)->FindClass(env, "jdk/jfr/Configuration");
    jmethodID by_name = c ? (*env)->GetStaticMethodID(env, c, "getConfiguration",
                                                         "(Ljava/lang/String;)Ljdk/jfr/Configuration;") : NULL;
    jmethodID by_file = c ? (*env)->GetStaticMethodID(env, c, "create", "(Ljava/nio/file/Path;)Ljdk/jfr/Configuration;")
                          : NULL;
    char why[512] = "";
    jobject config = NULL;
    if (by_name && by_file) {
        jstring name = (*env)->NewStringUTF(env, settings);
        config = name ? (*env)->CallStaticObjectMethod(env, c, by_name, name) : NULL;
        if (!config) {
            dropped_exception(env, "not a configuration name");
            jobject path = path_object(env, settings);
            config = path ? (*env)->CallStaticObjectMethod(env, c, by_file, path) : NULL;
        }
    }
    if (!config) {
        if (!exception_text(env, why, sizeof(why))) snprintf(why, sizeof(why), "jdk.jfr.Configuration not found");
        snprintf(err, errlen, "jfrsync=%s: neither a configuration of this JDK (default, profile) nor a .jfc file it "
                 "can read: %s", settings, why);
    }
    return config;
}

/* The JDK's events our engines record themselves: off in its recording, so each is in the file once. */
static void disable_ours(JNIEnv *env, jobject r, const prof_options *o) {
    bool kinds[EVENT_KIND_COUNT] = {false};
    kinds[options_event_kind(o->event)] = true;
    for (int k = 0; k < EVENT_KIND_COUNT; k++) kinds[k] = kinds[k] || o->extra_events[k];
    static const struct { event_kind kind; const char *event; } ours[] = {
        {EVENT_CPU, "jdk.ExecutionSample"}, {EVENT_CPU, "jdk.NativeMethodSample"},
        {EVENT_WALL, "jdk.ExecutionSample"}, {EVENT_WALL, "jdk.NativeMethodSample"},
        {EVENT_ALLOC, "jdk.ObjectAllocationInNewTLAB"}, {EVENT_ALLOC, "jdk.ObjectAllocationOutsideTLAB"},
        {EVENT_ALLOC, "jdk.ObjectAllocationSample"}, {EVENT_ALLOC, "jdk.OldObjectSample"},
        {EVENT_LOCK, "jdk.JavaMonitorEnter"}, {EVENT_LOCK, "jdk.ThreadPark"},
    };
    jmethodID disable = recording_method(env, "disable", "(Ljava/lang/String;)Ljdk/jfr/EventSettings;");
    for (size_t i = 0; disable && i < sizeof(ours) / sizeof(ours[0]); i++) {
        if (!kinds[ours[i].kind]) continue;
        jstring name = (*env)->NewStringUTF(env, ours[i].event);
        if (name) (*env)->CallObjectMethod(env, r, disable, name);
        dropped_exception(env, ours[i].event);
        (*env)->DeleteLocalRef(env, name);
    }
}

/* A recording of the events listed as +jdk.A+jdk.B, each with its default settings. */
static jobject recording_of_events(JNIEnv *env, const char *list) {
    jclass c = (*env)->FindClass(env, "jdk/jfr/Recording");
    jmethodID init = c ? (*env)->GetMethodID(env, c, "<init>", "()V") : NULL;
    jmethodID enable = recording_method(env, "enable", "(Ljava/lang/String;)Ljdk/jfr/EventSettings;");
    jobject r = init && enable ? (*env)->NewObject(env, c, init) : NULL;
    char names[512];
    snprintf(names, sizeof(names), "%s", list);
    char *save = NULL;
    for (char *e = strtok_r(names, "+", &save); r && e; e = strtok_r(NULL, "+", &save)) {
        jstring name = (*env)->NewStringUTF(env, e);
        if (name) (*env)->CallObjectMethod(env, r, enable, name);
        if ((*env)->ExceptionCheck(env)) return NULL;
        (*env)->DeleteLocalRef(env, name);
    }
    return r;
}

static jobject recording_with_settings(JNIEnv *env, const char *settings, char *err, size_t errlen) {
    jobject config = configuration(env, settings, err, errlen);
    if (!config) return NULL;
    jclass c = (*env)->FindClass(env, "jdk/jfr/Recording");
    jmethodID init = c ? (*env)->GetMethodID(env, c, "<init>", "(Ljdk/jfr/Configuration;)V") : NULL;
    return init ? (*env)->NewObject(env, c, init, config) : NULL;
}

static void remove_files(void) {
    if (file[0]) unlink(file);
    if (dir[0] && rmdir(dir) != 0 && errno != ENOENT)
        log_warn("jfrsync: cannot remove the directory '%s' the JDK's recording was written into: %s (it is ours "
                 "and may be deleted)", dir, strerror(errno));
    dir[0] = file[0] = 0;
}

/* The Flight Recorder of this JVM, or why there is none. */
static int recorder_available(JNIEnv *env, char *err, size_t errlen) {
    jclass c = (*env)->FindClass(env, "jdk/jfr/FlightRecorder");
    if (!c) {
        dropped_exception(env, "jdk.jfr.FlightRecorder");
        snprintf(err, errlen, "jfrsync: this JVM has no Flight Recorder (the jdk.jfr module is not in its runtime "
                 "image); record without jfrsync");
        return -1;
    }
    jmethodID available = (*env)->GetStaticMethodID(env, c, "isAvailable", "()Z");
    if (!available || !(*env)->CallStaticBooleanMethod(env, c, available)) {
        dropped_exception(env, "FlightRecorder.isAvailable");
        snprintf(err, errlen, "jfrsync: the JVM's Flight Recorder is not available (turned off, or not supported "
                 "on this platform); record without jfrsync");
        return -1;
    }
    return 0;
}

/* setToDisk(true), setDumpOnExit(true), setDestination(file), setName, start: the file is written by the
 * JDK at stop, or by its shutdown hook when the JVM exits first. */
static int start_to_file(JNIEnv *env, jobject r, char *err, size_t errlen) {
    jmethodID to_disk = recording_method(env, "setToDisk", "(Z)V");
    jmethodID on_exit = recording_method(env, "setDumpOnExit", "(Z)V");
    jmethodID dest = recording_method(env, "setDestination", "(Ljava/nio/file/Path;)V");
    jmethodID name = recording_method(env, "setName", "(Ljava/lang/String;)V");
    jmethodID start = recording_method(env, "start", "()V");
    jobject path = path_object(env, file);
    jstring label = (*env)->NewStringUTF(env, "libprof jfrsync");
    if (to_disk && on_exit && dest && name && start && path && label) {
        (*env)->CallVoidMethod(env, r, to_disk, JNI_TRUE);
        if (!(*env)->ExceptionCheck(env)) (*env)->CallVoidMethod(env, r, on_exit, JNI_TRUE);
        if (!(*env)->ExceptionCheck(env)) (*env)->CallVoidMethod(env, r, dest, path);
        if (!(*env)->ExceptionCheck(env)) (*env)->CallVoidMethod(env, r, name, label);
        if (!(*env)->ExceptionCheck(env)) (*env)->CallVoidMethod(env, r, start);
        if (!(*env)->ExceptionCheck(env)) return 0;
    }
    char why[512];
    if (!exception_text(env, why, sizeof(why))) snprintf(why, sizeof(why), "jdk.jfr.Recording lacks a method");
    snprintf(err, errlen, "jfrsync: cannot start the JDK's recording: %s", why);
    return -1;
}

int jdk_recording_start(const prof_options *o, const char *base, char *err, size_t errlen) {
    if (recording) {
        snprintf(err, errlen, "jfrsync: a JDK recording of ours is already open");
        return -1;
    }
    bool attached;
    JNIEnv *env = enter(&attached);
    if (!env) {
        snprintf(err, errlen, "jfrsync: cannot call into the JVM from this thread");
        return -1;
    }
    int rc = -1;
    (*env)->PushLocalFrame(env, 64);
    if (recorder_available(env, err, errlen) == 0) {
        jobject r = o->jfrsync[0] == '+' ? recording_of_events(env, o->jfrsync)
                                         : recording_with_settings(env, o->jfrsync, err, errlen);
        if (!r && o->jfrsync[0] == '+') {
            char why[512] = "";
            exception_text(env, why, sizeof(why));
            snprintf(err, errlen, "jfrsync=%s: cannot enable these events: %s", o->jfrsync, why);
        }
        snprintf(dir, sizeof(dir), "%s.jdk-XXXXXX", base);
        if (r && !mkdtemp(dir)) {
            snprintf(err, errlen, "jfrsync: cannot create a private directory '%s' for the JDK's recording: %s", dir,
                     strerror(errno));
            dir[0] = 0;
            r = NULL;
        }
        if (r) {
            snprintf(file, sizeof(file), "%s/jdk.jfr", dir);
            disable_ours(env, r, o);
            if (start_to_file(env, r, err, errlen) == 0) {
                recording = (*env)->NewGlobalRef(env, r);
                rc = recording ? 0 : -1;
            }
        }
        if (rc) remove_files();
    }
    if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
    (*env)->PopLocalFrame(env, NULL);
    leave(attached);
    if (rc == 0) log_info("jfrsync: the JDK's Flight Recorder records with settings '%s' beside libprof", o->jfrsync);
    return rc;
}

bool jdk_recording_open(void) {
    return recording != NULL;
}

bool jdk_recording_jvm_ticks(uint64_t *ticks, uint64_t *frequency) {
    bool attached;
    JNIEnv *env = enter(&attached);
    if (!env) return false;
    uint64_t freq = 0, now = 0;
    jclass c = (*env)->FindClass(env, "jdk/jfr/internal/JVM");
    jmethodID counter = c ? (*env)->GetStaticMethodID(env, c, "counterTime", "()J") : NULL;
    if (counter) {
        /* Static since JDK 22; before, an instance method of JVM.getJVM(). */
        jmethodID f = (*env)->GetStaticMethodID(env, c, "getTicksFrequency", "()J");
        if (f) freq = (uint64_t)(*env)->CallStaticLongMethod(env, c, f);
        else {
            (*env)->ExceptionClear(env);
            jmethodID get = (*env)->GetStaticMethodID(env, c, "getJVM", "()Ljdk/jfr/internal/JVM;");
            jobject jvm = get ? (*env)->CallStaticObjectMethod(env, c, get) : NULL;
            f = jvm ? (*env)->GetMethodID(env, c, "getTicksFrequency", "()J") : NULL;
            if (f) freq = (uint64_t)(*env)->CallLongMethod(env, jvm, f);
        }
        if (!(*env)->ExceptionCheck(env)) now = (uint64_t)(*env)->CallStaticLongMethod(env, c, counter);
    }
    bool failed = dropped_exception(env, "the JVM's JFR clock");
    leave(attached);
    if (failed || freq == 0) return false;
    *ticks = now;
    *frequency = freq;
    return true;
}

/* The recording's state name (RUNNING, STOPPED, CLOSED), "" when it cannot be read. */
static void state_name(JNIEnv *env, char *buf, size_t len) {
    buf[0] = 0;
    jmethodID get = recording_method(env, "getState", "()Ljdk/jfr/RecordingState;");
    jobject state = get ? (*env)->CallObjectMethod(env, recording, get) : NULL;
    jclass c = state ? (*env)->GetObjectClass(env, state) : NULL;
    jmethodID name = c ? (*env)->GetMethodID(env, c, "name", "()Ljava/lang/String;") : NULL;
    jstring s = name ? (jstring)(*env)->CallObjectMethod(env, state, name) : NULL;
    const char *chars = s ? (*env)->GetStringUTFChars(env, s, NULL) : NULL;
    if (chars) {
        snprintf(buf, len, "%s", chars);
        (*env)->ReleaseStringUTFChars(env, s, chars);
    }
    dropped_exception(env, "Recording.getState");
}

static void sleep_ms(long ms) {
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

static off_t file_size(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? st.st_size : -1;
}

/* Stops the recording: the JDK writes its file. Already stopped (by the JDK's shutdown hook at the JVM's
 * exit, or by JFR.stop): the writer of the file may still be at work, so wait (at most 2 s) until the
 * recording is closed or its file has stopped growing. Then closes it, which frees its repository. */
static void stop_and_close(JNIEnv *env) {
    jmethodID stop = recording_method(env, "stop", "()Z");
    if (stop) (*env)->CallBooleanMethod(env, recording, stop);
    if (dropped_exception(env, "Recording.stop (stopped already)")) {
        char state[32];
        off_t last = -1;
        for (int waited = 0; waited < 2000; waited += 20) {
            state_name(env, state, sizeof(state));
            off_t now = file_size(file);
            if (strcmp(state, "CLOSED") == 0 || (now > 0 && now == last)) break;
            last = now;
            sleep_ms(20);
        }
    }
    jmethodID close_method = recording_method(env, "close", "()V");
    if (close_method) (*env)->CallVoidMethod(env, recording, close_method);
    dropped_exception(env, "Recording.close");
    (*env)->DeleteGlobalRef(env, recording);
    recording = NULL;
}

/* Copies all of 'from' (a JFR file: checked to start with a chunk's magic) into fd at 'at'. */
static int copy_chunks(int from, int fd, uint64_t at, uint64_t *written, char *err, size_t errlen) {
    uint8_t block[65536];
    uint64_t done = 0;
    for (;;) {
        ssize_t got = pread(from, block, sizeof(block), (off_t)done);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            snprintf(err, errlen, "jfrsync: cannot read the JDK's recording: %s", strerror(errno));
            return -1;
        }
        if (got == 0) break;
        if (done == 0 && (got < 4 || memcmp(block, "FLR\0", 4) != 0)) {
            snprintf(err, errlen, "jfrsync: the JDK's recording does not start with a JFR chunk");
            return -1;
        }
        for (ssize_t off = 0; off < got;) {
            ssize_t w = pwrite(fd, block + off, (size_t)(got - off), (off_t)(at + done + (uint64_t)off));
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0) {
                snprintf(err, errlen, "jfrsync: cannot add the JDK's recording: %s", w == 0 ? "no space" : strerror(errno));
                return -1;
            }
            off += w;
        }
        done += (uint64_t)got;
    }
    if (done == 0) {
        snprintf(err, errlen, "jfrsync: the JDK wrote no recording");
        return -1;
    }
    *written = done;
    return 0;
}

int jdk_recording_finish(int fd, uint64_t at, uint64_t *written, char *err, size_t errlen) {
    *written = 0;
    if (!recording) {
        snprintf(err, errlen, "jfrsync: no JDK recording is open");
        return -1;
    }
    bool attached;
    JNIEnv *env = enter(&attached);
    if (env) stop_and_close(env);
    leave(attached);
    int from = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    int rc = -1;
    if (!env) snprintf(err, errlen, "jfrsync: cannot call into the JVM to stop its recording");
    else if (from < 0) snprintf(err, errlen, "jfrsync: the JDK's recording is missing (%s)", strerror(errno));
    else rc = copy_chunks(from, fd, at, written, err, errlen);
    if (from >= 0) close(from);
    remove_files();
    return rc;
}

int jdk_recording_snapshot(uint64_t *size, char *err, size_t errlen) {
    if (!recording) {
        snprintf(err, errlen, "jfrsync: no JDK recording is open");
        return -1;
    }
    char path[1400];
    snprintf(path, sizeof(path), "%s/dump-%u.jfr", dir, snapshots++);
    bool attached;
    JNIEnv *env = enter(&attached);
    int fd = -1;
    if (env) {
        (*env)->PushLocalFrame(env, 16);
        jmethodID dump = recording_method(env, "dump", "(Ljava/nio/file/Path;)V");
        jobject p = dump ? path_object(env, path) : NULL;
        if (p) (*env)->CallVoidMethod(env, recording, dump, p);
        char why[512] = "";
        if (exception_text(env, why, sizeof(why)) || !p) snprintf(err, errlen, "jfrsync: cannot dump the JDK's recording: %s", why);
        else fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        (*env)->PopLocalFrame(env, NULL);
    } else {
        snprintf(err, errlen, "jfrsync: cannot call into the JVM to dump its recording");
    }
    leave(attached);
    unlink(path);
    off_t n = fd >= 0 ? lseek(fd, 0, SEEK_END) : -1;
    if (fd >= 0 && n <= 0) {
        close(fd);
        fd = -1;
        snprintf(err, errlen, "jfrsync: the JDK's dump is empty");
    }
    *size = n > 0 ? (uint64_t)n : 0;
    return fd;
}

void jdk_recording_snapshot_done(int fd) {
    if (fd >= 0) close(fd);
}

void jdk_recording_discard(void) {
    if (!recording) return;
    bool attached;
    JNIEnv *env = enter(&attached);
    if (env) stop_and_close(env);
    leave(attached);
    remove_files();
}
