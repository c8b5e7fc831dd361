# Java workloads (test/java/*.java) compiled for the oldest JDK we test, and the integration tests, run on
# every JDK found (JDK 17, and Temurin 25 when present).
set(TEST_CLASSES ${CMAKE_BINARY_DIR}/test-classes)
compile_java(java_workloads ${CMAKE_SOURCE_DIR}/test/java ${TEST_CLASSES})

set(INTEGRATION_TESTS shares_ctimer shares_itimer total_ctimer total_itimer threads bad_options
    exit_while_profiling text_report naming_and_filters timeout attach_load app_owns_sigprof stress exit_paths
    native_chain_fp native_chain_nofp_fp_mode native_chain_nofp_dwarf native_chain_nofp_default
    deflate_into_zlib jvm_threads
    shares_perf total_perf perf_fallback kernel_frames alluser perf_thread_churn
    perf_fd_limit perf_kernel_refused perf_page_faults)
foreach(jdk ${TEST_JDKS})
  get_filename_component(jdk_name ${jdk} NAME)
  string(REGEX REPLACE "^java-|-openjdk-amd64$|-jdk-amd64$" "" jdk_tag ${jdk_name})
  foreach(t ${INTEGRATION_TESTS})
    add_test(NAME it.${jdk_tag}.${t}
      COMMAND ${JAVA_HOME}/bin/java -cp ${TEST_CLASSES} IntegrationTest ${t} ${jdk}
              $<TARGET_FILE:prof> ${TEST_CLASSES} ${CMAKE_BINARY_DIR}/it/${jdk_tag}/${t})
    set_tests_properties(it.${jdk_tag}.${t} PROPERTIES TIMEOUT 300)
  endforeach()
endforeach()
include(${CMAKE_CURRENT_LIST_DIR}/instrument.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/jfr_tests.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/jfrconv_tests.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/jfr_recovery_tests.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/files_tests.cmake)
include(${CMAKE_SOURCE_DIR}/test/java/interleaved.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/user_facing.cmake)
include(${CMAKE_SOURCE_DIR}/test/java/thread_naming.cmake)
include(${CMAKE_SOURCE_DIR}/test/java/signals.cmake)
