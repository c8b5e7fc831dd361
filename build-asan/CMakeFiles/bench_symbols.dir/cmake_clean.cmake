file(REMOVE_RECURSE
  "CMakeFiles/bench_symbols.dir/bench/bench_symbols.c.o"
  "CMakeFiles/bench_symbols.dir/bench/bench_symbols.c.o.d"
  "bin/bench_symbols"
  "bin/bench_symbols.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/bench_symbols.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
