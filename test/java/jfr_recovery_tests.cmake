# What is left of a JFR recording when things go wrong (JfrRecoveryTest.java): a JVM killed with SIGKILL, a
# file cut mid-chunk, a full disk (a tmpfs in a private mount namespace; skipped, exit 77, where none can be
# mounted), on every JDK found; a FIFO as jfrconv's input once, as it needs no JVM.
foreach(jdk ${TEST_JDKS})
  get_filename_component(jdk_name ${jdk} NAME)
  string(REGEX REPLACE "^java-|-openjdk-amd64$|-jdk-amd64$" "" jdk_tag ${jdk_name})
  foreach(t jfr_killed jfr_disk_full)
    add_test(NAME it.${jdk_tag}.${t}
      COMMAND ${JAVA_HOME}/bin/java -cp ${TEST_CLASSES} JfrRecoveryTest ${t} ${jdk}
              $<TARGET_FILE:prof> $<TARGET_FILE:jfrconv> ${TEST_CLASSES} ${CMAKE_BINARY_DIR}/it/${jdk_tag}/${t})
    set_tests_properties(it.${jdk_tag}.${t} PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE 77)
  endforeach()
endforeach()
add_test(NAME it.jfrconv_fifo_input
  COMMAND ${JAVA_HOME}/bin/java -cp ${TEST_CLASSES} JfrRecoveryTest jfrconv_fifo_input ${JAVA_HOME}
          $<TARGET_FILE:prof> $<TARGET_FILE:jfrconv> ${TEST_CLASSES} ${CMAKE_BINARY_DIR}/it/jfrconv_fifo_input)
set_tests_properties(it.jfrconv_fifo_input PROPERTIES TIMEOUT 120)
