# jfrsync and the sampling windows (JfrSyncTest.java): the JDK's recording and ours in one file, begin=/end=
# around a native hot loop (the markers preloaded, called through libwindow_loop's import table), ttsp.
add_library(window_markers SHARED test/native/jni/window_markers.c)
add_library(window_loop SHARED test/native/jni/window_loop.c)
target_include_directories(window_loop PRIVATE ${JNI_INCLUDES})
target_link_libraries(window_loop PRIVATE window_markers)
libprof_java_tests(jfrsync JfrSyncTest CASES jfrsync jfrsync_bad_settings window window_nostop ttsp
    ARGS <CASE> <JDK> $<TARGET_FILE:prof> ${TEST_CLASSES} <WORK> $<TARGET_FILE:window_markers>
         $<TARGET_FILE:window_loop>)
