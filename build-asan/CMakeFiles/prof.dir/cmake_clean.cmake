file(REMOVE_RECURSE
  "CMakeFiles/prof.dir/agent/codeheap.c.o"
  "CMakeFiles/prof.dir/agent/codeheap.c.o.d"
  "CMakeFiles/prof.dir/agent/dump.c.o"
  "CMakeFiles/prof.dir/agent/dump.c.o.d"
  "CMakeFiles/prof.dir/agent/engine.c.o"
  "CMakeFiles/prof.dir/agent/engine.c.o.d"
  "CMakeFiles/prof.dir/agent/engine_ctimer.c.o"
  "CMakeFiles/prof.dir/agent/engine_ctimer.c.o.d"
  "CMakeFiles/prof.dir/agent/engine_itimer.c.o"
  "CMakeFiles/prof.dir/agent/engine_itimer.c.o.d"
  "CMakeFiles/prof.dir/agent/entry.c.o"
  "CMakeFiles/prof.dir/agent/entry.c.o.d"
  "CMakeFiles/prof.dir/agent/java_tids.c.o"
  "CMakeFiles/prof.dir/agent/java_tids.c.o.d"
  "CMakeFiles/prof.dir/agent/jvm.c.o"
  "CMakeFiles/prof.dir/agent/jvm.c.o.d"
  "CMakeFiles/prof.dir/agent/profiler.c.o"
  "CMakeFiles/prof.dir/agent/profiler.c.o.d"
  "CMakeFiles/prof.dir/agent/safe_read.c.o"
  "CMakeFiles/prof.dir/agent/safe_read.c.o.d"
  "CMakeFiles/prof.dir/agent/sample.c.o"
  "CMakeFiles/prof.dir/agent/sample.c.o.d"
  "CMakeFiles/prof.dir/agent/threads.c.o"
  "CMakeFiles/prof.dir/agent/threads.c.o.d"
  "CMakeFiles/prof.dir/agent/vmstructs.c.o"
  "CMakeFiles/prof.dir/agent/vmstructs.c.o.d"
  "CMakeFiles/prof.dir/agent/walk_fp.c.o"
  "CMakeFiles/prof.dir/agent/walk_fp.c.o.d"
  "lib/libprof.pdb"
  "lib/libprof.so"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/prof.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
