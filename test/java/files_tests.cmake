# The files the agent and jfrconv write (FilesTest.java): private recordings in progress, planted temporary
# names, a failed move, devices and links written in place.
set(FILES_TESTS files_jfr_private files_jfr_planted files_jfr_stop_typo files_devices files_jfrconv_stdout_link)
foreach(jdk ${TEST_JDKS})
  get_filename_component(jdk_name ${jdk} NAME)
  string(REGEX REPLACE "^java-|-openjdk-amd64$|-jdk-amd64$" "" jdk_tag ${jdk_name})
  foreach(t ${FILES_TESTS})
    add_test(NAME it.${jdk_tag}.${t}
      COMMAND ${JAVA_HOME}/bin/java -cp ${TEST_CLASSES} FilesTest ${t} ${jdk}
              $<TARGET_FILE:prof> ${TEST_CLASSES} ${CMAKE_BINARY_DIR}/it/${jdk_tag}/${t} $<TARGET_FILE:jfrconv>)
    set_tests_properties(it.${jdk_tag}.${t} PROPERTIES TIMEOUT 300)
  endforeach()
endforeach()
