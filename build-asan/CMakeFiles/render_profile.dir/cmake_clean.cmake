file(REMOVE_RECURSE
  "CMakeFiles/render_profile.dir/test/browser/render_profile.c.o"
  "CMakeFiles/render_profile.dir/test/browser/render_profile.c.o.d"
  "bin/render_profile"
  "bin/render_profile.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/render_profile.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
