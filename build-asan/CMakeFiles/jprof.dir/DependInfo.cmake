
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/attach/attach_listener.c" "CMakeFiles/jprof.dir/attach/attach_listener.c.o" "gcc" "CMakeFiles/jprof.dir/attach/attach_listener.c.o.d"
  "/work/main/attach/hotspot_attach.c" "CMakeFiles/jprof.dir/attach/hotspot_attach.c.o" "gcc" "CMakeFiles/jprof.dir/attach/hotspot_attach.c.o.d"
  "/work/main/attach/identity.c" "CMakeFiles/jprof.dir/attach/identity.c.o" "gcc" "CMakeFiles/jprof.dir/attach/identity.c.o.d"
  "/work/main/attach/jprof.c" "CMakeFiles/jprof.dir/attach/jprof.c.o" "gcc" "CMakeFiles/jprof.dir/attach/jprof.c.o.d"
  "/work/main/attach/jprof_args.c" "CMakeFiles/jprof.dir/attach/jprof_args.c.o" "gcc" "CMakeFiles/jprof.dir/attach/jprof_args.c.o.d"
  "/work/main/attach/jprof_help.c" "CMakeFiles/jprof.dir/attach/jprof_help.c.o" "gcc" "CMakeFiles/jprof.dir/attach/jprof_help.c.o.d"
  "/work/main/attach/jvm_finder.c" "CMakeFiles/jprof.dir/attach/jvm_finder.c.o" "gcc" "CMakeFiles/jprof.dir/attach/jvm_finder.c.o.d"
  "/work/main/attach/proc_target.c" "CMakeFiles/jprof.dir/attach/proc_target.c.o" "gcc" "CMakeFiles/jprof.dir/attach/proc_target.c.o.d"
  "/work/main/attach/session_dir.c" "CMakeFiles/jprof.dir/attach/session_dir.c.o" "gcc" "CMakeFiles/jprof.dir/attach/session_dir.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  "/work/main/build-asan/CMakeFiles/profcore.dir/DependInfo.cmake"
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
