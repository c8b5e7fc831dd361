# jfrconv: converts JFR recordings (ours and the JDK's) into the agent's output formats, built to
# build/bin/jfrconv. The JFR reader (jfr_read_*.c) and the converter (jfr_convert.c) are jfrconv's own
# library, never linked into the agent; the unit tests and the fuzz harness of the reader link it too.
add_library(jfrconv_lib STATIC
  jfrconv/jfr_read_cursor.c jfrconv/jfr_read_meta.c jfrconv/jfr_read_chunk.c jfrconv/jfr_read_value.c
  jfrconv/jfr_read_sample.c jfrconv/jfr_convert.c)
target_include_directories(jfrconv_lib PUBLIC jfrconv)
target_link_libraries(jfrconv_lib PUBLIC profcore)

add_executable(jfrconv jfrconv/jfrconv.c jfrconv/jfrconv_args.c)
target_link_libraries(jfrconv PRIVATE jfrconv_lib)
