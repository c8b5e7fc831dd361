# libprof.jar (java/api): the Java API, its -javaagent entry and MBean, compiled for Java 8, with libprof.so
# packed inside (dev/libprof/native/libprof.so, with its SHA-256 beside it) so that the jar alone is enough: build/lib/libprof.jar.
set(API_CLASSES ${CMAKE_BINARY_DIR}/api-classes)
file(GLOB API_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/java/api/dev/libprof/*.java)
set(LIBPROF_JAR ${CMAKE_BINARY_DIR}/lib/libprof.jar)
# The manifest carries the version and the licence's name (cmake/version.cmake); the licence goes in whole.
set(API_MANIFEST ${CMAKE_BINARY_DIR}/generated/MANIFEST.MF)
configure_file(${CMAKE_SOURCE_DIR}/java/api/MANIFEST.MF ${API_MANIFEST} @ONLY)
add_custom_command(
  OUTPUT ${LIBPROF_JAR}
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${API_CLASSES}
  COMMAND ${JAVA_HOME}/bin/javac --release 8 -Xlint:-options -d ${API_CLASSES} ${API_SOURCES}
  COMMAND ${CMAKE_COMMAND} -E copy $<TARGET_FILE:prof> ${API_CLASSES}/dev/libprof/native/libprof.so
  COMMAND ${CMAKE_COMMAND} -DFILE=${API_CLASSES}/dev/libprof/native/libprof.so -P ${CMAKE_SOURCE_DIR}/java/api/checksum.cmake
  COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_SOURCE_DIR}/LICENSE ${API_CLASSES}/META-INF/LICENSE
  COMMAND ${JAVA_HOME}/bin/jar cfm ${LIBPROF_JAR} ${API_MANIFEST} -C ${API_CLASSES} .
  DEPENDS ${API_SOURCES} ${API_MANIFEST} ${CMAKE_SOURCE_DIR}/LICENSE ${CMAKE_SOURCE_DIR}/java/api/checksum.cmake prof
  COMMENT "Building libprof.jar (the Java API)")
add_custom_target(libprof_jar ALL DEPENDS ${LIBPROF_JAR})

# The C API's header, where a native program's build looks for it: build/include/libprof.h.
configure_file(${CMAKE_SOURCE_DIR}/agent/include/libprof.h ${CMAKE_BINARY_DIR}/include/libprof.h COPYONLY)
