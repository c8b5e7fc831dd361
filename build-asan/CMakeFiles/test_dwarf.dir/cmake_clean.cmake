file(REMOVE_RECURSE
  "CMakeFiles/test_dwarf.dir/test/native/dwarf_chain.c.o"
  "CMakeFiles/test_dwarf.dir/test/native/dwarf_chain.c.o.d"
  "CMakeFiles/test_dwarf.dir/test/native/test_dwarf.c.o"
  "CMakeFiles/test_dwarf.dir/test/native/test_dwarf.c.o.d"
  "bin/test_dwarf"
  "bin/test_dwarf.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_dwarf.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
