# cmocka unit tests: one executable per module under test.
find_package(PkgConfig REQUIRED)
pkg_check_modules(CMOCKA REQUIRED cmocka)

set(UNIT_TESTS test_options test_filepath test_traces test_profile test_writers test_names test_sample_cost
    test_out_html test_perf_ring test_method_target test_jfr_encode test_sample_ring test_jfr_read test_u64map
    test_jfr_widths test_jfr_cut)
foreach(t ${UNIT_TESTS})
  add_executable(${t} test/native/${t}.c)
  target_include_directories(${t} PRIVATE agent ${CMOCKA_INCLUDE_DIRS})
  target_link_libraries(${t} PRIVATE profcore ${CMOCKA_LIBRARIES})
  add_test(NAME unit.${t} COMMAND ${t})
endforeach()
foreach(t test_jfr_read test_jfr_widths test_jfr_cut)   # the JFR reader: jfrconv's library
  target_link_libraries(${t} PRIVATE jfrconv_lib)
endforeach()

# JNI libraries used by the integration tests: the same chain with and without frame pointers.
foreach(variant fp nofp)
  add_library(chain_${variant} SHARED test/native/jni/chain.c)
  target_include_directories(chain_${variant} PRIVATE ${JNI_INCLUDES})
  target_compile_options(chain_${variant} PRIVATE -fno-optimize-sibling-calls -fno-inline)
endforeach()
target_compile_options(chain_nofp PRIVATE -fomit-frame-pointer)
add_library(sigprof_app SHARED test/native/jni/sigprof_app.c)
target_include_directories(sigprof_app PRIVATE ${JNI_INCLUDES})

# Native symbols and unwind tables (issue 3). dwarf_chain.c is built without frame pointers on purpose:
# the DWARF tests must unwind through it.
foreach(t test_elf test_symtab test_demangle test_kallsyms test_native_map test_dwarf)
  add_executable(${t} test/native/${t}.c)
  target_include_directories(${t} PRIVATE agent ${CMOCKA_INCLUDE_DIRS})
  target_link_libraries(${t} PRIVATE profcore ${CMOCKA_LIBRARIES} dl)
  add_test(NAME unit.${t} COMMAND ${t})
endforeach()
target_sources(test_dwarf PRIVATE test/native/dwarf_chain.c)
if(EXISTS ${JAVA_HOME}/lib/server/libjvm.so)
  target_compile_definitions(test_native_map PRIVATE TEST_LIBJVM="${JAVA_HOME}/lib/server/libjvm.so")
endif()
# Thread names: bounded retention of ended threads (threads.c is agent code with no JVM dependency).
add_executable(test_threads test/native/test_threads.c agent/threads.c)
target_include_directories(test_threads PRIVATE agent ${CMOCKA_INCLUDE_DIRS})
target_link_libraries(test_threads PRIVATE profcore ${CMOCKA_LIBRARIES})
add_test(NAME unit.test_threads COMMAND test_threads)

# The JVM's own mapped files registered with safe_read (libjvm.so dlopened, not started).
add_executable(test_vm_images test/native/test_vm_images.c agent/vm_images.c agent/safe_read.c agent/safe_fault.c)
target_include_directories(test_vm_images PRIVATE agent ${CMOCKA_INCLUDE_DIRS})
target_link_libraries(test_vm_images PRIVATE profcore ${CMOCKA_LIBRARIES} dl)
if(EXISTS ${JAVA_HOME}/lib/server/libjvm.so)
  target_compile_definitions(test_vm_images PRIVATE TEST_LIBJVM="${JAVA_HOME}/lib/server/libjvm.so")
endif()
add_test(NAME unit.test_vm_images COMMAND test_vm_images)
set_source_files_properties(test/native/dwarf_chain.c PROPERTIES
  COMPILE_OPTIONS "-fomit-frame-pointer;-fno-optimize-sibling-calls")

# The ELF fuzz harness, built as a plain program and run once over real ELF files and the checked-in corpus
# (the small inputs of an 11-minute libFuzzer run) so it keeps working; see its top comment for the libFuzzer build.
add_executable(fuzz_elf test/native/fuzz_elf.c)
target_link_libraries(fuzz_elf PRIVATE profcore)
file(GLOB ELF_CORPUS ${CMAKE_SOURCE_DIR}/test/native/corpus/elf/*)
add_test(NAME unit.fuzz_elf COMMAND fuzz_elf $<TARGET_FILE:test_elf> $<TARGET_FILE:prof> ${ELF_CORPUS})

# The option grammar's fuzz harness, run over its checked-in corpus (seeds and what libFuzzer found).
add_executable(fuzz_options test/native/fuzz_options.c)
target_link_libraries(fuzz_options PRIVATE profcore)
file(GLOB OPTIONS_CORPUS ${CMAKE_SOURCE_DIR}/test/native/corpus/options/*)
add_test(NAME unit.fuzz_options COMMAND fuzz_options ${OPTIONS_CORPUS})

# The JFR reader's fuzz harness, run over its checked-in corpus (tiny recordings of ours and the JDK's,
# and what libFuzzer found).
add_executable(fuzz_jfr test/native/fuzz_jfr.c)
target_link_libraries(fuzz_jfr PRIVATE jfrconv_lib)
file(GLOB JFR_CORPUS ${CMAKE_SOURCE_DIR}/test/native/corpus/jfr/*)
add_test(NAME unit.fuzz_jfr COMMAND fuzz_jfr ${JFR_CORPUS})

# jfrconv's command line (jfrconv/jfrconv_args.c).
add_executable(test_jfrconv_args test/native/test_jfrconv_args.c jfrconv/jfrconv_args.c)
target_include_directories(test_jfrconv_args PRIVATE agent jfrconv ${CMOCKA_INCLUDE_DIRS})
target_link_libraries(test_jfrconv_args PRIVATE jfrconv_lib ${CMOCKA_LIBRARIES})
add_test(NAME unit.test_jfrconv_args COMMAND test_jfrconv_args)
# GCC clone suffixes in native names (issue 15.6; test_native_map checks them through frame_names.c, the
# agent's one native resolver), the log's destinations and the files log= takes (issue 15.4, 16.10), and
# output files: devices, FIFOs, links, planted temporary names, modes, failed moves (safe_file, output),
# jstackdepth bounding the whole recorded stack, full names from the JVM's thread dump.
foreach(t test_clone_names test_log test_safe_file test_stack_bound test_thread_dump)
  add_executable(${t} test/native/${t}.c)
  target_include_directories(${t} PRIVATE agent ${CMOCKA_INCLUDE_DIRS})
  target_link_libraries(${t} PRIVATE profcore ${CMOCKA_LIBRARIES})
  add_test(NAME unit.${t} COMMAND ${t})
endforeach()
set_tests_properties(unit.test_safe_file PROPERTIES TIMEOUT 60)
target_sources(test_native_map PRIVATE agent/frame_names.c)
target_include_directories(test_native_map PRIVATE ${JNI_INCLUDES})
