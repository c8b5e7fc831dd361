file(REMOVE_RECURSE
  "CMakeFiles/test_writers.dir/test/native/test_writers.c.o"
  "CMakeFiles/test_writers.dir/test/native/test_writers.c.o.d"
  "bin/test_writers"
  "bin/test_writers.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_writers.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
