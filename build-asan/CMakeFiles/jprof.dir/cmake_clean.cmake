file(REMOVE_RECURSE
  "CMakeFiles/jprof.dir/attach/attach_listener.c.o"
  "CMakeFiles/jprof.dir/attach/attach_listener.c.o.d"
  "CMakeFiles/jprof.dir/attach/hotspot_attach.c.o"
  "CMakeFiles/jprof.dir/attach/hotspot_attach.c.o.d"
  "CMakeFiles/jprof.dir/attach/identity.c.o"
  "CMakeFiles/jprof.dir/attach/identity.c.o.d"
  "CMakeFiles/jprof.dir/attach/jprof.c.o"
  "CMakeFiles/jprof.dir/attach/jprof.c.o.d"
  "CMakeFiles/jprof.dir/attach/jprof_args.c.o"
  "CMakeFiles/jprof.dir/attach/jprof_args.c.o.d"
  "CMakeFiles/jprof.dir/attach/jprof_help.c.o"
  "CMakeFiles/jprof.dir/attach/jprof_help.c.o.d"
  "CMakeFiles/jprof.dir/attach/jvm_finder.c.o"
  "CMakeFiles/jprof.dir/attach/jvm_finder.c.o.d"
  "CMakeFiles/jprof.dir/attach/proc_target.c.o"
  "CMakeFiles/jprof.dir/attach/proc_target.c.o.d"
  "CMakeFiles/jprof.dir/attach/session_dir.c.o"
  "CMakeFiles/jprof.dir/attach/session_dir.c.o.d"
  "bin/jprof"
  "bin/jprof.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/jprof.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
