# Java workloads (test/java/*.java) compiled for the oldest JDK we test, and the integration tests: one
# libprof_java_tests call per driver class with its cases, each case run on every JDK found (JDK 17, and
# Temurin 25 when present) as ctest it.<jdk>.<suite>.<case> (test/testing.cmake).
set(TEST_CLASSES ${CMAKE_BINARY_DIR}/test-classes)
compile_java(java_workloads ${CMAKE_SOURCE_DIR}/test/java ${TEST_CLASSES})
set(PROF_JFRCONV_ARGS <CASE> <JDK> $<TARGET_FILE:prof> $<TARGET_FILE:jfrconv> ${TEST_CLASSES} <WORK>)

# The profiler as a whole (IntegrationTest.java): shares and totals per engine, threads, options, text report,
# naming and filters, timeout, attach, exit paths, native chains and stitching, the perf engine.
libprof_java_tests(core IntegrationTest CASES shares_ctimer shares_itimer total_ctimer total_itimer threads
    bad_options exit_while_profiling text_report naming_and_filters timeout long_interval_exit loop_covers_run loop_dir_gone attach_load app_owns_sigprof stress
    exit_paths native_chain_fp native_chain_nofp_fp_mode native_chain_nofp_dwarf native_chain_nofp_default
    deflate_into_zlib jvm_threads shares_perf shares_sigtrap total_perf perf_fallback kernel_frames kernel_frames_sigtrap alluser perf_thread_churn
    perf_fd_limit perf_kernel_refused perf_page_faults perf_slow_handler perf_slow_handler_sigtrap)

# Method instrumentation (InstrumentTest.java).
libprof_java_tests(instrument InstrumentTest CASES counts selection jdk_classes attach javac bad_targets)

# Interleaved Java/native stacks (InterleavedTest.java, cstack=vm) through libcallback.so.
libprof_java_tests(interleaved InterleavedTest CASES callback_vm callback_stitching stress_vm)

# The Java frames the cstack=vm walker names itself (JavaFramesTest.java): inlined chains, frame
# types, samples in JIT stubs, features=agct.
libprof_java_tests(java_frames JavaFramesTest CASES inlined_chain frame_types arraycopy_stub megamorphic_stub
    agct_feature)

# Native frames unwound through .debug_frame alone, in the library or its separate debug file.
libprof_java_tests(debug_frame DebugFrameTest CASES in_library split)

# Failure markers on a deoptimisation-heavy workload, and samples in the stubs whose frames the walker reads
# from their code keeping their Java callers (FailureMarkersTest.java, StubFrames.java), and samples
# taken while HotSpot unpacks deoptimised frames keeping theirs (DeoptUnpack.java).
libprof_java_tests(failure_markers FailureMarkersTest CASES deopt_storm exception_blob subtype_check deopt_unpack transit virtual_threads)

# JFR recordings checked with the jfr tool of the JDK that ran each workload (JfrTest.java).
libprof_java_tests(jfr JfrTest CASES stacks chunks_by_size chunks_by_time exit attach_dump jfropts)

# jfrconv (JfrconvTest.java): recordings made by the JDK itself, and one session written both ways (file=x.jfr
# streamed, collapsed at stop) whose conversion equals it; bad inputs (cut and corrupted from a JDK recording
# of the fuzz corpus) once, as they need no JVM.
libprof_java_tests(jfrconv JfrconvTest CASES jdk_recording roundtrip cpu_time_sample ARGS ${PROF_JFRCONV_ARGS})
# --classify, --skip, --grain on a workload of known categories, ours and the JDK's; --diff of two recordings.
libprof_java_tests(jfrconv JfrconvTest CASES shaping diff_jfr ARGS ${PROF_JFRCONV_ARGS})
libprof_java_tests(jfrconv JfrconvTest ONCE CASES bad_input
    ARGS ${PROF_JFRCONV_ARGS} ${CMAKE_SOURCE_DIR}/test/native/corpus/jfr/jdk17-min.jfr)

# What is left of a JFR recording when things go wrong (JfrRecoveryTest.java): a JVM killed with SIGKILL, a
# full disk (a tmpfs in a private mount namespace; skipped, exit 77, where none can be mounted); a FIFO as
# jfrconv's input once, as it needs no JVM.
libprof_java_tests(jfr_recovery JfrRecoveryTest CASES killed disk_full ARGS ${PROF_JFRCONV_ARGS}
    PROPERTIES SKIP_RETURN_CODE 77)
libprof_java_tests(jfr_recovery JfrRecoveryTest ONCE CASES jfrconv_fifo_input ARGS ${PROF_JFRCONV_ARGS} TIMEOUT 120)

# The files the agent and jfrconv write (FilesTest.java): private recordings in progress, planted temporary
# names, a failed move, devices and links written in place.
libprof_java_tests(files FilesTest CASES jfr_private jfr_planted jfr_stop_typo devices jfrconv_stdout_link
    ARGS <CASE> <JDK> $<TARGET_FILE:prof> ${TEST_CLASSES} <WORK> $<TARGET_FILE:jfrconv>)

# What a user sees first (UserFacingTest.java): the demo's summary, quiet stderr, log= safety and destination,
# native names, stop/dump after a session ended.
libprof_java_tests(user UserFacingTest JAVA_OPTIONS -Dsource.dir=${CMAKE_SOURCE_DIR} CASES demo_summary
    quiet_stderr log_file_refused log_after_attach ended_session native_names)

# Thread names and stack bounds (ThreadNamingTest.java).
libprof_java_tests(thread_naming ThreadNamingTest CASES thread_rename thread_name_escape thread_jvm_names
    jstackdepth_vm jstackdepth_fp jstackdepth_dwarf jstackdepth_no)

# The profiling signal against other parties (SignalsTest.java): an application that
# takes SIGPROF or ITIMER_PROF after profiling started (libsigprof_app.so), SIGPROF sent with kill, a seccomp
# filter that kills on process_vm_readv (seccomp_launch).
libprof_java_tests(signals SignalsTest CASES foreign_kill_cpu foreign_kill_ctimer foreign_kill_itimer foreign_kill_wall
    late_handler_cpu late_handler_ctimer late_handler_itimer late_handler_sigtrap late_handler_sigtrap_raw
    late_handler_sigtrap_sigset
    late_setitimer_cpu late_setitimer_itimer late_block_cpu
    seccomp_vm seccomp_dwarf seccomp_fp seccomp_no seccomp_ctimer seccomp_itimer seccomp_bounded)

# Wall-clock profiling and several events in one session (WallTest.java): known sleeping and
# blocked threads (WallWorkload), event=cpu,wall in one recording read by the JDK's jfr tool and separated by
# jfrconv.
libprof_java_tests(wall WallTest CASES half_sleep_cpu_and_wall thread_states many_threads same_wait ARGS ${PROF_JFRCONV_ARGS})

# Allocation and lock profiling (AllocLockTest.java): 3:1 allocation shares, live objects, a lock
# held for a known time, our JFR events read by the JDK's jfr, the JDK's own recordings converted.
libprof_java_tests(alloclock AllocLockTest CASES alloc_shares alloc_live alloc_startup lock_time jfr_events jdk_recording combined
    ARGS ${PROF_JFRCONV_ARGS})
libprof_java_tests(alloclock AllocLockTest ONCE CASES bad_options ARGS ${PROF_JFRCONV_ARGS})
# Native memory and native lock profiling (NativeMemTest.java) over libnativemem.so: exact counts and
# bytes per call site, leaks, a contended mutex's waiters, no hook left behind after attach and stop,
# recordings read by the JDK's jfr and converted by jfrconv, nativemem beside event=cpu.
libprof_java_tests(nativemem NativeMemTest CASES sites leak lock attach jfr with_cpu
    JAVA_OPTIONS -Djfrconv=$<TARGET_FILE:jfrconv>)
# libprof in async-profiler's place (DropInTest.java): copies of the library loaded beside the agent, its
# option spellings.
libprof_java_tests(dropin DropInTest CASES two_copies cpu_token metrics_before_start context_switches)
