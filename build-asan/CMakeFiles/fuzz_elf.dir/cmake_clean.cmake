file(REMOVE_RECURSE
  "CMakeFiles/fuzz_elf.dir/test/native/fuzz_elf.c.o"
  "CMakeFiles/fuzz_elf.dir/test/native/fuzz_elf.c.o.d"
  "bin/fuzz_elf"
  "bin/fuzz_elf.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/fuzz_elf.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
