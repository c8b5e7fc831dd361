# The perf engine's options (PerfCpuTest.java): target-cpu, record-cpu against threads pinned to CPUs, hardware
# events, jprof --fdtransfer, a native function as the event.
libprof_java_tests(perf_cpu PerfCpuTest CASES target_cpu record_cpu record_cpu_jfr refused hardware fdtransfer
  native_function)
