/*
 * walk_vm_check: the start-up half of walk_vm, outside signal handlers. walk_vm reads a jmethodID as a
 * pointer to the slot holding its Method* (true of HotSpot for JDK 8 to 25, but no interface promises it);
 * this proves it on java.lang.Thread.run before the mode is used: from the Method* read through the
 * jmethodID, the VM's own tables lead back (Method -> ConstMethod -> ConstantPool -> InstanceKlass ->
 * its jmethodID cache at the method's idnum) to the same jmethodID.
 */
#include "walk_vm.h"
#include "walk_vm_check.h"

#include "arch.h"
#include "codeblob.h"
#include "codeblob_init.h"
#include "deopt_frames_init.h"
#include "compile_task_init.h"
#include "receiver_class_init.h"
#include "jvm.h"
#include "log.h"
#include "nmethod_scopes_init.h"
#include "safe_read.h"
#include "vm_images.h"
#include "vmstructs.h"

#include <stdio.h>

static bool field_at(uintptr_t base, const char *type, const char *name, int64_t *out, char *err, size_t errlen) {
    uint64_t offset;
    unsigned width;
    if (!vmstructs_field(type, name, &offset, &width)) {
        snprintf(err, errlen, "this JVM does not describe %s::%s", type, name);
        return false;
    }
    if (!codeblob_read_field(base + offset, width, out)) {
        snprintf(err, errlen, "cannot read %s::%s at %#lx", type, name, (unsigned long)(base + offset));
        return false;
    }
    return true;
}

static int check_method_id(jmethodID id, char *err, size_t errlen) {
    uintptr_t method;
    int64_t const_method, constants, holder, idnum, ids, back;
    if (!safe_read_word((uintptr_t)id, &method) || !method)
        return snprintf(err, errlen, "a jmethodID does not point to a Method*"), -1;
    if (!field_at(method, "Method", "_constMethod", &const_method, err, errlen) ||
        !field_at((uintptr_t)const_method, "ConstMethod", "_constants", &constants, err, errlen) ||
        !field_at((uintptr_t)const_method, "ConstMethod", "_method_idnum", &idnum, err, errlen) ||
        !field_at((uintptr_t)constants, "ConstantPool", "_pool_holder", &holder, err, errlen) ||
        !field_at((uintptr_t)holder, "InstanceKlass", "_methods_jmethod_ids", &ids, err, errlen))
        return -1;
    /* The cache's first word is its length; the jmethodID of idnum i is at i + 1. */
    if (!ids || !safe_read_word((uintptr_t)ids + ((uintptr_t)(idnum & 0xFFFF) + 1) * sizeof(uintptr_t), (uintptr_t *)&back) ||
        (uintptr_t)back != (uintptr_t)id)
        return snprintf(err, errlen, "a jmethodID's Method* does not lead back to it"), -1;
    return 0;
}

/* The fields walk_vm follows from a Method* to name frames itself. Missing ones only disable that (the
 * walk then takes Java frames from AsyncGetCallTrace), logged. */
static void set_layout(void) {
    char why[256];
    if (nmethod_scopes_init(why, sizeof(why)))
        log_info("vm walker: compiled frames cannot be named from their debug information (%s)", why);
    walk_vm_layout l = {0};
    unsigned width;
    if (!vmstructs_field("Method", "_constMethod", &l.const_method, &width) ||
        !vmstructs_field("ConstMethod", "_constants", &l.constants, &width) ||
        !vmstructs_field("ConstMethod", "_method_idnum", &l.idnum, &l.idnum_width) ||
        !vmstructs_field("ConstMethod", "_code_size", &l.code_size, &l.code_size_width) ||
        !vmstructs_field("ConstantPool", "_pool_holder", &l.pool_holder, &width) ||
        !vmstructs_field("InstanceKlass", "_methods_jmethod_ids", &l.jmethod_ids, &width) ||
        !vmstructs_type_size("ConstMethod", &l.const_method_size) || !l.idnum_width || !l.code_size_width) {
        log_info("vm walker: this JVM does not describe the way from a Method* to its jmethodID and bytecodes");
        return;
    }
    /* Not exported: the interpreter frame keeps the bytecode pointer a fixed number of words below the
     * Method* (arch.h); a bcp outside the method's code gives bci 0. */
    l.interp_bcp_slot = codeblob_interp_method_slot() - ARCH_HOTSPOT_INTERP_BCP_BELOW_METHOD;
    if (!vmstructs_field("Method", "_access_flags", &l.access_flags, &l.access_flags_width)) l.access_flags_width = 0;
    walk_vm_set_layout(&l);
    if (!deopt_frames_init())
        log_info("vm walker: this JVM does not describe its deoptimisation in progress: those samples end in a marker");
    char reason[160];
    if (!receiver_class_init(reason, sizeof(reason)))
        log_info("vm walker: no receiver classes for features=vtable: %s", reason);
    if (!compile_task_init(reason, sizeof(reason))) log_info("vm walker: no compile tasks for features=comptask: %s", reason);
}

/* The Java heap's reserved range (Universe::_collectedHeap->_reserved), read outside handlers from the live
 * VM; false when this JVM does not describe it. */
static bool java_heap_range(uintptr_t *low, uintptr_t *high) {
    void *heap_at;
    uint64_t reserved, start, words;
    if (!vmstructs_static_address("Universe", "_collectedHeap", &heap_at) ||
        !vmstructs_field_offset("CollectedHeap", "_reserved", &reserved) ||
        !vmstructs_field_offset("MemRegion", "_start", &start) ||
        !vmstructs_field_offset("MemRegion", "_word_size", &words))
        return false;
    const char *heap = *(const char *const *)heap_at;
    if (!heap) return false;
    *low = *(const uintptr_t *)(heap + reserved + start);
    *high = *low + *(const uintptr_t *)(heap + reserved + words) * sizeof(uintptr_t);
    return *high > *low;
}

int walk_vm_check(char *err, size_t errlen) {
    if (!ARCH_HAS_VM_WALKER) return snprintf(err, errlen, "HotSpot's " ARCH_NAME " frames are not read yet"), -1;
    if (codeblob_init(err, errlen)) return -1;
    uintptr_t heap_low = 0, heap_high = 0;
    if (!java_heap_range(&heap_low, &heap_high)) {
        heap_low = heap_high = 0;
        log_debug("vm walker: the Java heap's range is not described: CDS archive reads stay checked");
    }
    int images = vm_images_register(heap_low, heap_high);
    if (images < 0) log_debug("vm walker: /proc/self/maps unreadable: reads of libjvm.so and CDS data are checked");
    else if (images > 0) log_debug("vm walker: %d mapped regions of libjvm.so and CDS archives read directly", images);
    JNIEnv *jni = NULL;
    JavaVM *vm = jvm_vm();
    if (!vm || (*vm)->GetEnv(vm, (void **)&jni, JNI_VERSION_1_6) != JNI_OK || !jni)
        return snprintf(err, errlen, "no JNI environment to check jmethodIDs with"), -1;
    jclass thread = (*jni)->FindClass(jni, "java/lang/Thread");
    jmethodID run = thread ? (*jni)->GetMethodID(jni, thread, "run", "()V") : NULL;
    if ((*jni)->ExceptionCheck(jni)) (*jni)->ExceptionClear(jni);
    if (thread) (*jni)->DeleteLocalRef(jni, thread);
    if (!run) return snprintf(err, errlen, "java.lang.Thread.run not found"), -1;
    if (check_method_id(run, err, errlen)) return -1;
    set_layout();
    return 0;
}
