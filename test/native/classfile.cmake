# The class file rewriter (issue 8): its cmocka tests, its fuzz harness over the checked-in corpus, and
# classfile_tool, which the behaviour and real-jar tests (test/java/instr) run over directories of classes.
add_executable(classfile_tool test/native/classfile_tool.c)
target_link_libraries(classfile_tool PRIVATE profcore)
