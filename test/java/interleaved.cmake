# Interleaved Java/native stacks (issue 4, cstack=vm): a JNI library that calls back into Java, and the
# tests of InterleavedTest.java on every JDK found.
add_library(callback SHARED test/native/jni/callback.c)
target_include_directories(callback PRIVATE ${JNI_INCLUDES})
target_compile_options(callback PRIVATE -fno-optimize-sibling-calls -fno-inline -fomit-frame-pointer)
