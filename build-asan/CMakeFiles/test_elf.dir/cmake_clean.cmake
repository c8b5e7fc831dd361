file(REMOVE_RECURSE
  "CMakeFiles/test_elf.dir/test/native/test_elf.c.o"
  "CMakeFiles/test_elf.dir/test/native/test_elf.c.o.d"
  "bin/test_elf"
  "bin/test_elf.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_elf.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
