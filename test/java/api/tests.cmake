# The API's tests (ApiTest.java): the programs that drive the profiler themselves, compiled against
# libprof.jar for Java 8 (test/java/api, with the one.profiler.AsyncProfiler stand-in that declares
# async-profiler's natives), and the native JVM host of the C API (test/native/api_host.c, linked with the
# build JDK's libjvm, so its case runs on that JDK only).
set(API_TEST_CLASSES ${CMAKE_BINARY_DIR}/api-test-classes)
file(GLOB_RECURSE API_TEST_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/test/java/api/*.java)
add_custom_command(
  OUTPUT ${API_TEST_CLASSES}/.stamp
  COMMAND ${JAVA_HOME}/bin/javac --release 8 -Xlint:-options -cp ${LIBPROF_JAR} -d ${API_TEST_CLASSES} ${API_TEST_SOURCES}
  COMMAND ${CMAKE_COMMAND} -E touch ${API_TEST_CLASSES}/.stamp
  DEPENDS ${API_TEST_SOURCES} ${LIBPROF_JAR}
  COMMENT "Compiling the API's test programs")
add_custom_target(api_test_classes ALL DEPENDS ${API_TEST_CLASSES}/.stamp)
# The jar's rule runs in libprof_jar's build only: a second target running the same rule at once (make -j)
# would remove its classes directory under the first ("api-classes/. : no such file or directory").
add_dependencies(api_test_classes libprof_jar)

add_executable(api_host test/native/api_host.c)
target_include_directories(api_host PRIVATE agent/include test/native ${JNI_INCLUDES})
target_link_libraries(api_host PRIVATE prof ${JAVA_HOME}/lib/server/libjvm.so)
set_target_properties(api_host PROPERTIES BUILD_RPATH "${JAVA_HOME}/lib/server;${CMAKE_BINARY_DIR}/lib")

set(API_TEST_ARGS <CASE> <JDK> $<TARGET_FILE:prof> ${TEST_CLASSES} <WORK> ${LIBPROF_JAR} ${API_TEST_CLASSES}
    $<TARGET_FILE:api_host>)
libprof_java_tests(api ApiTest CASES java_api thread_filter async_profiler javaagent_jmx agent_attach ld_preload
    loop_collapsed loop_jfr_rolling jar_planted xcheck_jni ARGS ${API_TEST_ARGS}
    TIMEOUT 180)
libprof_java_tests(api ApiTest ONCE CASES c_host ARGS ${API_TEST_ARGS} TIMEOUT 120)
