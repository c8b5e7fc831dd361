# jprof: attaches libprof.so to a running JVM (HotSpot attach protocol). Built to build/bin/jprof, next to
# build/lib/libprof.so, which is where jprof looks for the agent by default.
add_executable(jprof
  attach/jprof.c attach/jprof_args.c attach/jprof_help.c attach/hotspot_attach.c attach/attach_listener.c
  attach/proc_target.c attach/identity.c attach/session_dir.c attach/jvm_finder.c attach/target_fs.c
  attach/fdtransfer_helper.c)
target_include_directories(jprof PRIVATE attach)
target_link_libraries(jprof PRIVATE profcore)
add_dependencies(jprof prof)
