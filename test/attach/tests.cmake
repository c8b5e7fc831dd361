# jprof tests: cmocka units for its pure parts, and integration tests that attach to real JVMs started
# without the agent (test/attach/attach_tests.sh), once per JDK in TEST_JDKS.
add_executable(test_attach_units test/attach/test_attach_units.c attach/jprof_args.c attach/hotspot_attach.c
  attach/attach_listener.c attach/proc_target.c attach/jvm_finder.c attach/target_fs.c)
target_include_directories(test_attach_units PRIVATE attach agent ${CMOCKA_INCLUDE_DIRS})
target_link_libraries(test_attach_units PRIVATE profcore ${CMOCKA_LIBRARIES})
add_test(NAME unit.test_attach_units COMMAND test_attach_units)
add_executable(test_target_fs test/attach/test_target_fs.c attach/target_fs.c attach/proc_target.c
  attach/session_dir.c attach/attach_listener.c)
target_include_directories(test_target_fs PRIVATE attach ${CMOCKA_INCLUDE_DIRS})
target_link_libraries(test_target_fs PRIVATE ${CMOCKA_LIBRARIES})
add_test(NAME unit.test_target_fs COMMAND test_target_fs)

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

foreach(jdk ${TEST_JDKS})
  get_filename_component(jdk_name ${jdk} NAME)
  foreach(case profile flow cycles errors namespace)
    add_test(NAME attach.${case}.${jdk_name}
      COMMAND bash ${CMAKE_SOURCE_DIR}/test/attach/attach_tests.sh ${case} ${jdk} ${CMAKE_BINARY_DIR} ${ATTACH_CLASSES})
    set_tests_properties(attach.${case}.${jdk_name} PROPERTIES TIMEOUT 180)
  endforeach()
  # Only one JVM named AttachByName may run at a time, or finding it by name is ambiguous.
  set_tests_properties(attach.profile.${jdk_name} PROPERTIES RESOURCE_LOCK attach_by_name)
  # jprof must not harm what is not its own (test/attach/attach_safety_tests.sh). These cases leave session
  # directories of dead or tricked jprof processes in /tmp for a moment, which attach.flow checks for.
  set_tests_properties(attach.flow.${jdk_name} PROPERTIES RESOURCE_LOCK jprof_session_dirs)
  foreach(case swap container_swap sigkill signals)
    add_test(NAME attach.${case}.${jdk_name}
      COMMAND bash ${CMAKE_SOURCE_DIR}/test/attach/attach_safety_tests.sh ${case} ${jdk} ${CMAKE_BINARY_DIR}
              ${ATTACH_CLASSES})
    set_tests_properties(attach.${case}.${jdk_name} PROPERTIES TIMEOUT 180 RESOURCE_LOCK jprof_session_dirs)
  endforeach()
endforeach()
