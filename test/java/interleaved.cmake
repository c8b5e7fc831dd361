# Interleaved Java/native stacks (issue 4, cstack=vm): a JNI library that calls back into Java, and the
# tests of InterleavedTest.java on every JDK found.
add_library(callback SHARED test/native/jni/callback.c)
target_include_directories(callback PRIVATE ${JNI_INCLUDES})
target_compile_options(callback PRIVATE -fno-optimize-sibling-calls -fno-inline -fomit-frame-pointer)

foreach(jdk ${TEST_JDKS})
  get_filename_component(jdk_name ${jdk} NAME)
  string(REGEX REPLACE "^java-|-openjdk-amd64$|-jdk-amd64$" "" jdk_tag ${jdk_name})
  foreach(t callback_vm callback_stitching stress_vm)
    add_test(NAME it.${jdk_tag}.interleaved_${t}
      COMMAND ${JAVA_HOME}/bin/java -cp ${TEST_CLASSES} InterleavedTest ${t} ${jdk}
              $<TARGET_FILE:prof> ${TEST_CLASSES} ${CMAKE_BINARY_DIR}/it/${jdk_tag}/interleaved_${t})
    set_tests_properties(it.${jdk_tag}.interleaved_${t} PROPERTIES TIMEOUT 300)
  endforeach()
endforeach()
