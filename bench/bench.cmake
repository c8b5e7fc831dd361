# Benchmarks: built with everything, run by ./build.sh bench (a short form runs in ./build.sh test).
# dump_bench also drives the agent's JFR pools (with a synthetic method source instead of JVMTI).
add_executable(dump_bench bench/dump_bench.c bench/dump_bench_jfr.c agent/recording/jfr_pools.c agent/naming/jvm_lines.c
  agent/naming/frame_names.c agent/jvm/jit_stubs.c)
target_include_directories(dump_bench PRIVATE agent ${JNI_INCLUDES})
target_link_libraries(dump_bench PRIVATE profcore dl)

set(BENCH_CLASSES ${CMAKE_BINARY_DIR}/bench-classes)
compile_java(bench_workloads ${CMAKE_SOURCE_DIR}/bench/java ${BENCH_CLASSES})

libprof_bench_test(smoke 600
  COMMAND ${JAVA_HOME}/bin/java -cp ${BENCH_CLASSES} BenchHarness quick ${JAVA_HOME} $<TARGET_FILE:prof>
          ${BENCH_CLASSES} $<TARGET_FILE:dump_bench> ${CMAKE_BINARY_DIR}/bench-smoke)

# BenchPeer (libprof vs async-profiler, ./build.sh bench): only its argument handling runs in the test suite.
libprof_bench_test(peer_plan 60
  COMMAND ${JAVA_HOME}/bin/java -cp ${BENCH_CLASSES} BenchPeer plan ${JAVA_HOME} $<TARGET_FILE:prof>
          ${BENCH_CLASSES} ${CMAKE_BINARY_DIR}/bench-peer)
set_tests_properties(bench.peer_plan PROPERTIES PASS_REGULAR_EXPRESSION
  "BenchPeer: 3 rounds x 4 workloads x 7 configurations .*libprof features=sigtrap 1ms.*signal floor 1ms, timer floor 1ms.*no async-profiler.*CLOCK_PROCESS_CPUTIME_ID")
libprof_bench_test(peer_bad_home 60
  COMMAND ${JAVA_HOME}/bin/java -cp ${BENCH_CLASSES} BenchPeer full ${JAVA_HOME} $<TARGET_FILE:prof>
          ${BENCH_CLASSES} ${CMAKE_BINARY_DIR}/bench-peer /nonexistent/async-profiler)
set_tests_properties(bench.peer_bad_home PROPERTIES PASS_REGULAR_EXPRESSION
  "ASYNC_PROFILER_HOME=/nonexistent/async-profiler: no /nonexistent/async-profiler/lib/libasyncProfiler.so")

# BenchEngines (every engine against async-profiler, by hand): only its argument handling runs in the test suite.
libprof_bench_test(engines_bad_home 60
  COMMAND ${JAVA_HOME}/bin/java -cp ${BENCH_CLASSES} BenchEngines ${JAVA_HOME} $<TARGET_FILE:prof>
          ${BENCH_CLASSES} ${CMAKE_BINARY_DIR}/bench-engines /nonexistent/async-profiler)
set_tests_properties(bench.engines_bad_home PROPERTIES PASS_REGULAR_EXPRESSION
  "async-profiler home /nonexistent/async-profiler: no lib/libasyncProfiler.so")

# The signal floor (BenchPeer): the perf-per-thread sampling mechanism with an empty handler.
add_library(signal_floor_agent SHARED bench/signal_floor_agent.c)
target_include_directories(signal_floor_agent PRIVATE ${JNI_INCLUDES})

# The benchmarks' nanosecond process CPU clock (BenchClock loads it from -Dbench.clock=<path>).
add_library(bench_clock SHARED bench/process_cpu_clock.c)
target_include_directories(bench_clock PRIVATE ${JNI_INCLUDES})
