# Integration tests of method instrumentation (test/java/InstrumentTest.java), on every JDK found.
set(INSTRUMENT_TESTS counts selection jdk_classes attach javac bad_targets)
foreach(jdk ${TEST_JDKS})
  get_filename_component(jdk_name ${jdk} NAME)
  string(REGEX REPLACE "^java-|-openjdk-amd64$|-jdk-amd64$" "" jdk_tag ${jdk_name})
  foreach(t ${INSTRUMENT_TESTS})
    add_test(NAME instrument.${jdk_tag}.${t}
      COMMAND ${JAVA_HOME}/bin/java -cp ${TEST_CLASSES} InstrumentTest ${t} ${jdk}
              $<TARGET_FILE:prof> ${TEST_CLASSES} ${CMAKE_BINARY_DIR}/instrument/${jdk_tag}/${t})
    set_tests_properties(instrument.${jdk_tag}.${t} PROPERTIES TIMEOUT 300)
  endforeach()
endforeach()
