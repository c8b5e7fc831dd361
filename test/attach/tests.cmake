# jprof tests: cmocka units for its pure parts, and integration tests that attach to real JVMs started
# without the agent (test/attach/attach_tests.sh, attach_safety_tests.sh), on every JDK in TEST_JDKS
# (test/testing.cmake).
libprof_unit_test(test_attach_units DIR test/attach INCLUDES attach SOURCES attach/jprof_args.c
  attach/hotspot_attach.c attach/attach_listener.c attach/proc_target.c attach/jvm_finder.c attach/target_fs.c)
libprof_unit_test(test_target_fs DIR test/attach INCLUDES attach SOURCES attach/target_fs.c attach/proc_target.c
  attach/session_dir.c attach/attach_listener.c)

# The workload, compiled by the first test JDK (class files run on every later JDK too).
set(ATTACH_CLASSES ${CMAKE_BINARY_DIR}/attach-classes)
list(GET TEST_JDKS 0 ATTACH_JAVAC_JDK)
add_custom_command(
  OUTPUT ${ATTACH_CLASSES}/AttachTarget.class
  COMMAND ${CMAKE_COMMAND} -E make_directory ${ATTACH_CLASSES}
  COMMAND ${ATTACH_JAVAC_JDK}/bin/javac -d ${ATTACH_CLASSES} ${CMAKE_SOURCE_DIR}/test/attach/AttachTarget.java
          ${CMAKE_SOURCE_DIR}/test/attach/AttachByName.java
  DEPENDS ${CMAKE_SOURCE_DIR}/test/attach/AttachTarget.java ${CMAKE_SOURCE_DIR}/test/attach/AttachByName.java)
add_custom_target(attach_classes ALL DEPENDS ${ATTACH_CLASSES}/AttachTarget.class)

libprof_attach_tests(attach_tests.sh CASES cycles errors namespace parity)
# Only one JVM named AttachByName may run at a time, or finding it by name is ambiguous.
libprof_attach_tests(attach_tests.sh CASES profile PROPERTIES RESOURCE_LOCK attach_by_name)
# jprof must not harm what is not its own (attach_safety_tests.sh). These cases leave session directories of
# dead or tricked jprof processes in /tmp for a moment, which the flow case checks for.
libprof_attach_tests(attach_tests.sh CASES flow PROPERTIES RESOURCE_LOCK jprof_session_dirs)
libprof_attach_tests(attach_safety_tests.sh CASES swap container_swap sigkill signals stopped
  PROPERTIES RESOURCE_LOCK jprof_session_dirs)
