# The tests and benchmarks. They need what the product does not (cmocka, libunwind, the test JDKs' tools,
# go, promtool, the browser): LIBPROF_TESTS defaults to ON when cmocka is found, and with it OFF the product
# configures and builds with its own dependencies only (./build.sh build; the portable build of
# ./build.sh dist).
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(CMOCKA QUIET cmocka)
endif()
if(CMOCKA_FOUND)
  set(tests_default ON)
else()
  set(tests_default OFF)
endif()
option(LIBPROF_TESTS "configure the unit, integration, attach, browser and release tests and the benchmarks"
       ${tests_default})
if(NOT LIBPROF_TESTS)
  message(STATUS "libprof: tests not configured (LIBPROF_TESTS=OFF; cmocka found: ${CMOCKA_FOUND})")
  return()
endif()
if(NOT CMOCKA_FOUND)
  message(FATAL_ERROR "LIBPROF_TESTS=ON needs cmocka (Debian: libcmocka-dev; ./build.sh test installs it)")
endif()

enable_testing()
include(test/testing.cmake)    # one function per kind of test, one naming scheme
include(test/native/tests.cmake)
include(test/native/classfile.cmake)
include(test/attach/tests.cmake)
include(test/java/tests.cmake)
include(test/java/compat.cmake)    # async-profiler's modes and options: all, nobatch, ...
include(test/java/safety.cmake)   # hostile neighbours: crash reporters, shared directories, DEEPBIND allocators
include(test/java/jfrsync.cmake)   # jfrsync, begin=/end=, ttsp
include(test/java/instr/instr.cmake)   # the class file rewriter: behaviour suite, real jars
include(test/java/trace.cmake)   # latency tracing: trace=, jdk.MethodTrace, jfrconv --latency
include(test/java/vm_features.cmake)   # the walker's VM-structure features: intrinsic stubs, vtable, comptask
include(test/java/asprof_features.cmake)   # async-profiler features: mixed alloc stacks, all with a method, ratelimit, proc
include(test/java/perf_cpu.cmake)   # perf events: target-cpu, record-cpu
include(bench/bench.cmake)
include(test/browser/tests.cmake)
# The API: Java API, async-profiler's natives, -javaagent/JMX, C API host, LD_PRELOAD.
include(test/java/api/tests.cmake)
include(test/native/nonjava/nonjava.cmake)   # programs with no JVM: LD_PRELOAD, the C API, nativemem
include(test/otlp/otlp.cmake)            # OpenTelemetry profiles, decoded by protoc
include(test/release/tests.cmake)      # the tarball of ./build.sh dist: its symbols, and runs in Debian roots
include(test/arm64/tests.cmake)        # linux-arm64: the cross build, its jfrconv under qemu-user

# Benchmarks: built on request only (cmake --build build --target bench_symbols).
add_executable(bench_symbols EXCLUDE_FROM_ALL bench/bench_symbols.c)
target_link_libraries(bench_symbols PRIVATE profcore dl)
