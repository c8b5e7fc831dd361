# cmocka unit tests (one executable per module under test), fuzz harnesses run over their corpus, and the
# small native programs and JNI libraries the integration tests use. Declared through test/testing.cmake.

# Modules whose code is all in profcore.
foreach(t test_options test_filepath test_traces test_profile test_writers test_names test_sample_cost
    test_out_html test_perf_ring test_method_target test_jfr_encode test_sample_ring test_jfr_read test_u64map
    test_jfr_widths test_jfr_cut test_class_names test_clock_time test_lock_sample
    # GCC clone suffixes in native names, the log's destinations and the files log= takes,
    # output files: devices, FIFOs, links, planted temporary names, modes, failed moves
    # (safe_file, output), jstackdepth bounding the whole recorded stack, full names from the JVM's thread dump.
    test_clone_names test_log test_stack_bound test_thread_dump
    # Every writer states how complete the profile is.
    test_completeness
    # Differential profiles.
    test_profile_diff
    # Source files, lines and recorded time order in the viewer formats.
    test_viewer_lines
    # jfrconv's --classify, --skip, --grain.
    test_profile_reshape
    # The metrics in Prometheus' text format.
    test_out_metrics
    # The agent's background threads stop at once whatever their period (periodic, stoppable_sleep).
    test_periodic)
  libprof_unit_test(${t})
endforeach()
libprof_unit_test(test_safe_file PROPERTIES TIMEOUT 60)
foreach(t test_jfr_read test_jfr_widths test_jfr_cut)   # the JFR reader: jfrconv's library
  target_link_libraries(${t} PRIVATE jfrconv_lib)
endforeach()

# Native symbols and unwind tables. test_native_map checks clone suffixes through frame_names.c,
# the agent's one native resolver.
foreach(t test_elf test_symtab test_demangle test_kallsyms)
  libprof_unit_test(${t} LIBS dl)
endforeach()
libprof_unit_test(test_native_map LIBS dl)
target_sources(test_native_map PRIVATE agent/naming/frame_names.c agent/jvm/jit_stubs.c)
target_include_directories(test_native_map PRIVATE ${JNI_INCLUDES})
# dwarf_chain.c is built without frame pointers on purpose: the DWARF tests must unwind through it, and
# libunwind walks the same chains as an independent oracle (docs/dev/architecture.md says why only there).
pkg_check_modules(LIBUNWIND REQUIRED libunwind)
libprof_unit_test(test_dwarf SOURCES test/native/dwarf_chain.c INCLUDES ${LIBUNWIND_INCLUDE_DIRS}
                  LIBS dl ${LIBUNWIND_LIBRARIES})
set_source_files_properties(test/native/dwarf_chain.c PROPERTIES
  COMPILE_OPTIONS "-fomit-frame-pointer;-fno-optimize-sibling-calls")
# The same chain as shared libraries whose only unwind information is .debug_frame: gcc emits no
# .eh_frame for -fno-asynchronous-unwind-tables -fno-unwind-tables, and -g puts the CFI in .debug_frame;
# without frame pointers nothing else can walk them. _split has its debug information (and so .debug_frame)
# moved into libdwarf_chain_split.so.debug beside it, found through .gnu_debuglink; the library is stripped.
# -Bsymbolic: the chain's calls stay inside the library even in test_dwarf, which has a chain of its own.
foreach(variant only split)
  add_library(dwarf_chain_${variant} SHARED test/native/dwarf_chain.c)
  target_compile_options(dwarf_chain_${variant} PRIVATE -g -fno-asynchronous-unwind-tables -fno-unwind-tables
    -fomit-frame-pointer -fno-optimize-sibling-calls)
  target_link_options(dwarf_chain_${variant} PRIVATE -Wl,-Bsymbolic)
endforeach()
# Moves a library's debug information into <file>.debug beside it, strips it and links the two by
# .gnu_debuglink, as distributions ship their libraries.
function(libprof_split_debug target)
  add_custom_command(TARGET ${target} POST_BUILD WORKING_DIRECTORY $<TARGET_FILE_DIR:${target}>
    COMMAND ${CMAKE_OBJCOPY} --only-keep-debug $<TARGET_FILE_NAME:${target}> $<TARGET_FILE_NAME:${target}>.debug
    COMMAND ${CMAKE_STRIP} --strip-all $<TARGET_FILE_NAME:${target}>
    COMMAND ${CMAKE_OBJCOPY} --add-gnu-debuglink=$<TARGET_FILE_NAME:${target}>.debug $<TARGET_FILE_NAME:${target}>
    VERBATIM)
endfunction()
libprof_split_debug(dwarf_chain_split)
add_dependencies(test_dwarf dwarf_chain_only dwarf_chain_split)
target_compile_definitions(test_dwarf PRIVATE DEBUG_FRAME_ONLY_LIB="$<TARGET_FILE:dwarf_chain_only>"
  DEBUG_FRAME_SPLIT_LIB="$<TARGET_FILE:dwarf_chain_split>")
# The unwind tables' page index (dwarf_index.c): the same rows as a plain binary search, libc and libjvm.
libprof_unit_test(test_dwarf_index)
# The unwind rows remembered per native pc (agent/signal/unwind_cache.c) and native_map_row through them.
libprof_unit_test(test_unwind_cache LIBS pthread dl)
# Thread names: bounded retention of ended threads (threads.c is agent code with no JVM dependency).
libprof_unit_test(test_threads)
# The JVM's own mapped files registered with safe_read (libjvm.so dlopened, not started).
libprof_unit_test(test_vm_images SOURCES agent/jvm/vm_images.c LIBS dl)
if(EXISTS ${JAVA_HOME}/lib/server/libjvm.so)
  target_compile_definitions(test_native_map PRIVATE TEST_LIBJVM="${JAVA_HOME}/lib/server/libjvm.so")
  target_compile_definitions(test_dwarf_index PRIVATE TEST_LIBJVM="${JAVA_HOME}/lib/server/libjvm.so")
  target_compile_definitions(test_vm_images PRIVATE TEST_LIBJVM="${JAVA_HOME}/lib/server/libjvm.so")
endif()
# The fault-tolerant reads: recovery, chaining to the previous handler, each mechanism.
libprof_unit_test(test_safe_fault)
# jfrconv's command line (jfrconv/jfrconv_args.c).
libprof_unit_test(test_jfrconv_args SOURCES jfrconv/jfrconv_args.c INCLUDES jfrconv LIBS jfrconv_lib)

# Fuzz harnesses over their checked-in corpora (small inputs of libFuzzer runs and what they found; see each
# harness's top comment for the libFuzzer build). The ELF harness also reads real ELF files; the JFR corpus
# holds tiny recordings of ours and the JDK's.
libprof_fuzz_test(elf ARGS $<TARGET_FILE:test_elf> $<TARGET_FILE:prof>)
libprof_fuzz_test(options)
libprof_fuzz_test(jfr)
target_link_libraries(fuzz_jfr PRIVATE jfrconv_lib)   # the JFR reader: jfrconv's library

# JNI libraries used by the integration tests: the same chain with and without frame pointers, an
# application that takes SIGPROF, and a library that calls back into Java (cstack=vm).
foreach(variant fp nofp)
  add_library(chain_${variant} SHARED test/native/jni/chain.c)
  target_include_directories(chain_${variant} PRIVATE ${JNI_INCLUDES})
  target_compile_options(chain_${variant} PRIVATE -fno-optimize-sibling-calls -fno-inline)
endforeach()
target_compile_options(chain_nofp PRIVATE -fomit-frame-pointer)
# The chain with .debug_frame as its only unwind information (see dwarf_chain_only above): in the
# library itself (dbgframe), or only in libchain_dbgsplit.so.debug beside the stripped library (dbgsplit).
foreach(variant dbgframe dbgsplit)
  add_library(chain_${variant} SHARED test/native/jni/chain.c)
  target_include_directories(chain_${variant} PRIVATE ${JNI_INCLUDES})
  target_compile_options(chain_${variant} PRIVATE -fno-optimize-sibling-calls -fno-inline -fomit-frame-pointer -g
    -fno-asynchronous-unwind-tables -fno-unwind-tables)
endforeach()
libprof_split_debug(chain_dbgsplit)
add_library(sigprof_app SHARED test/native/jni/sigprof_app.c)
target_include_directories(sigprof_app PRIVATE ${JNI_INCLUDES})
add_library(callback SHARED test/native/jni/callback.c)
target_include_directories(callback PRIVATE ${JNI_INCLUDES})
target_compile_options(callback PRIVATE -fno-optimize-sibling-calls -fno-inline -fomit-frame-pointer)
# Starts a program under a seccomp filter that kills on process_vm_readv (SignalsTest's seccomp_* cases).
add_executable(seccomp_launch test/native/seccomp_launch.c)
# The option table against the three tools that read it: kinds, help, messages.
libprof_unit_test(test_options_table SOURCES jfrconv/jfrconv_args.c attach/jprof_help.c attach/jprof_args.c
  INCLUDES jfrconv attach LIBS jfrconv_lib)

# Native memory and lock profiling: two allocation sites, a leak site, a contended mutex; every
# frame kept (no inlining, no sibling calls).
add_library(nativemem SHARED test/native/jni/nativemem.c)
target_include_directories(nativemem PRIVATE ${JNI_INCLUDES})
target_compile_options(nativemem PRIVATE -fno-optimize-sibling-calls -fno-inline -fno-omit-frame-pointer)
target_link_libraries(nativemem PRIVATE dl pthread)
# Native memory hooks: the table of live sampled allocations and traces_subtract (leak detection),
# and import slot rewriting on the JNI library above (dlopened, no JVM).
libprof_unit_test(test_leak_table)
# The SIGTRAP guard: what the hooked sigaction and signal answer and where a SIGTRAP not ours goes.
libprof_unit_test(test_sigtrap_guard)
# test_got_patch's walks during loads: a library whose GOT holds 3000 relocations besides malloc's (data of
# another library), so that the loader takes long enough relocating it for a walk to meet it half done.
set(relocs_provider "")
set(relocs_heavy "#include <stdlib.h>\n")
set(relocs_sum "")
foreach(i RANGE 2999)
  string(APPEND relocs_provider "int relocs_sym_${i};\n")
  string(APPEND relocs_heavy "extern int relocs_sym_${i};\n")
  string(APPEND relocs_sum "    s += relocs_sym_${i};\n")
endforeach()
string(APPEND relocs_heavy "int relocs_sum(void);\nvoid *relocs_alloc(size_t n);\n"
  "int relocs_sum(void) {\n    int s = 0;\n${relocs_sum}    return s;\n}\n"
  "void *relocs_alloc(size_t n) {\n    return malloc(n);\n}\n")
foreach(name relocs_provider relocs_heavy)
  file(WRITE ${CMAKE_BINARY_DIR}/generated/${name}.c.new "${${name}}")
  configure_file(${CMAKE_BINARY_DIR}/generated/${name}.c.new ${CMAKE_BINARY_DIR}/generated/${name}.c COPYONLY)
endforeach()
add_library(relocs_provider SHARED ${CMAKE_BINARY_DIR}/generated/relocs_provider.c)
add_library(relocs_heavy SHARED ${CMAKE_BINARY_DIR}/generated/relocs_heavy.c)
target_compile_options(relocs_heavy PRIVATE -fno-plt)
target_link_options(relocs_heavy PRIVATE -Wl,-z,now -Wl,-z,relro)
target_link_libraries(relocs_heavy PRIVATE relocs_provider)

libprof_unit_test(test_got_patch SOURCES agent/hooks/got_patch.c agent/hooks/got_scope.c agent/hooks/page_protection.c LIBS dl pthread)
target_compile_definitions(test_got_patch PRIVATE TEST_NATIVEMEM_LIB="$<TARGET_FILE:nativemem>"
  TEST_RELOCS_HEAVY_LIB="$<TARGET_FILE:relocs_heavy>")
add_dependencies(test_got_patch nativemem relocs_heavy)

# The signal path's cache of compiled pcs: hit, miss, eviction, never a stale or mixed chain.
libprof_unit_test(test_pc_cache LIBS pthread)
# The walker's per-walk memo of the nmethods it met: found by code range, the oldest replaced.
libprof_unit_test(test_nmethod_memo)

# docs/options.md documents exactly the option table's agent options, jprof flags and jfrconv flags.
libprof_unit_test(test_docs_options)
target_compile_definitions(test_docs_options PRIVATE DOCS_OPTIONS_MD="${CMAKE_SOURCE_DIR}/docs/options.md")
libprof_unit_test(test_timed_outputs)   # heatmap cells, span labels and markers
