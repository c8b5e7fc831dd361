file(REMOVE_RECURSE
  "CMakeFiles/sigprof_app.dir/test/native/jni/sigprof_app.c.o"
  "CMakeFiles/sigprof_app.dir/test/native/jni/sigprof_app.c.o.d"
  "lib/libsigprof_app.pdb"
  "lib/libsigprof_app.so"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/sigprof_app.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
