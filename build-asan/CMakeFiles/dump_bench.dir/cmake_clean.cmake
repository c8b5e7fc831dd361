file(REMOVE_RECURSE
  "CMakeFiles/dump_bench.dir/bench/dump_bench.c.o"
  "CMakeFiles/dump_bench.dir/bench/dump_bench.c.o.d"
  "bin/dump_bench"
  "bin/dump_bench.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/dump_bench.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
