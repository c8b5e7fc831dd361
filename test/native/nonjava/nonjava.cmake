# Profiling programs with no JVM: native_burn.c (a known CPU split, known allocation sites, the C API from
# the program itself, Java-only requests, a JVM in libjvm loaded RTLD_LOCAL), run by nonjava_test.sh as
# it.<jdk>.nonjava.<case>: the cases with no JVM on the build JDK's tag, those that create one on every JDK.
add_executable(native_burn test/native/nonjava/native_burn.c)
target_include_directories(native_burn PRIVATE test/native ${JNI_INCLUDES})
target_link_libraries(native_burn PRIVATE dl pthread)
target_compile_options(native_burn PRIVATE -O1 -fno-omit-frame-pointer)

function(nonjava_test jdk case)
  libprof_jdk_tag(tag ${jdk})
  _libprof_add_test(it.${tag}.nonjava.${case}
    COMMAND bash ${CMAKE_SOURCE_DIR}/test/native/nonjava/nonjava_test.sh ${case} $<TARGET_FILE:prof>
      $<TARGET_FILE:native_burn> ${jdk} ${TEST_CLASSES} ${CMAKE_BINARY_DIR}/it/${tag}/nonjava/${case}
    PROPERTIES TIMEOUT 60)
endfunction()

foreach(case preload_split preload_threads preload_fork preload_jfr preload_html api nativemem refuse)
  nonjava_test(${JAVA_HOME} ${case})
endforeach()
foreach(jdk ${TEST_JDKS})
  foreach(case host_rtld_local preload_jvm_later)
    nonjava_test(${jdk} ${case})
  endforeach()
endforeach()
