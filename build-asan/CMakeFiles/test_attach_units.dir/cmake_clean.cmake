file(REMOVE_RECURSE
  "CMakeFiles/test_attach_units.dir/attach/attach_listener.c.o"
  "CMakeFiles/test_attach_units.dir/attach/attach_listener.c.o.d"
  "CMakeFiles/test_attach_units.dir/attach/hotspot_attach.c.o"
  "CMakeFiles/test_attach_units.dir/attach/hotspot_attach.c.o.d"
  "CMakeFiles/test_attach_units.dir/attach/jprof_args.c.o"
  "CMakeFiles/test_attach_units.dir/attach/jprof_args.c.o.d"
  "CMakeFiles/test_attach_units.dir/attach/jvm_finder.c.o"
  "CMakeFiles/test_attach_units.dir/attach/jvm_finder.c.o.d"
  "CMakeFiles/test_attach_units.dir/attach/proc_target.c.o"
  "CMakeFiles/test_attach_units.dir/attach/proc_target.c.o.d"
  "CMakeFiles/test_attach_units.dir/attach/session_dir.c.o"
  "CMakeFiles/test_attach_units.dir/attach/session_dir.c.o.d"
  "CMakeFiles/test_attach_units.dir/test/attach/test_attach_units.c.o"
  "CMakeFiles/test_attach_units.dir/test/attach/test_attach_units.c.o.d"
  "bin/test_attach_units"
  "bin/test_attach_units.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_attach_units.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
