
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/attach/attach_listener.c" "CMakeFiles/test_attach_units.dir/attach/attach_listener.c.o" "gcc" "CMakeFiles/test_attach_units.dir/attach/attach_listener.c.o.d"
  "/work/main/attach/hotspot_attach.c" "CMakeFiles/test_attach_units.dir/attach/hotspot_attach.c.o" "gcc" "CMakeFiles/test_attach_units.dir/attach/hotspot_attach.c.o.d"
  "/work/main/attach/jprof_args.c" "CMakeFiles/test_attach_units.dir/attach/jprof_args.c.o" "gcc" "CMakeFiles/test_attach_units.dir/attach/jprof_args.c.o.d"
  "/work/main/attach/jvm_finder.c" "CMakeFiles/test_attach_units.dir/attach/jvm_finder.c.o" "gcc" "CMakeFiles/test_attach_units.dir/attach/jvm_finder.c.o.d"
  "/work/main/attach/proc_target.c" "CMakeFiles/test_attach_units.dir/attach/proc_target.c.o" "gcc" "CMakeFiles/test_attach_units.dir/attach/proc_target.c.o.d"
  "/work/main/attach/session_dir.c" "CMakeFiles/test_attach_units.dir/attach/session_dir.c.o" "gcc" "CMakeFiles/test_attach_units.dir/attach/session_dir.c.o.d"
  "/work/main/test/attach/test_attach_units.c" "CMakeFiles/test_attach_units.dir/test/attach/test_attach_units.c.o" "gcc" "CMakeFiles/test_attach_units.dir/test/attach/test_attach_units.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build-asan/CMakeFiles/profcore.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
