# Latency tracing (TraceTest.java): trace= over a workload of known durations, its JFR events read by the
# JDK's jfr, jfrconv --trace and --latency, trace= beside the other engines, its option syntax.
libprof_java_tests(trace TraceTest CASES slow_call jfr engines options latency_diff deep ARGS ${PROF_JFRCONV_ARGS} TIMEOUT 200)
