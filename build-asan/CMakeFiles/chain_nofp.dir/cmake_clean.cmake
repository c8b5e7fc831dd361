file(REMOVE_RECURSE
  "CMakeFiles/chain_nofp.dir/test/native/jni/chain.c.o"
  "CMakeFiles/chain_nofp.dir/test/native/jni/chain.c.o.d"
  "lib/libchain_nofp.pdb"
  "lib/libchain_nofp.so"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/chain_nofp.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
