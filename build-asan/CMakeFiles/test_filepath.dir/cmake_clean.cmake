file(REMOVE_RECURSE
  "CMakeFiles/test_filepath.dir/test/native/test_filepath.c.o"
  "CMakeFiles/test_filepath.dir/test/native/test_filepath.c.o.d"
  "bin/test_filepath"
  "bin/test_filepath.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_filepath.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
