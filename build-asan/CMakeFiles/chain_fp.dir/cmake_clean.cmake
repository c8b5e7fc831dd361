file(REMOVE_RECURSE
  "CMakeFiles/chain_fp.dir/test/native/jni/chain.c.o"
  "CMakeFiles/chain_fp.dir/test/native/jni/chain.c.o.d"
  "lib/libchain_fp.pdb"
  "lib/libchain_fp.so"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/chain_fp.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
