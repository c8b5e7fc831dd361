/*
 * demangle: C++ symbol names made readable, through libstdc++'s __cxa_demangle (the maintained Itanium ABI
 * demangler every Debian gcc ships) rather than a demangler of our own. Dump path only: it allocates.
 *
 * Which form the profile shows: demangle_function, without the parameter list
 * ("CompileBroker::compiler_thread_loop"), as async-profiler users expect and because overloads of one
 * function then merge into one frame. demangle gives the full form for whoever needs it.
 */
#ifndef LIBPROF_DEMANGLE_H
#define LIBPROF_DEMANGLE_H

#include <stdbool.h>
#include <stddef.h>

/* _ZN13CompileBroker20compiler_thread_loopEv -> "CompileBroker::compiler_thread_loop()". False (out
 * untouched) when the name is not a mangled C++ name or the demangler refuses it; a result longer than
 * outlen is truncated. */
bool demangle(const char *mangled, char *out, size_t outlen);

/* The same without the parameter list and the qualifiers after it (const, &, noexcept):
 * "CompileBroker::compiler_thread_loop". Template arguments and, for function templates, the return type
 * the demangler puts in front stay; a GCC clone suffix stays too ("f [clone .cold]"): see
 * demangle_strip_clones. */
bool demangle_function(const char *mangled, char *out, size_t outlen);

/* Removes the parameter list from a demangled name in place (what demangle_function applies). */
void demangle_strip_params(char *name);

/* Removes GCC's clone suffixes in place, so that every copy GCC made of a function is named as the
 * function: "jni_invoke_static [clone .constprop.1]" -> "jni_invoke_static" (demangled C++), and
 * "deflate_slow.isra.0.cold" -> "deflate_slow" (plain C). Recognised pieces: .isra .part .cold .constprop
 * .lto_priv .localalias .clone, each optionally numbered. Other names are left alone. */
void demangle_strip_clones(char *name);

#endif
