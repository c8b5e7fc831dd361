# Benchmarks: built with everything, run by ./build.sh bench (a short form runs in ./build.sh test).
add_executable(dump_bench bench/dump_bench.c)
target_link_libraries(dump_bench PRIVATE profcore)

file(GLOB BENCH_JAVA_SOURCES ${CMAKE_SOURCE_DIR}/bench/java/*.java)
set(BENCH_CLASSES ${CMAKE_BINARY_DIR}/bench-classes)
add_custom_command(
  OUTPUT ${BENCH_CLASSES}/.stamp
  COMMAND ${JAVA_HOME}/bin/javac --release 17 -d ${BENCH_CLASSES} ${BENCH_JAVA_SOURCES}
  COMMAND ${CMAKE_COMMAND} -E touch ${BENCH_CLASSES}/.stamp
  DEPENDS ${BENCH_JAVA_SOURCES}
  COMMENT "Compiling benchmark workloads")
add_custom_target(bench_workloads ALL DEPENDS ${BENCH_CLASSES}/.stamp)

add_test(NAME bench.smoke
  COMMAND ${JAVA_HOME}/bin/java -cp ${BENCH_CLASSES} BenchHarness quick ${JAVA_HOME} $<TARGET_FILE:prof>
          ${BENCH_CLASSES} $<TARGET_FILE:dump_bench> ${CMAKE_BINARY_DIR}/bench-smoke)
set_tests_properties(bench.smoke PROPERTIES TIMEOUT 600)
