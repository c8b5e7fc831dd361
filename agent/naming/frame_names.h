/*
 * frame_names: the one frame resolver: the name of a recorded frame, as every output spells it. The
 * text outputs (through named_profile) and the JFR writer's constant pools both call it, so a stack reads
 * the same in every format. Java methods through JVMTI, native pcs through the objects' symbol tables,
 * kernel addresses through /proc/kallsyms, markers by their names. Dump path only (not for handlers).
 */
#ifndef LIBPROF_FRAME_NAMES_H
#define LIBPROF_FRAME_NAMES_H

#include "frame.h"
#include "names.h"
#include "profile.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The name of a Java frame whose method JVMTI no longer knows (its class was unloaded). */
#define FRAME_NAMES_UNKNOWN_METHOD "[unknown_method]"

/* Names frame f into name and returns its type. Java methods are spelled by 'style', with style.ann
 * their type's suffix (_[0] interpreted, _[1] C1, _[j] JIT or unknown, _[i] inlined); kernel frames get
 * "_[k]" with style.ann; native symbols get their "lib`" prefix with 'lib'. *cpp (may be NULL) is set for
 * libjvm frames and demangled C++ functions. */
frame_type frame_names_get(const trace_frame *f, names_style style, bool lib, char *name, size_t len, bool *cpp);

/* The frame type of a Java frame kind (frame.h): FTYPE_JAVA when the kind does not say. */
frame_type frame_names_java_type(int kind);

/* Names pc from the object's symbol tables (demangled, no symbol version; "lib`name" with 'lib'), else
 * the dynamic linker's view, else "[0x...]". *cpp as above. */
void frame_names_native(uintptr_t pc, bool lib, char *name, size_t len, bool *cpp);

/* Names a kernel address from /proc/kallsyms (loaded on first use), else "[kernel 0x...]". No "_[k]". */
void frame_names_kernel(uint64_t addr, char *name, size_t len);

#endif
