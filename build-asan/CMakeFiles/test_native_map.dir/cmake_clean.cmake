file(REMOVE_RECURSE
  "CMakeFiles/test_native_map.dir/test/native/test_native_map.c.o"
  "CMakeFiles/test_native_map.dir/test/native/test_native_map.c.o.d"
  "bin/test_native_map"
  "bin/test_native_map.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_native_map.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
