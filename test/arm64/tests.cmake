# linux-arm64: arm64.build cross-builds the product from the same sources (test/arm64/cross_build.sh,
# cmake/aarch64-linux-gnu.cmake) into build/arm64; arm64.jfrconv runs that build's jfrconv under qemu-user
# on the JFR corpus against the host's; arm64.unit cross-builds unit tests into build/arm64-unit and runs
# them under qemu-user. Each is skipped (77) when the cross toolchain, the arm64 libraries or qemu are
# missing; ./build.sh test installs them.
set(LIBPROF_ARM64_BUILD ${CMAKE_BINARY_DIR}/arm64)
_libprof_add_test(arm64.build
  COMMAND bash ${CMAKE_SOURCE_DIR}/test/arm64/cross_build.sh build ${CMAKE_SOURCE_DIR} ${LIBPROF_ARM64_BUILD}
  PROPERTIES TIMEOUT 1200 SKIP_RETURN_CODE 77 FIXTURES_SETUP arm64_build)
_libprof_add_test(arm64.jfrconv
  COMMAND bash ${CMAKE_SOURCE_DIR}/test/arm64/cross_build.sh jfrconv ${CMAKE_SOURCE_DIR} ${LIBPROF_ARM64_BUILD}
          $<TARGET_FILE:jfrconv>
  PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77 FIXTURES_REQUIRED arm64_build)
# arm64.unit: the unit tests that hold no x86_64 data (test_dwarf's synthetic tables and test_dwarf_index's
# libjvm are x86_64's; qemu-user has no process_vm_readv for test_safe_fault), cross-built and run under qemu.
set(LIBPROF_ARM64_UNIT_TESTS test_options test_filepath test_traces test_profile test_writers test_names
    test_sample_cost test_out_html test_perf_ring test_method_target test_jfr_encode test_sample_ring
    test_jfr_read test_u64map test_jfr_widths test_jfr_cut test_class_names test_clock_time test_lock_sample
    test_elf test_symtab test_demangle test_kallsyms test_got_patch test_native_map test_unwind_cache)
_libprof_add_test(arm64.unit
  COMMAND bash ${CMAKE_SOURCE_DIR}/test/arm64/cross_build.sh unit ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/arm64-unit
          ${LIBPROF_ARM64_UNIT_TESTS}
  PROPERTIES TIMEOUT 1800 SKIP_RETURN_CODE 77)
# arm64.it.<jdk>.*: the arm64 agent, jprof and the JNI test libraries on Debian 12's arm64 OpenJDK 17 and
# Debian 13's arm64 OpenJDK 21 under qemu-user (test/arm64/jvm_tests.sh); arm64.it.<jdk>.prepare makes that
# JDK's root once (kept under LIBPROF_ROOTS; ./build.sh test starts making both beside the suite) and
# cross-builds the JNI libraries. Emulated JVMs are slow: each case is one short run, and JDK 21 runs the core
# cases only (the engines' own cases, itimer, lock and the jar, once on JDK 17).
set(LIBPROF_ARM64_IT ${CMAKE_BINARY_DIR}/arm64-it)
set(LIBPROF_ARM64_IT_CASES_17 shares_cpu shares_itimer interleaved wall alloc lock jfr jprof javaagent nativemem)
set(LIBPROF_ARM64_IT_CASES_21 shares_cpu interleaved wall alloc jfr jprof nativemem)
foreach(jdk 17 21)
  _libprof_add_test(arm64.it.${jdk}.prepare
    COMMAND bash ${CMAKE_SOURCE_DIR}/test/arm64/jvm_tests.sh prepare ${CMAKE_SOURCE_DIR} ${LIBPROF_ARM64_BUILD}
            ${LIBPROF_ARM64_IT} ${CMAKE_BINARY_DIR}/test-classes ${jdk}
    PROPERTIES TIMEOUT 1800 SKIP_RETURN_CODE 77 FIXTURES_SETUP arm64_jvm${jdk} FIXTURES_REQUIRED arm64_build)
  foreach(case ${LIBPROF_ARM64_IT_CASES_${jdk}})
    _libprof_add_test(arm64.it.${jdk}.${case}
      COMMAND bash ${CMAKE_SOURCE_DIR}/test/arm64/jvm_tests.sh ${case} ${CMAKE_SOURCE_DIR} ${LIBPROF_ARM64_BUILD}
              ${LIBPROF_ARM64_IT} ${CMAKE_BINARY_DIR}/test-classes ${jdk}
      PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77 FIXTURES_REQUIRED arm64_jvm${jdk})
  endforeach()
endforeach()
