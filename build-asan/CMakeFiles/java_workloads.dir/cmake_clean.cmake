file(REMOVE_RECURSE
  "CMakeFiles/java_workloads"
  "test-classes/.stamp"
)

# Per-language clean rules from dependency scanning.
foreach(lang )
  include(CMakeFiles/java_workloads.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
