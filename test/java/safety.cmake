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
    fifo_other_user fifo_stalled_reader nativemem_deepbind)
add_executable(plant_race test/native/plant_race.c)   # another user planting files where libprof.jar extracts (ApiTest jar_planted)
# Libraries loaded with RTLD_DEEPBIND beside their own allocator (SafetyTest nativemem_deepbind).
add_library(bump_alloc SHARED test/native/jni/bump_alloc.c)
foreach(variant a b)
  add_library(bump_user_${variant} SHARED test/native/jni/bump_user.c)
  target_link_libraries(bump_user_${variant} PRIVATE bump_alloc)
endforeach()
add_library(deepbind_alloc SHARED test/native/jni/deepbind_alloc.c)
target_include_directories(deepbind_alloc PRIVATE ${JNI_INCLUDES})
target_link_libraries(deepbind_alloc PRIVATE dl)
target_link_options(bump_user_a PRIVATE -Wl,-z,lazy)
target_link_options(bump_user_b PRIVATE -Wl,-z,lazy)
# got_scope against those libraries, a plain one and a dlmopen namespace (no JVM). Not in the sanitizer build:
# AddressSanitizer's runtime defines malloc itself, so no object's allocator family binds to libc's there,
# and it refuses RTLD_DEEPBIND.
if(NOT LIBPROF_SANITIZE)
  libprof_unit_test(test_got_scope SOURCES agent/hooks/got_scope.c LIBS dl)
  target_compile_definitions(test_got_scope PRIVATE TEST_NATIVEMEM_LIB="$<TARGET_FILE:nativemem>"
    TEST_BUMP_USER_LIB="$<TARGET_FILE:bump_user_a>")
  add_dependencies(test_got_scope nativemem bump_user_a)
endif()
