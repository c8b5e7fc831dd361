/*
 * [signal-safe] receiver_class: the class of the receiver of a virtual or interface call that a sample
 * caught in HotSpot's vtable or itable stub (features=vtable, as async-profiler adds it).
 *
 * The stubs take the receiver in the first Java argument register (rsi on x86_64, x1 on aarch64) and load
 * its klass from the object's header, as the walker does here with safe reads: the klass word at
 * oopDesc::_metadata (a narrowKlass, base + (value << shift), with compressed class pointers), then
 * Klass::_name, a Symbol whose text (_length bytes at _body) is the class's internal name. The sample keeps
 * the Symbol's address; the dump reads its text, again with safe reads, since a class may have been unloaded.
 * Every offset comes from the VM structure tables (receiver_class_init.c, outside handlers).
 */
#ifndef LIBPROF_RECEIVER_CLASS_H
#define LIBPROF_RECEIVER_CLASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    bool compressed;            /* UseCompressedClassPointers: the klass word is a 32-bit narrowKlass */
    uint64_t klass_offset;      /* oopDesc::_metadata._compressed_klass or _metadata._klass */
    uintptr_t narrow_base;      /* CompressedKlassPointers' base and shift */
    int narrow_shift;
    uint64_t klass_name;        /* Klass::_name (Symbol*) */
    uint64_t symbol_length;     /* Symbol::_length (u2) */
    uint64_t symbol_body;       /* Symbol::_body */
} receiver_class_layout;

/* Outside handlers, once; without it receiver_class_symbol finds nothing. */
void receiver_class_set_layout(const receiver_class_layout *layout);
bool receiver_class_ready(void);

/* The Symbol naming the class of the object at 'oop', 0 when it cannot be read. Async-signal-safe. */
uintptr_t receiver_class_symbol(uintptr_t oop);

/* The text of a class name Symbol into buf (at most len - 1 bytes, NUL-ended): its length, or 0 when the
 * symbol cannot be read or holds no class name. Safe reads: usable anywhere. */
size_t receiver_class_text(uintptr_t symbol, char *buf, size_t len);

#endif
