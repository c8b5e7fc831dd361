# Thread names and stack bounds (issues 15 and 16): ThreadNamingTest.java on every JDK found.
foreach(jdk ${TEST_JDKS})
  get_filename_component(jdk_name ${jdk} NAME)
  string(REGEX REPLACE "^java-|-openjdk-amd64$|-jdk-amd64$" "" jdk_tag ${jdk_name})
  foreach(t thread_rename thread_name_escape thread_jvm_names jstackdepth_vm jstackdepth_fp jstackdepth_dwarf jstackdepth_no)
    add_test(NAME it.${jdk_tag}.${t}
      COMMAND ${JAVA_HOME}/bin/java -cp ${TEST_CLASSES} ThreadNamingTest ${t} ${jdk}
              $<TARGET_FILE:prof> ${TEST_CLASSES} ${CMAKE_BINARY_DIR}/it/${jdk_tag}/${t})
    set_tests_properties(it.${jdk_tag}.${t} PROPERTIES TIMEOUT 300)
  endforeach()
endforeach()
