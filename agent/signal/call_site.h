/*
 * [signal-safe] call_site: the registers of a function's caller, read from the function's own frame, for a
 * walk that starts where the function was called (sample.h: sample_call_site). Every function that uses it
 * keeps a frame pointer: the build uses -fno-omit-frame-pointer, and __builtin_frame_address makes the
 * compiler keep one anyway. The caller's sp is right above the frame record on x86_64; on aarch64 the
 * record is at the bottom of the function's frame, so the caller's sp is the function's CFA.
 */
#ifndef LIBPROF_CALL_SITE_H
#define LIBPROF_CALL_SITE_H

#include "arch.h"
#include "sample.h"

#if ARCH_HOTSPOT_X86_CODE
#define CALL_SITE_SP_(frame) ((uintptr_t)((frame) + 2))
#else
#define CALL_SITE_SP_(frame) ((void)(frame), (uintptr_t)__builtin_dwarf_cfa())
#endif

/* The site of the call of the enclosing function, with 'leaf' (a native pc, or 0) to put on top. Use it in
 * the function itself, or in an always_inline helper of it. */
#define CALL_SITE_OF_CALLER(leaf)                                                                            \
    ({                                                                                                       \
        const uintptr_t *frame_ = __builtin_frame_address(0);                                                \
        (sample_call_site){frame_[1], CALL_SITE_SP_(frame_), frame_[0], (uint64_t)(uintptr_t)(leaf)};         \
    })

#endif
