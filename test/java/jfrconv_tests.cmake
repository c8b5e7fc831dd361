# jfrconv's integration tests (JfrconvTest.java): recordings made by the JDK itself and by the agent (the
# round trip) on every JDK found; bad inputs (cut and corrupted from a JDK recording of the fuzz corpus)
# once, as they need no JVM.
foreach(jdk ${TEST_JDKS})
  get_filename_component(jdk_name ${jdk} NAME)
  string(REGEX REPLACE "^java-|-openjdk-amd64$|-jdk-amd64$" "" jdk_tag ${jdk_name})
  add_test(NAME it.${jdk_tag}.jfrconv_jdk_recording
    COMMAND ${JAVA_HOME}/bin/java -cp ${TEST_CLASSES} JfrconvTest jdk_recording ${jdk}
            $<TARGET_FILE:prof> $<TARGET_FILE:jfrconv> ${TEST_CLASSES} ${CMAKE_BINARY_DIR}/it/${jdk_tag}/jfrconv_jdk_recording)
  set_tests_properties(it.${jdk_tag}.jfrconv_jdk_recording PROPERTIES TIMEOUT 300)
  # One session written both ways (file=x.jfr streamed, collapsed at stop): the conversion equals it.
  add_test(NAME it.${jdk_tag}.jfrconv_roundtrip
    COMMAND ${JAVA_HOME}/bin/java -cp ${TEST_CLASSES} JfrconvTest roundtrip ${jdk}
            $<TARGET_FILE:prof> $<TARGET_FILE:jfrconv> ${TEST_CLASSES} ${CMAKE_BINARY_DIR}/it/${jdk_tag}/jfrconv_roundtrip)
  set_tests_properties(it.${jdk_tag}.jfrconv_roundtrip PROPERTIES TIMEOUT 300)
endforeach()
add_test(NAME it.jfrconv_bad_input
  COMMAND ${JAVA_HOME}/bin/java -cp ${TEST_CLASSES} JfrconvTest bad_input ${JAVA_HOME}
          $<TARGET_FILE:prof> $<TARGET_FILE:jfrconv> ${TEST_CLASSES} ${CMAKE_BINARY_DIR}/it/jfrconv_bad_input
          ${CMAKE_SOURCE_DIR}/test/native/corpus/jfr/jdk17-min.jfr)
set_tests_properties(it.jfrconv_bad_input PROPERTIES TIMEOUT 300)
