# What a user sees first (UserFacingTest.java): the demo's summary, quiet stderr, log= safety and destination,
# native names, stop/dump after a session ended; on every JDK found.
foreach(jdk ${TEST_JDKS})
  get_filename_component(jdk_name ${jdk} NAME)
  string(REGEX REPLACE "^java-|-openjdk-amd64$|-jdk-amd64$" "" jdk_tag ${jdk_name})
  foreach(t demo_summary quiet_stderr log_file_refused log_after_attach ended_session native_names)
    add_test(NAME it.${jdk_tag}.user_${t}
      COMMAND ${JAVA_HOME}/bin/java -Dsource.dir=${CMAKE_SOURCE_DIR} -cp ${TEST_CLASSES} UserFacingTest ${t} ${jdk}
              $<TARGET_FILE:prof> ${TEST_CLASSES} ${CMAKE_BINARY_DIR}/it/${jdk_tag}/user_${t})
    set_tests_properties(it.${jdk_tag}.user_${t} PROPERTIES TIMEOUT 300)
  endforeach()
endforeach()
