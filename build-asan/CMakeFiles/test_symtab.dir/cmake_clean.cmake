file(REMOVE_RECURSE
  "CMakeFiles/test_symtab.dir/test/native/test_symtab.c.o"
  "CMakeFiles/test_symtab.dir/test/native/test_symtab.c.o.d"
  "bin/test_symtab"
  "bin/test_symtab.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_symtab.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
