# async-profiler's modes and options as its users spell them (CompatTest.java): what the recording holds.
libprof_java_tests(compat CompatTest CASES wall_nobatch attach_at_startup all_mode)
