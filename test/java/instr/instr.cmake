# The class file rewriter's Java-side tests: the behaviour suite (test/java/instr/suite, rewritten by
# classfile_tool and compared with the original under -Xverify:all) and every class of real jars from
# /usr/share/java rewritten and verified. InstrTest.java explains both.
set(INSTR_SRC ${CMAKE_SOURCE_DIR}/test/java/instr)
set(INSTR_TOOLS ${CMAKE_BINARY_DIR}/instr-tools)
set(INSTR_SUITE ${CMAKE_BINARY_DIR}/instr-suite)
set(INSTR_GENERATED ${CMAKE_BINARY_DIR}/instr-generated)
# The test tools: InstrTest, VerifyClasses and the helper the rewritten classes call, libprof.CallCounter.
compile_java(instr_tools ${INSTR_SRC} ${INSTR_TOOLS})
file(GLOB INSTR_SUITE_SOURCES ${INSTR_SRC}/suite/*.java)
add_custom_command(
  OUTPUT ${INSTR_SUITE}/.stamp
  COMMAND ${JAVA_HOME}/bin/java ${INSTR_SRC}/gen/GenInstrSources.java ${INSTR_GENERATED}
  COMMAND ${JAVA_HOME}/bin/java ${INSTR_SRC}/gen/GenOldClasses.java ${INSTR_SUITE}
  COMMAND ${JAVA_HOME}/bin/javac --release 17 -cp ${INSTR_TOOLS} -d ${INSTR_SUITE} ${INSTR_SUITE_SOURCES}
          ${INSTR_GENERATED}/Big.java ${INSTR_GENERATED}/Wide.java ${INSTR_GENERATED}/LimitOk.java
          ${INSTR_GENERATED}/LimitTooLong.java
  COMMAND ${CMAKE_COMMAND} -E touch ${INSTR_SUITE}/.stamp
  DEPENDS ${INSTR_SUITE_SOURCES} ${INSTR_SRC}/gen/GenInstrSources.java ${INSTR_SRC}/gen/GenOldClasses.java
  COMMENT "Generating and compiling the rewriter behaviour suite")
# A small module (Module and Package constants in module-info.class), for test_classfile_real; its sources sit
# in one directory, javac places the classes by package.
set(INSTR_MODULE ${CMAKE_BINARY_DIR}/instr-module)
compile_java(instr_module ${INSTR_SRC}/module ${INSTR_MODULE})
add_custom_target(instr_classes ALL DEPENDS ${INSTR_SUITE}/.stamp)
add_dependencies(instr_classes instr_tools instr_module)

# Real jars: Debian's guava, commons-lang3, commons-io and guice (with its Java 6 classes), each verified
# with the others (and guice's own dependencies) as its class path; plus the test JDK's jdk.compiler module.
set(INSTR_JARS /usr/share/java/guava.jar /usr/share/java/commons-lang3.jar /usr/share/java/commons-io.jar
    /usr/share/java/guice.jar /usr/share/java/aopalliance.jar /usr/share/java/atinject-jsr330-api.jar)
libprof_java_tests(rewriter InstrTest CASES behaviour trace_behaviour CLASSPATH ${INSTR_TOOLS}
    ARGS <CASE> <JDK> $<TARGET_FILE:classfile_tool> ${INSTR_SUITE} ${INSTR_TOOLS} ${INSTR_SRC}/suite21 <WORK>)
libprof_java_tests(rewriter InstrTest CASES jars trace_jars CLASSPATH ${INSTR_TOOLS}
    ARGS <CASE> <JDK> $<TARGET_FILE:classfile_tool> ${INSTR_TOOLS} <WORK> ${INSTR_JARS})
