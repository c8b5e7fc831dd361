# The version and the licence, from project() in CMakeLists.txt: compiled into every program as LIBPROF_VERSION
# and LIBPROF_LICENSE, written into the jar's manifest, and kept in build/VERSION for ./build.sh dist (the
# tarball's name).
add_compile_definitions(LIBPROF_VERSION="${PROJECT_VERSION}" LIBPROF_LICENSE="Apache-2.0")
set(LIBPROF_LICENSE Apache-2.0)
file(WRITE ${CMAKE_BINARY_DIR}/VERSION "${PROJECT_VERSION}\n")
