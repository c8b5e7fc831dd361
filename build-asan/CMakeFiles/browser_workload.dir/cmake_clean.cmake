file(REMOVE_RECURSE
  "CMakeFiles/browser_workload"
  "browser-classes/FlameWorkload.class"
)

# Per-language clean rules from dependency scanning.
foreach(lang )
  include(CMakeFiles/browser_workload.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
