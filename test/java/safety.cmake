# The profiled JVM against hostile or unlucky neighbours (SafetyTest.java): a native crash reporter that treats
# SIGTRAP as fatal, taking it each way a library can (its constructor during System.load or a native dlopen, a
# dlsym'd sigaction, the raw system call); outputs that are FIFOs of another user or of a reader that stopped.
foreach(variant "" _ctor)
  add_library(crash_reporter${variant} SHARED test/native/jni/crash_reporter.c)
  target_include_directories(crash_reporter${variant} PRIVATE ${JNI_INCLUDES})
  target_link_libraries(crash_reporter${variant} PRIVATE dl)
endforeach()
target_compile_definitions(crash_reporter_ctor PRIVATE CRASH_REPORTER_CONSTRUCTOR)
libprof_java_tests(safety SafetyTest CASES crash_reporter_load crash_reporter_dlopen crash_reporter_dlsym
    crash_reporter_raw
    fifo_other_user fifo_stalled_reader)
add_executable(plant_race test/native/plant_race.c)   # another user planting files where libprof.jar extracts (ApiTest jar_planted)
