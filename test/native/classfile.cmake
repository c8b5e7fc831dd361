# The class file rewriter (issue 8): its cmocka tests, its fuzz harness over the checked-in corpus, and
# classfile_tool, which the behaviour and real-jar tests (test/java/instr) run over directories of classes.
add_executable(classfile_tool test/native/classfile_tool.c)
target_link_libraries(classfile_tool PRIVATE profcore)

# The rewriter's fuzz harness, run over its checked-in corpus (small real classes and what libFuzzer found);
# see its top comment for the libFuzzer build.
add_executable(fuzz_classfile test/native/fuzz_classfile.c)
target_link_libraries(fuzz_classfile PRIVATE profcore)
file(GLOB CLASSFILE_CORPUS ${CMAKE_SOURCE_DIR}/test/native/corpus/classfile/*)
add_test(NAME unit.fuzz_classfile COMMAND fuzz_classfile ${CLASSFILE_CORPUS})

# Unit tests: hand-built classes (test_classfile) and real ones compiled at build time (test_classfile_real).
add_executable(test_classfile test/native/test_classfile.c)
target_include_directories(test_classfile PRIVATE agent ${CMOCKA_INCLUDE_DIRS})
target_link_libraries(test_classfile PRIVATE profcore ${CMOCKA_LIBRARIES})
add_test(NAME unit.test_classfile COMMAND test_classfile)
add_executable(test_classfile_real test/native/test_classfile_real.c)
target_include_directories(test_classfile_real PRIVATE agent ${CMOCKA_INCLUDE_DIRS})
target_link_libraries(test_classfile_real PRIVATE profcore ${CMOCKA_LIBRARIES})
add_dependencies(test_classfile_real instr_classes)  # the classes it reads (test/java/instr/instr.cmake)
add_test(NAME unit.test_classfile_real COMMAND test_classfile_real ${CMAKE_BINARY_DIR}/instr-suite
         ${CMAKE_BINARY_DIR}/instr-module ${CMAKE_SOURCE_DIR}/test/native/corpus/classfile)
