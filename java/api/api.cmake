# libprof.jar (java/api): the Java API, its -javaagent entry and MBean, compiled for Java 8, with libprof.so
# packed inside (dev/libprof/native/<platform>/libprof.so, with its SHA-256 beside it) so that the jar alone is
# enough: build/lib/libprof.jar. The platform is linux-x64 or linux-arm64 (the names of the release
# tarballs); LIBPROF_JAR_OTHER_NATIVE=<platform>=<libprof.so> packs another platform's build beside this one
# (./build.sh dist: one jar serving both).
set(API_CLASSES ${CMAKE_BINARY_DIR}/api-classes)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  set(LIBPROF_PLATFORM linux-arm64)
else()
  set(LIBPROF_PLATFORM linux-x64)
endif()
set(LIBPROF_JAR_OTHER_NATIVE "" CACHE STRING "<platform>=<path of its libprof.so> to pack into libprof.jar too")
set(API_OTHER_NATIVE_COMMANDS)
set(API_OTHER_NATIVE)
if(LIBPROF_JAR_OTHER_NATIVE MATCHES "^(linux-x64|linux-arm64)=(.+)$")
  set(other_dir ${API_CLASSES}/dev/libprof/native/${CMAKE_MATCH_1})
  set(API_OTHER_NATIVE ${CMAKE_MATCH_2})
  set(API_OTHER_NATIVE_COMMANDS
      COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_MATCH_2} ${other_dir}/libprof.so
      COMMAND ${CMAKE_COMMAND} -DFILE=${other_dir}/libprof.so -P ${CMAKE_SOURCE_DIR}/java/api/checksum.cmake)
elseif(LIBPROF_JAR_OTHER_NATIVE)
  message(FATAL_ERROR "LIBPROF_JAR_OTHER_NATIVE='${LIBPROF_JAR_OTHER_NATIVE}': accepted: linux-x64=<path> or linux-arm64=<path>")
endif()
file(GLOB API_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/java/api/dev/libprof/*.java)
set(LIBPROF_JAR ${CMAKE_BINARY_DIR}/lib/libprof.jar)
# The manifest carries the version and the licence's name (cmake/version.cmake); the licence goes in whole.
set(API_MANIFEST ${CMAKE_BINARY_DIR}/generated/MANIFEST.MF)
configure_file(${CMAKE_SOURCE_DIR}/java/api/MANIFEST.MF ${API_MANIFEST} @ONLY)
add_custom_command(
  OUTPUT ${LIBPROF_JAR}
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${API_CLASSES}
  COMMAND ${JAVA_HOME}/bin/javac --release 8 -Xlint:-options -d ${API_CLASSES} ${API_SOURCES}
  COMMAND ${CMAKE_COMMAND} -E copy $<TARGET_FILE:prof> ${API_CLASSES}/dev/libprof/native/${LIBPROF_PLATFORM}/libprof.so
  COMMAND ${CMAKE_COMMAND} -DFILE=${API_CLASSES}/dev/libprof/native/${LIBPROF_PLATFORM}/libprof.so
          -P ${CMAKE_SOURCE_DIR}/java/api/checksum.cmake
  ${API_OTHER_NATIVE_COMMANDS}
  COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_SOURCE_DIR}/LICENSE ${API_CLASSES}/META-INF/LICENSE
  COMMAND ${JAVA_HOME}/bin/jar cfm ${LIBPROF_JAR} ${API_MANIFEST} -C ${API_CLASSES} .
  DEPENDS ${API_SOURCES} ${API_MANIFEST} ${API_OTHER_NATIVE} ${CMAKE_SOURCE_DIR}/LICENSE ${CMAKE_SOURCE_DIR}/java/api/checksum.cmake prof
  COMMENT "Building libprof.jar (the Java API)")
add_custom_target(libprof_jar ALL DEPENDS ${LIBPROF_JAR})

# The C API's header, where a native program's build looks for it: build/include/libprof.h.
configure_file(${CMAKE_SOURCE_DIR}/agent/include/libprof.h ${CMAKE_BINARY_DIR}/include/libprof.h COPYONLY)
