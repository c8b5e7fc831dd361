file(REMOVE_RECURSE
  "CMakeFiles/test_demangle.dir/test/native/test_demangle.c.o"
  "CMakeFiles/test_demangle.dir/test/native/test_demangle.c.o.d"
  "bin/test_demangle"
  "bin/test_demangle.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_demangle.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
