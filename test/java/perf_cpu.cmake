# The perf engine's options (PerfCpuTest.java): target-cpu, record-cpu against threads pinned to CPUs, hardware
# events, jprof --fdtransfer.
libprof_java_tests(perf_cpu PerfCpuTest CASES target_cpu record_cpu record_cpu_jfr refused hardware fdtransfer)
