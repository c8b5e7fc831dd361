# The class file rewriter: its cmocka tests, its fuzz harness over the checked-in corpus, and
# classfile_tool, which the behaviour and real-jar tests (test/java/instr) run over directories of classes.
add_executable(classfile_tool test/native/classfile_tool.c)
target_link_libraries(classfile_tool PRIVATE profcore)

libprof_fuzz_test(classfile)

# Hand-built classes (test_classfile) and real ones compiled at build time (test_classfile_real).
libprof_unit_test(test_classfile)
libprof_unit_test(test_classfile_real ARGS ${CMAKE_BINARY_DIR}/instr-suite ${CMAKE_BINARY_DIR}/instr-module
                  ${CMAKE_SOURCE_DIR}/test/native/corpus/classfile)
add_dependencies(test_classfile_real instr_classes)  # the classes it reads (test/java/instr/instr.cmake)
