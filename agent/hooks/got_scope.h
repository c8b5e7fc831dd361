/*
 * got_scope: where an object's lazy import slots would bind, as far as got_patch must know it to keep a
 * family of functions (an allocator's malloc, realloc, free...; the lock and unlock of a mutex) whole. A slot
 * not called yet holds the object's own stub, which says nothing: an object loaded with RTLD_DEEPBIND binds
 * it to the first definition in its own dependencies, one in a dlmopen namespace to that namespace's. So a
 * family is hooked in an object only where the answer is the process's definition whatever the object's
 * flags: the object is in the base namespace and neither it nor any object of its own lookup scope (its
 * dependencies, transitively, the C library and the loader excepted) defines a member of the family.
 *
 * Reads only what the loader has mapped (dynamic sections, symbol hash tables, its list of the base
 * namespace); call it inside dl_iterate_phdr, whose lock keeps that list still. Not signal-safe.
 */
#ifndef LIBPROF_GOT_SCOPE_H
#define LIBPROF_GOT_SCOPE_H

#include <link.h>
#include <stdbool.h>

/* Whether the object whose dynamic section is at 'dyn', loaded at 'base', binds every name of 'family' (a
 * NULL-terminated list) to the process's definitions. */
bool got_scope_binds_globally(const ElfW(Dyn) *dyn, ElfW(Addr) base, const char *const *family);

#endif
