#define _GNU_SOURCE
#include "frame_names.h"

#include "class_names.h"
#include "codeblob.h"
#include "codeheap.h"
#include "demangle.h"
#include "jit_stubs.h"
#include "jvm.h"
#include "kallsyms.h"
#include "native_hooks.h"
#include "native_map.h"
#include "receiver_class.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#define NATIVE_NAME_MAX 1024

void frame_names_native(uintptr_t pc, bool lib, char *name, size_t len, bool *cpp) {
    Dl_info info = {0};
    int found = 0;
    const char *library = NULL;
    if (cpp) *cpp = false;
    if (native_map_name(pc, name, len, &library)) {
        /* named from the object's symbol tables (demangled), or its file name alone; without the symbol
         * version ("clock_gettime@@GLIBC_2.17"), which no C or C++ name contains */
        char *version = strchr(name, '@');
        if (version && version != name) *version = 0;
        demangle_strip_clones(name);
        if (cpp) *cpp = (library && strncmp(library, "libjvm", 6) == 0) || strstr(name, "::") != NULL;
        if (lib && library && strcmp(name, library) != 0) {
            char symbol[1024];
            snprintf(symbol, sizeof(symbol), "%s", name);
            size_t used = (size_t)snprintf(name, len, "%s`", library);
            if (used < len) snprintf(name + used, len - used, "%.*s", (int)(len - used - 1), symbol);
        }
    } else if (codeheap_contains(pc) && (jit_stubs_name(pc, name, len) || codeblob_name_at(pc, name, len))) {
        /* a JIT stub the sample landed in (cstack=vm): its name from JVMTI, else its code blob's */
    } else if ((found = dladdr((void *)pc, &info)) && info.dli_sname) {
        snprintf(name, len, "%s", info.dli_sname);
        demangle_strip_clones(name);
    } else if (found && info.dli_fname) {
        const char *base = strrchr(info.dli_fname, '/');
        snprintf(name, len, "[%s+0x%llx]", base ? base + 1 : info.dli_fname,
                 (unsigned long long)(pc - (uintptr_t)info.dli_fbase));
    } else {
        snprintf(name, len, "[0x%llx]", (unsigned long long)pc);
    }
}

/* kallsyms is read at the first use; the dump and JFR paths are serialised by the profiler's lock or run
 * on the one writer thread. */
void frame_names_kernel(uint64_t addr, char *name, size_t len) {
    static bool loaded;
    if (!loaded) {
        kallsyms_load("/proc/kallsyms");
        loaded = true;
    }
    const char *symbol = kallsyms_available() ? kallsyms_find(addr) : NULL;
    if (symbol) {
        snprintf(name, len, "%.256s", symbol);
        demangle_strip_clones(name);   /* the kernel's GCC makes .isra/.cold copies too */
    } else snprintf(name, len, "[kernel 0x%llx]", (unsigned long long)addr);
}

frame_type frame_names_java_type(int kind) {
    switch (kind) {
    case FRAME_JAVA_INTERPRETED: return FTYPE_INTERPRETED;
    case FRAME_JAVA_C1: return FTYPE_C1;
    case FRAME_JAVA_JIT: return FTYPE_JIT;
    case FRAME_JAVA_INLINED: return FTYPE_INLINED;
    default: return FTYPE_JAVA;
    }
}

frame_type frame_names_get(const trace_frame *f, names_style style, bool lib, char *name, size_t len, bool *cpp) {
    if (cpp) *cpp = false;
    if (frame_kind_is_java(f->kind) && f->id) {
        frame_type type = frame_names_java_type(f->kind);
        const char *suffix = frame_type_java_suffix(type);
        names_style plain = style;
        plain.ann = false;
        size_t room = style.ann && len > 8 ? len - strlen(suffix) : len;
        if (jvm_method_name((jmethodID)(uintptr_t)f->id, plain, name, room) != 0)
            snprintf(name, room, "%s", FRAME_NAMES_UNKNOWN_METHOD);
        if (style.ann && room < len) strcat(name, suffix);
        return type;
    }
    if (f->kind == FRAME_NATIVE) {
        const char *hook = native_hooks_leaf_name((uintptr_t)f->id);
        if (hook) {
            snprintf(name, len, "%s", hook);
            return FTYPE_NATIVE;
        }
        /* bounded alike in every output, so that a long C++ name is cut at the same place everywhere */
        frame_names_native((uintptr_t)f->id, lib, name, len < NATIVE_NAME_MAX ? len : NATIVE_NAME_MAX, cpp);
        return FTYPE_NATIVE;
    }
    if (f->kind == FRAME_KERNEL) {
        static const char annotation[] = "_[k]";
        frame_names_kernel(f->id, name, len > sizeof(annotation) ? len - sizeof(annotation) + 1 : len);
        if (style.ann && len > sizeof(annotation)) strcat(name, annotation);
        return FTYPE_KERNEL;
    }
    if (frame_kind_is_class(f->kind)) {
        /* Spelled as async-profiler spells them: the Java name, dotted whatever the style ("int[]",
         * "java.lang.String"), "_[k]" for allocations outside a TLAB and "_[i]" for the others with ann. */
        const char *suffix = frame_class_suffix(f->kind);
        const char *signature = class_names_signature((uint32_t)f->id);
        size_t room = len > strlen(suffix) + 1 ? len - strlen(suffix) : len;
        class_names_java_name(signature ? signature : "[unknown_class]", name, room);
        if (style.ann && room < len) strcat(name, suffix);
        return FTYPE_CLASS;
    }
    if (f->kind == FRAME_RECEIVER_CLASS) {
        /* As async-profiler spells a receiver's class: the Java name, dotted, and "_[i]" unless the style is
         * dotted throughout (dot), where the suffix would read as part of the name. */
        char internal[512];
        size_t room = len > 5 ? len - 4 : len;
        if (receiver_class_text((uintptr_t)f->id, internal + 1, sizeof(internal) - 2)) {
            internal[0] = 'L';
            strcat(internal, ";");
            class_names_java_name(internal, name, room);
        } else {
            snprintf(name, room, "[unknown_class]");
        }
        if (!style.dot && room < len) strcat(name, "_[i]");
        return FTYPE_CLASS;
    }
    if (f->kind == FRAME_CPU) {
        snprintf(name, len, "[CPU-%u]", (unsigned)f->id);
        return FTYPE_MARKER;
    }
    const char *marker = f->kind == FRAME_MARKER ? frame_marker_name((int)f->id) : NULL;
    snprintf(name, len, "%s", marker ? marker : "[unknown]");
    return FTYPE_MARKER;
}
