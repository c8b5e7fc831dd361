# jfrconv: converts JFR recordings (ours and the JDK's) into the agent's output formats, built to
# build/bin/jfrconv. The reader and the converter live in profcore (agent/jfr_read_*.c, agent/jfr_convert.c).
add_executable(jfrconv jfrconv/jfrconv.c jfrconv/jfrconv_args.c)
target_include_directories(jfrconv PRIVATE jfrconv)
target_link_libraries(jfrconv PRIVATE profcore)
