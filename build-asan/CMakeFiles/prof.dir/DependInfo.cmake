
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/agent/codeheap.c" "CMakeFiles/prof.dir/agent/codeheap.c.o" "gcc" "CMakeFiles/prof.dir/agent/codeheap.c.o.d"
  "/work/main/agent/dump.c" "CMakeFiles/prof.dir/agent/dump.c.o" "gcc" "CMakeFiles/prof.dir/agent/dump.c.o.d"
  "/work/main/agent/engine.c" "CMakeFiles/prof.dir/agent/engine.c.o" "gcc" "CMakeFiles/prof.dir/agent/engine.c.o.d"
  "/work/main/agent/engine_ctimer.c" "CMakeFiles/prof.dir/agent/engine_ctimer.c.o" "gcc" "CMakeFiles/prof.dir/agent/engine_ctimer.c.o.d"
  "/work/main/agent/engine_itimer.c" "CMakeFiles/prof.dir/agent/engine_itimer.c.o" "gcc" "CMakeFiles/prof.dir/agent/engine_itimer.c.o.d"
  "/work/main/agent/entry.c" "CMakeFiles/prof.dir/agent/entry.c.o" "gcc" "CMakeFiles/prof.dir/agent/entry.c.o.d"
  "/work/main/agent/java_tids.c" "CMakeFiles/prof.dir/agent/java_tids.c.o" "gcc" "CMakeFiles/prof.dir/agent/java_tids.c.o.d"
  "/work/main/agent/jvm.c" "CMakeFiles/prof.dir/agent/jvm.c.o" "gcc" "CMakeFiles/prof.dir/agent/jvm.c.o.d"
  "/work/main/agent/profiler.c" "CMakeFiles/prof.dir/agent/profiler.c.o" "gcc" "CMakeFiles/prof.dir/agent/profiler.c.o.d"
  "/work/main/agent/safe_read.c" "CMakeFiles/prof.dir/agent/safe_read.c.o" "gcc" "CMakeFiles/prof.dir/agent/safe_read.c.o.d"
  "/work/main/agent/sample.c" "CMakeFiles/prof.dir/agent/sample.c.o" "gcc" "CMakeFiles/prof.dir/agent/sample.c.o.d"
  "/work/main/agent/threads.c" "CMakeFiles/prof.dir/agent/threads.c.o" "gcc" "CMakeFiles/prof.dir/agent/threads.c.o.d"
  "/work/main/agent/vmstructs.c" "CMakeFiles/prof.dir/agent/vmstructs.c.o" "gcc" "CMakeFiles/prof.dir/agent/vmstructs.c.o.d"
  "/work/main/agent/walk_fp.c" "CMakeFiles/prof.dir/agent/walk_fp.c.o" "gcc" "CMakeFiles/prof.dir/agent/walk_fp.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build-asan/CMakeFiles/profcore.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
