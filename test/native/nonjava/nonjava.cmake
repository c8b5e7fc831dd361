# Profiling programs with no JVM: native_burn.c (a known CPU split, known allocation sites, the C API from
# the program itself, Java-only requests, a JVM in libjvm loaded RTLD_LOCAL), run by nonjava_test.sh as
# it.<build JDK>.nonjava.<case>.
add_executable(native_burn test/native/nonjava/native_burn.c)
target_include_directories(native_burn PRIVATE test/native ${JNI_INCLUDES})
target_link_libraries(native_burn PRIVATE dl pthread)
target_compile_options(native_burn PRIVATE -O1 -fno-omit-frame-pointer)

libprof_jdk_tag(nonjava_tag ${JAVA_HOME})
foreach(case preload_split preload_threads preload_fork preload_jfr preload_html api nativemem refuse host_rtld_local preload_jvm_later)
  _libprof_add_test(it.${nonjava_tag}.nonjava.${case}
    COMMAND bash ${CMAKE_SOURCE_DIR}/test/native/nonjava/nonjava_test.sh ${case} $<TARGET_FILE:prof>
      $<TARGET_FILE:native_burn> ${JAVA_HOME} ${TEST_CLASSES} ${CMAKE_BINARY_DIR}/it/${nonjava_tag}/nonjava/${case}
    PROPERTIES TIMEOUT 60)
endforeach()
