file(REMOVE_RECURSE
  "CMakeFiles/test_sample_cost.dir/test/native/test_sample_cost.c.o"
  "CMakeFiles/test_sample_cost.dir/test/native/test_sample_cost.c.o.d"
  "bin/test_sample_cost"
  "bin/test_sample_cost.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_sample_cost.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
