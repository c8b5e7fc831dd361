# How every test is declared: one function per kind, and one naming scheme for ctest names,
#
#   unit.<executable>            cmocka unit tests and fuzz harnesses replaying their corpus (no JVM)
#   it.<jdk>.<suite>.<case>      a Java driver (test/java) running one case against a JVM of <jdk>
#   attach.<jdk>.<case>          a shell driver (test/attach) attaching jprof to a JVM of <jdk>
#   browser.<case>               HTML pages checked in headless chromium
#   bench.<case>                 a short benchmark run (the full runs are ./build.sh bench)
#
# <jdk> is the JDK's short tag (17, temurin-25). A case that needs no particular JDK runs once, on the build
# JDK, under that JDK's tag, so `ctest -R '\.17\.'` is everything that runs on JDK 17. <case> is exactly
# the argument the driver takes, so a ctest name says how to run the test by hand (docs/dev/testing.md, "Running one
# test"). The case lists live in the calls (test/*/tests.cmake), beside each driver: the Java drivers are
# compiled at build time, too late for configure to ask them for their cases; a name the driver does not
# know fails that test ("unknown test"), so a list cannot silently drift from its driver in that direction.
# Scratch directories: build/it/<jdk>/<suite>/<case>.

# cmocka is found by test/tests.cmake, which includes this file only when it is.

# <out>: the short tag of the JDK at <jdk>: java-17-openjdk-amd64 -> 17, temurin-25-jdk-amd64 -> temurin-25.
function(libprof_jdk_tag out jdk)
  get_filename_component(name ${jdk} NAME)
  string(REGEX REPLACE "^java-|-openjdk-amd64$|-jdk-amd64$" "" tag ${name})
  set(${out} ${tag} PARENT_SCOPE)
endfunction()

# Registers one test under <name> with its test properties (TIMEOUT, RESOURCE_LOCK, SKIP_RETURN_CODE ...);
# every kind goes through here. A test without TIMEOUT gets ctest's --timeout (./build.sh test: 600 s).
function(_libprof_add_test name)
  cmake_parse_arguments(T "" "" "COMMAND;PROPERTIES" ${ARGN})
  add_test(NAME ${name} COMMAND ${T_COMMAND})
  if(T_PROPERTIES)
    set_tests_properties(${name} PROPERTIES ${T_PROPERTIES})
  endif()
endfunction()

# A cmocka unit test: executable <name> from <DIR>/<name>.c (DIR defaults to test/native) and SOURCES (agent
# or tool code under test that profcore does not hold), linked with profcore, LIBS and cmocka; ctest
# unit.<name> runs it with ARGS. The headers of agent/ and of INCLUDES are visible.
function(libprof_unit_test name)
  cmake_parse_arguments(U "" "DIR" "SOURCES;INCLUDES;LIBS;ARGS;PROPERTIES" ${ARGN})
  if(NOT U_DIR)
    set(U_DIR test/native)
  endif()
  add_executable(${name} ${U_DIR}/${name}.c ${U_SOURCES})
  target_include_directories(${name} PRIVATE agent ${U_INCLUDES} ${CMOCKA_INCLUDE_DIRS})
  target_link_libraries(${name} PRIVATE profcore ${U_LIBS} ${CMOCKA_LIBRARIES})
  _libprof_add_test(unit.${name} COMMAND ${name} ${U_ARGS} PROPERTIES ${U_PROPERTIES})
endfunction()

# A fuzz harness (test/native/fuzz_<target>.c, a libFuzzer entry point with a plain main; see fuzz_main.h),
# built as a program and run once by ctest unit.fuzz_<target> over ARGS and its checked-in corpus
# (test/native/corpus/<target>/), so it keeps building and keeps accepting what it once found.
function(libprof_fuzz_test target)
  cmake_parse_arguments(F "" "" "ARGS" ${ARGN})
  add_executable(fuzz_${target} test/native/fuzz_${target}.c)
  target_link_libraries(fuzz_${target} PRIVATE profcore)
  file(GLOB corpus ${CMAKE_SOURCE_DIR}/test/native/corpus/${target}/*)
  _libprof_add_test(unit.fuzz_${target} COMMAND fuzz_${target} ${F_ARGS} ${corpus})
endfunction()

# The cases of one Java driver class, each run on every JDK in TEST_JDKS (ONCE: on the build JDK only) as
# ctest it.<jdk>.<suite>.<case>. The driver runs on the build JDK's java; ARGS, where <CASE>, <JDK> and <WORK>
# stand for the case, the JDK under test and the case's scratch directory, default to what the drivers
# built on IntegrationTest take: <case> <jdk> <libprof.so> <test classes> <work dir>.
function(libprof_java_tests suite driver)
  cmake_parse_arguments(J "ONCE" "CLASSPATH;TIMEOUT" "CASES;ARGS;JAVA_OPTIONS;PROPERTIES" ${ARGN})
  if(NOT J_CLASSPATH)
    set(J_CLASSPATH ${TEST_CLASSES})
  endif()
  if(NOT J_TIMEOUT)
    set(J_TIMEOUT 300)
  endif()
  if(NOT J_ARGS)
    set(J_ARGS <CASE> <JDK> $<TARGET_FILE:prof> ${TEST_CLASSES} <WORK>)
  endif()
  set(jdks ${TEST_JDKS})
  if(J_ONCE)
    set(jdks ${JAVA_HOME})
  endif()
  foreach(jdk ${jdks})
    libprof_jdk_tag(tag ${jdk})
    foreach(case ${J_CASES})
      set(args ${J_ARGS})
      list(TRANSFORM args REPLACE "<CASE>" ${case})
      list(TRANSFORM args REPLACE "<JDK>" ${jdk})
      list(TRANSFORM args REPLACE "<WORK>" ${CMAKE_BINARY_DIR}/it/${tag}/${suite}/${case})
      _libprof_add_test(it.${tag}.${suite}.${case}
        COMMAND ${JAVA_HOME}/bin/java ${J_JAVA_OPTIONS} -cp ${J_CLASSPATH} ${driver} ${args}
        PROPERTIES TIMEOUT ${J_TIMEOUT} ${J_PROPERTIES})
    endforeach()
  endforeach()
endfunction()

# The cases of one attach shell driver (test/attach/<script>), each run on every JDK in TEST_JDKS as ctest
# attach.<jdk>.<case>: bash <script> <case> <jdk> <build dir> <attach classes>.
function(libprof_attach_tests script)
  cmake_parse_arguments(A "" "" "CASES;PROPERTIES" ${ARGN})
  foreach(jdk ${TEST_JDKS})
    libprof_jdk_tag(tag ${jdk})
    foreach(case ${A_CASES})
      _libprof_add_test(attach.${tag}.${case}
        COMMAND bash ${CMAKE_SOURCE_DIR}/test/attach/${script} ${case} ${jdk} ${CMAKE_BINARY_DIR} ${ATTACH_CLASSES}
        PROPERTIES TIMEOUT 180 ${A_PROPERTIES})
    endforeach()
  endforeach()
endfunction()

# A browser test, ctest browser.<case>: a node script driving headless chromium. Without node it fails,
# saying what to install.
function(libprof_browser_test case script timeout)
  cmake_parse_arguments(B "" "" "ENVIRONMENT" ${ARGN})
  find_program(NODE_EXECUTABLE node)
  if(NODE_EXECUTABLE)
    _libprof_add_test(browser.${case} COMMAND ${NODE_EXECUTABLE} ${script} PROPERTIES TIMEOUT ${timeout})
    # ENVIRONMENT is itself a list: set apart, or the argument parsing above would flatten it.
    set_tests_properties(browser.${case} PROPERTIES ENVIRONMENT "${B_ENVIRONMENT}")
  else()
    _libprof_add_test(browser.${case} COMMAND sh -c
      "echo 'browser tests: node is not installed (apt-get install nodejs npm, or run ./build.sh test as root)' >&2; exit 1")
  endif()
endfunction()

# A benchmark run short enough for the test suite, ctest bench.<case>: it checks the harness works, the
# ratios it prints are not asserted.
function(libprof_bench_test case timeout)
  cmake_parse_arguments(B "" "" "COMMAND" ${ARGN})
  _libprof_add_test(bench.${case} COMMAND ${B_COMMAND} PROPERTIES TIMEOUT ${timeout})
endfunction()
