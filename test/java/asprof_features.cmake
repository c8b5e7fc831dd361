# Features async-profiler's users rely on (AsprofFeaturesTest.java): mixed allocation stacks, all with an instrumented method, ratelimit=, proc=, allocation by a second copy of the library.
libprof_java_tests(asprof_features AsprofFeaturesTest CASES alloc_mixed_fp alloc_mixed_vm all_with_method ratelimit proc alloc_second_copy)
