file(REMOVE_RECURSE
  "CMakeFiles/test_options.dir/test/native/test_options.c.o"
  "CMakeFiles/test_options.dir/test/native/test_options.c.o.d"
  "bin/test_options"
  "bin/test_options.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_options.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
