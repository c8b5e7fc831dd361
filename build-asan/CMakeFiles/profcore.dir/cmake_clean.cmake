file(REMOVE_RECURSE
  "CMakeFiles/profcore.dir/agent/filepath.c.o"
  "CMakeFiles/profcore.dir/agent/filepath.c.o.d"
  "CMakeFiles/profcore.dir/agent/frame.c.o"
  "CMakeFiles/profcore.dir/agent/frame.c.o.d"
  "CMakeFiles/profcore.dir/agent/log.c.o"
  "CMakeFiles/profcore.dir/agent/log.c.o.d"
  "CMakeFiles/profcore.dir/agent/names.c.o"
  "CMakeFiles/profcore.dir/agent/names.c.o.d"
  "CMakeFiles/profcore.dir/agent/options.c.o"
  "CMakeFiles/profcore.dir/agent/options.c.o.d"
  "CMakeFiles/profcore.dir/agent/out_collapsed.c.o"
  "CMakeFiles/profcore.dir/agent/out_collapsed.c.o.d"
  "CMakeFiles/profcore.dir/agent/out_text.c.o"
  "CMakeFiles/profcore.dir/agent/out_text.c.o.d"
  "CMakeFiles/profcore.dir/agent/output.c.o"
  "CMakeFiles/profcore.dir/agent/output.c.o.d"
  "CMakeFiles/profcore.dir/agent/profile.c.o"
  "CMakeFiles/profcore.dir/agent/profile.c.o.d"
  "CMakeFiles/profcore.dir/agent/sample_cost.c.o"
  "CMakeFiles/profcore.dir/agent/sample_cost.c.o.d"
  "CMakeFiles/profcore.dir/agent/traces.c.o"
  "CMakeFiles/profcore.dir/agent/traces.c.o.d"
  "CMakeFiles/profcore.dir/agent/u64map.c.o"
  "CMakeFiles/profcore.dir/agent/u64map.c.o.d"
  "libprofcore.a"
  "libprofcore.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/profcore.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
