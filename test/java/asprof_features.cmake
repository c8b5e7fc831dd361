# Features async-profiler's users rely on (AsprofFeaturesTest.java): mixed allocation stacks.
libprof_java_tests(asprof_features AsprofFeaturesTest CASES alloc_mixed_fp alloc_mixed_vm)
