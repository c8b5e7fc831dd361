# JFR recordings checked with the jfr tool of the JDK that ran each workload (JfrTest.java).
set(JFR_TESTS jfr_stacks jfr_chunks_by_size jfr_chunks_by_time jfr_exit jfr_attach_dump)
foreach(jdk ${TEST_JDKS})
  get_filename_component(jdk_name ${jdk} NAME)
  string(REGEX REPLACE "^java-|-openjdk-amd64$|-jdk-amd64$" "" jdk_tag ${jdk_name})
  foreach(t ${JFR_TESTS})
    add_test(NAME it.${jdk_tag}.${t}
      COMMAND ${JAVA_HOME}/bin/java -cp ${TEST_CLASSES} JfrTest ${t} ${jdk}
              $<TARGET_FILE:prof> ${TEST_CLASSES} ${CMAKE_BINARY_DIR}/it/${jdk_tag}/${t})
    set_tests_properties(it.${jdk_tag}.${t} PROPERTIES TIMEOUT 300)
  endforeach()
endforeach()
