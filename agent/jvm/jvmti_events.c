#include "jvmti_events.h"

#include "class_names.h"
#include "jvm.h"

#include <stdio.h>
#include <string.h>

static bool capability_set(const jvmtiCapabilities *c, jvmti_events_capability cap) {
    return cap == JVMTI_CAP_SAMPLED_ALLOC ? c->can_generate_sampled_object_alloc_events : c->can_generate_monitor_events;
}

int jvmti_events_add_capability(jvmti_events_capability cap, const char *what, char *err, size_t errlen) {
    jvmtiEnv *jvmti = jvm_jvmti();
    if (!jvmti) {
        snprintf(err, errlen, "%s: no JVMTI environment", what);
        return -1;
    }
    jvmtiCapabilities have, potential, want;
    memset(&have, 0, sizeof(have));
    memset(&potential, 0, sizeof(potential));
    memset(&want, 0, sizeof(want));
    (*jvmti)->GetCapabilities(jvmti, &have);
    if (capability_set(&have, cap)) return 0;
    (*jvmti)->GetPotentialCapabilities(jvmti, &potential);
    const char *needs = cap == JVMTI_CAP_SAMPLED_ALLOC ? "JVMTI allocation sampling (JDK 11 or later)"
                                                       : "JVMTI monitor events";
    if (!capability_set(&potential, cap)) {
        /* HotSpot gives allocation sampling to one JVMTI environment at a time: on JDK 11+ another agent
         * (another copy of this library, another profiler) holds it until it relinquishes it. */
        jint version = 0;
        (*jvmti)->GetVersionNumber(jvmti, &version);
        bool held = cap == JVMTI_CAP_SAMPLED_ALLOC && ((version >> 16) & 0x0fff) >= 11;
        if (held)
            snprintf(err, errlen, "%s: another JVMTI agent in this JVM holds allocation sampling (the JVM gives it to "
                     "one agent at a time); stop its allocation profiling first", what);
        else snprintf(err, errlen, "%s: this JVM does not offer %s", what, needs);
        return -1;
    }
    if (cap == JVMTI_CAP_SAMPLED_ALLOC) want.can_generate_sampled_object_alloc_events = 1;
    else want.can_generate_monitor_events = 1;
    jvmtiError e = (*jvmti)->AddCapabilities(jvmti, &want);
    if (e != JVMTI_ERROR_NONE) {
        snprintf(err, errlen, "%s: JVMTI refused %s (error %d)", what, needs, (int)e);
        return -1;
    }
    return 0;
}

void jvmti_events_relinquish_capability(jvmti_events_capability cap) {
    jvmtiEnv *jvmti = jvm_jvmti();
    if (!jvmti) return;
    jvmtiCapabilities have, drop;
    memset(&have, 0, sizeof(have));
    memset(&drop, 0, sizeof(drop));
    if ((*jvmti)->GetCapabilities(jvmti, &have) != JVMTI_ERROR_NONE || !capability_set(&have, cap)) return;
    if (cap == JVMTI_CAP_SAMPLED_ALLOC) drop.can_generate_sampled_object_alloc_events = 1;
    else drop.can_generate_monitor_events = 1;
    (*jvmti)->RelinquishCapabilities(jvmti, &drop);
}

int jvmti_events_enable(jvmtiEvent event, bool on, const char *what, char *err, size_t errlen) {
    jvmtiEnv *jvmti = jvm_jvmti();
    jvmtiError e = jvmti ? (*jvmti)->SetEventNotificationMode(jvmti, on ? JVMTI_ENABLE : JVMTI_DISABLE, event, NULL)
                         : JVMTI_ERROR_NOT_AVAILABLE;
    if (e == JVMTI_ERROR_NONE) return 0;
    snprintf(err, errlen, "%s: JVMTI cannot %s event %d (error %d)", what, on ? "enable" : "disable", (int)event, (int)e);
    return -1;
}

uint32_t jvmti_events_class_id(jvmtiEnv *jvmti, jclass klass) {
    char *sig = NULL;
    if (!klass || (*jvmti)->GetClassSignature(jvmti, klass, &sig, NULL) != JVMTI_ERROR_NONE || !sig) return 0;
    uint32_t id = class_names_intern(sig);
    (*jvmti)->Deallocate(jvmti, (unsigned char *)sig);
    return id;
}
