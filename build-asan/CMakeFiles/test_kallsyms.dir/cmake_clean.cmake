file(REMOVE_RECURSE
  "CMakeFiles/test_kallsyms.dir/test/native/test_kallsyms.c.o"
  "CMakeFiles/test_kallsyms.dir/test/native/test_kallsyms.c.o.d"
  "bin/test_kallsyms"
  "bin/test_kallsyms.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_kallsyms.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
