file(REMOVE_RECURSE
  "CMakeFiles/test_profile.dir/test/native/test_profile.c.o"
  "CMakeFiles/test_profile.dir/test/native/test_profile.c.o.d"
  "bin/test_profile"
  "bin/test_profile.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_profile.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
