# The profiling signal against other parties (issue 16.7, 16.8, 16.10): an application that takes SIGPROF
# or ITIMER_PROF after profiling started, SIGPROF sent with kill, a seccomp filter that kills on
# process_vm_readv. The tests of SignalsTest.java on every JDK found (the adversary uses libsigprof_app.so),
# and the launcher that installs the filter.
add_executable(seccomp_launch test/native/seccomp_launch.c)

set(SIGNALS_TESTS foreign_kill_cpu foreign_kill_ctimer foreign_kill_itimer
    late_handler_cpu late_handler_ctimer late_handler_itimer late_setitimer_cpu late_setitimer_itimer late_block_cpu
    seccomp_vm seccomp_dwarf seccomp_fp seccomp_no seccomp_ctimer seccomp_itimer seccomp_bounded)
foreach(jdk ${TEST_JDKS})
  get_filename_component(jdk_name ${jdk} NAME)
  string(REGEX REPLACE "^java-|-openjdk-amd64$|-jdk-amd64$" "" jdk_tag ${jdk_name})
  foreach(t ${SIGNALS_TESTS})
    add_test(NAME it.${jdk_tag}.signals_${t}
      COMMAND ${JAVA_HOME}/bin/java -cp ${TEST_CLASSES} SignalsTest ${t} ${jdk}
              $<TARGET_FILE:prof> ${TEST_CLASSES} ${CMAKE_BINARY_DIR}/it/${jdk_tag}/signals_${t})
    set_tests_properties(it.${jdk_tag}.signals_${t} PROPERTIES TIMEOUT 300)
  endforeach()
endforeach()

# Unit tests of the fault-tolerant reads: recovery, chaining to the previous handler, each mechanism.
add_executable(test_safe_fault test/native/test_safe_fault.c agent/safe_fault_install.c agent/safe_read_stack.c)
target_include_directories(test_safe_fault PRIVATE agent ${CMOCKA_INCLUDE_DIRS})
target_link_libraries(test_safe_fault PRIVATE profcore ${CMOCKA_LIBRARIES})
add_test(NAME unit.test_safe_fault COMMAND test_safe_fault)
