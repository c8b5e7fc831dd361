/*
 * compile_task_init: finds what signal/compile_task reads (compile_task.h): the ranges of
 * Compiler::compile_method and C2Compiler::compile_method from libjvm's symbol table, the offsets from the
 * VM structure tables.
 */
#define _GNU_SOURCE
#include "compile_task_init.h"

#include "compile_task.h"
#include "native_map.h"
#include "vmstructs.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

/* The compile_method functions of C1 and C2, as the C++ compiler names them. */
static const char *const entries[COMPILE_TASK_ENTRIES] = {
    "_ZN8Compiler14compile_methodEP5ciEnvP8ciMethodibP12DirectiveSet",
    "_ZN10C2Compiler14compile_methodEP5ciEnvP8ciMethodibP12DirectiveSet",
};

/* [low, high) of the function 'name' in o, at run-time addresses; false when o has no such symbol. */
static bool function_range(const native_object *o, const char *name, uintptr_t *low, uintptr_t *high) {
    uint64_t start, offset;
    if (!o->symbols || !symtab_lookup_name(o->symbols, name, &start)) return false;
    uint64_t end = start;
    /* The symbol table gives the containing symbol of an address: the function ends where that changes. */
    for (const char *s; end - start < (1u << 20) && (s = symtab_find(o->symbols, end, &offset)) &&
                        strcmp(s, name) == 0 && offset == end - start;
         end++) {
    }
    if (end == start) return false;
    *low = (uintptr_t)start + o->bias;
    *high = (uintptr_t)end + o->bias;
    return true;
}

bool compile_task_init(char *err, size_t errlen) {
    compile_task_layout l = {0};
    void *list_at;
    if (!vmstructs_static_address("ThreadsSMRSupport", "_java_thread_list", &list_at) || !list_at ||
        !vmstructs_field_offset("ThreadsList", "_length", &l.list_length) ||
        !vmstructs_field_offset("ThreadsList", "_threads", &l.list_threads) ||
        !(vmstructs_field_offset("JavaThread", "_osthread", &l.osthread) ||
          vmstructs_field_offset("Thread", "_osthread", &l.osthread)) ||
        !vmstructs_field_offset("OSThread", "_thread_id", &l.os_tid) ||
        !vmstructs_field_offset("CompilerThread", "_env", &l.thread_env) ||
        !vmstructs_field_offset("ciEnv", "_task", &l.env_task) ||
        !vmstructs_field_offset("CompileTask", "_method", &l.task_method)) {
        snprintf(err, errlen, "the JVM does not describe its compile tasks");
        return false;
    }
    l.thread_list_at = (uintptr_t)list_at;
    void *in_jvm = dlsym(RTLD_DEFAULT, "JNI_GetCreatedJavaVMs");
    const native_object *jvm = in_jvm ? native_map_lookup((uintptr_t)in_jvm) : NULL;
    int found = 0;
    for (int i = 0; jvm && i < COMPILE_TASK_ENTRIES; i++) {
        if (function_range(jvm, entries[i], &l.entry_low[found], &l.entry_high[found])) found++;
    }
    if (!found) {
        snprintf(err, errlen, "libjvm's symbol table has no compile_method");
        return false;
    }
    compile_task_set_layout(&l);
    return true;
}
