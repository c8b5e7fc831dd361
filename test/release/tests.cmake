# The tarball of ./build.sh dist (build/dist/libprof-<version>-linux-x64.tar.gz): dist.glibc_versions reads
# every binary in it with objdump (nothing newer than GLIBC_2.17, no libstdc++, only libc, libm, libdl,
# libpthread, librt); dist.root.<root> runs it inside Debian roots on their own JDKs (test/release/root_tests.sh).
# Both fail when the tarball is missing: ./build.sh test makes it first.
set(LIBPROF_TARBALL ${CMAKE_BINARY_DIR}/dist/libprof-${PROJECT_VERSION}-linux-x64.tar.gz)
_libprof_add_test(dist.glibc_versions COMMAND bash ${CMAKE_SOURCE_DIR}/test/release/check_portable.sh ${LIBPROF_TARBALL})
# The linux-arm64 tarball likewise (its jar carries both platforms' libraries, each checked).
_libprof_add_test(dist.glibc_versions_arm64 COMMAND bash ${CMAKE_SOURCE_DIR}/test/release/check_portable.sh
                  ${CMAKE_BINARY_DIR}/dist/libprof-${PROJECT_VERSION}-linux-arm64.tar.gz)
foreach(root bullseye trixie)
  _libprof_add_test(dist.root.${root}
    COMMAND bash ${CMAKE_SOURCE_DIR}/test/release/root_tests.sh ${root} ${LIBPROF_TARBALL} ${CMAKE_SOURCE_DIR}
            ${CMAKE_BINARY_DIR}/dist-tests/${root}
    PROPERTIES TIMEOUT 1800 RESOURCE_LOCK debian_roots)
endforeach()
