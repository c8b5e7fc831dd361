# Benchmarks: built with everything, run by ./build.sh bench (a short form runs in ./build.sh test).
add_executable(dump_bench bench/dump_bench.c)
target_link_libraries(dump_bench PRIVATE profcore)

set(BENCH_CLASSES ${CMAKE_BINARY_DIR}/bench-classes)
compile_java(bench_workloads ${CMAKE_SOURCE_DIR}/bench/java ${BENCH_CLASSES})

add_test(NAME bench.smoke
  COMMAND ${JAVA_HOME}/bin/java -cp ${BENCH_CLASSES} BenchHarness quick ${JAVA_HOME} $<TARGET_FILE:prof>
          ${BENCH_CLASSES} $<TARGET_FILE:dump_bench> ${CMAKE_BINARY_DIR}/bench-smoke)
set_tests_properties(bench.smoke PROPERTIES TIMEOUT 600)
