# jfrconv: converts JFR recordings (ours and the JDK's) into the agent's output formats, built to
# build/bin/jfrconv. The JFR reader (jfr_cursor, jfr_meta, jfr_rchunk, jfr_value, jfr_sample) and the
# converter (jfr_convert) are jfrconv's own library, never linked into the agent; the reader's unit tests
# and fuzz harness link it too.
add_library(jfrconv_lib STATIC
  jfrconv/jfr_cursor.c jfrconv/jfr_meta.c jfrconv/jfr_rchunk.c jfrconv/jfr_value.c jfrconv/jfr_sample.c
  jfrconv/jfr_gc.c jfrconv/jfr_latency.c jfrconv/jfr_convert.c)
target_include_directories(jfrconv_lib PUBLIC jfrconv)
target_link_libraries(jfrconv_lib PUBLIC profcore)

add_executable(jfrconv jfrconv/jfrconv.c jfrconv/jfrconv_args.c)
target_link_libraries(jfrconv PRIVATE jfrconv_lib)
