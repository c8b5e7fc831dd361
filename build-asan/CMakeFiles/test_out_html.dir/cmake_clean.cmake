file(REMOVE_RECURSE
  "CMakeFiles/test_out_html.dir/test/native/test_out_html.c.o"
  "CMakeFiles/test_out_html.dir/test/native/test_out_html.c.o.d"
  "bin/test_out_html"
  "bin/test_out_html.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/test_out_html.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
