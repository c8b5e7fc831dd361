/*
 * loaded_object: an object the dynamic loader has mapped, found by its file name among all the process's
 * objects (dl_iterate_phdr), and a symbol of its own. A native host may load libjvm with dlopen RTLD_LOCAL:
 * its symbols are then in no global scope, so dlsym(RTLD_DEFAULT) does not see them, though the object is
 * there. Outside signal handlers.
 */
#ifndef LIBPROF_LOADED_OBJECT_H
#define LIBPROF_LOADED_OBJECT_H

#include <stdbool.h>
#include <stddef.h>

/* True when an object whose file name is 'base' (a path's last part, "libjvm.so") is loaded; its path goes
 * to 'path' when not NULL. */
bool loaded_object_find(const char *base, char *path, size_t len);

/* The address of 'symbol' in the global scope, else in the loaded object named 'base'; NULL when neither
 * defines it. */
void *loaded_object_symbol(const char *base, const char *symbol);

#endif
