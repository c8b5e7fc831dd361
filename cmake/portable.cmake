# Two ways to link what the programs need beyond libc.
#
# The developer build (default): __cxa_demangle from libstdc++'s runtime, named by its soname so that the
# build needs only what the gcc package brings (no g++); zlib from the system, linked as needed only:
# programs that write no pprof must not load it (test_native_map dlopens libz itself to watch a library
# appear, and the sanitizer build links without --as-needed by default).
#
# LIBPROF_PORTABLE=ON (./build.sh dist, built inside an old Debian root; docs/install.md): binaries that need
# nothing beyond libc, libm, libdl, libpthread and librt. The demangler is GCC's own, taken from the static
# libsupc++ (g++'s package): of that archive only cp-demangle.o is pulled in, which calls nothing but libc
# (malloc family, memcpy, sprintf, strcmp, strlen), so no C++ runtime, exception handling or libstdc++ comes
# along; GCC's runtime library exception allows shipping it linked into any program. Writing our own Itanium
# demangler would be thousands of lines to get the same names the JDK's tools and perf print. zlib comes
# from its static archive (position-independent in Debian), libgcc statically. The glibc functions newer
# than 2.17 that the code calls are replaced at link time (--wrap) by agent/util/glibc_compat.c; the build
# happens in a root whose glibc (2.31) already binds everything else to versions 2.17 has, which
# test/release/check_portable.sh verifies on the tarball.
option(LIBPROF_PORTABLE "link for shipping: static demangler, zlib and libgcc, glibc 2.17 symbols" OFF)
if(LIBPROF_PORTABLE)
  add_compile_definitions(LIBPROF_PORTABLE)   # agent/util/glibc_compat.c defines its stand-ins
  set(LIBPROF_RUNTIME_LIBS -l:libsupc++.a)
  set(LIBPROF_ZLIB_LIBS -l:libz.a)
  add_link_options(-static-libgcc -Wl,--wrap=getrandom,--wrap=fmemopen)
else()
  set(LIBPROF_RUNTIME_LIBS -l:libstdc++.so.6)
  set(LIBPROF_ZLIB_LIBS "-Wl,--push-state,--as-needed" z "-Wl,--pop-state")
endif()
# GCC 10 (the old root's compiler) reads a bounded snprintf into a buffer sized at run time as a likely
# truncation where GCC 12 does not; the newer compiler's check stays on for the developer build.
if(CMAKE_C_COMPILER_ID STREQUAL GNU AND CMAKE_C_COMPILER_VERSION VERSION_LESS 11)
  add_compile_options(-Wno-format-truncation)
endif()
