/*
 * vm_images: the JVM's own mapped files, libjvm.so and its class data sharing archives (*.jsa), stay mapped
 * in place for as long as the VM runs: HotSpot never unloads itself, and an archive it cannot use is
 * released during start-up, before a profiler can start. Their readable mappings are registered with
 * safe_read, so that the vm walker reads method metadata in the archive and code blob names in libjvm.so
 * without a system call per read.
 */
#ifndef LIBPROF_VM_IMAGES_H
#define LIBPROF_VM_IMAGES_H

/* Reads /proc/self/maps once per process (outside signal handlers); later calls do nothing. Returns how
 * many regions were registered by this call, -1 when the maps cannot be read. */
int vm_images_register(void);

/* True for a mapped file the VM keeps for its life: a path ending in "/libjvm.so" or ".jsa". */
int vm_images_is_vm_file(const char *path);

#endif
