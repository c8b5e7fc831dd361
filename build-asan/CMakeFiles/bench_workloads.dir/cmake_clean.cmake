file(REMOVE_RECURSE
  "CMakeFiles/bench_workloads"
  "bench-classes/.stamp"
)

# Per-language clean rules from dependency scanning.
foreach(lang )
  include(CMakeFiles/bench_workloads.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
