file(REMOVE_RECURSE
  "CMakeFiles/test_traces.dir/test/native/test_traces.c.o"
  "CMakeFiles/test_traces.dir/test/native/test_traces.c.o.d"
  "bin/test_traces"
  "bin/test_traces.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_traces.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
