/*
 * vm_images: the JVM's own mapped files, libjvm.so and its class data sharing archives (*.jsa), stay mapped
 * in place for as long as the VM runs: HotSpot never unloads itself, and an archive it cannot use is
 * released during start-up, before a profiler can start. Their readable mappings are registered with
 * safe_read, so that the vm walker reads method metadata in the archive and code blob names in libjvm.so
 * without a system call per read. One exception: with G1, an archive's Java objects are mapped from the
 * .jsa file straight into the Java heap, where the collector may later free and uncommit those regions;
 * mappings inside the heap's reserved range are therefore never registered, and without that range no
 * archive mapping is.
 */
#ifndef LIBPROF_VM_IMAGES_H
#define LIBPROF_VM_IMAGES_H

#include <stdbool.h>
#include <stdint.h>

/* Reads /proc/self/maps once per process (outside signal handlers); later calls do nothing. [heap_low,
 * heap_high) is the Java heap's reserved range, both 0 when unknown. Returns how many regions were
 * registered by this call, -1 when the maps cannot be read. */
int vm_images_register(uintptr_t heap_low, uintptr_t heap_high);

/* Whether a readable mapping of 'path' at [lo, hi) stays so while the VM runs: libjvm.so's, and a
 * ".jsa" archive's outside the Java heap [heap_low, heap_high) when that range is known. */
bool vm_images_permanent(const char *path, uintptr_t lo, uintptr_t hi, uintptr_t heap_low, uintptr_t heap_high);

#endif
