file(REMOVE_RECURSE
  "CMakeFiles/attach_classes"
  "attach-classes/AttachTarget.class"
)

# Per-language clean rules from dependency scanning.
foreach(lang )
  include(CMakeFiles/attach_classes.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
