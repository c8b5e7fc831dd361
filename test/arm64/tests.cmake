# linux-arm64: arm64.build cross-builds the product from the same sources (test/arm64/cross_build.sh,
# cmake/aarch64-linux-gnu.cmake) into build/arm64; arm64.jfrconv runs that build's jfrconv under qemu-user
# on the JFR corpus against the host's. Both are skipped (77) when the cross toolchain, the arm64 libraries
# or qemu are missing; ./build.sh test installs them.
set(LIBPROF_ARM64_BUILD ${CMAKE_BINARY_DIR}/arm64)
_libprof_add_test(arm64.build
  COMMAND bash ${CMAKE_SOURCE_DIR}/test/arm64/cross_build.sh build ${CMAKE_SOURCE_DIR} ${LIBPROF_ARM64_BUILD}
  PROPERTIES TIMEOUT 1200 SKIP_RETURN_CODE 77 FIXTURES_SETUP arm64_build)
_libprof_add_test(arm64.jfrconv
  COMMAND bash ${CMAKE_SOURCE_DIR}/test/arm64/cross_build.sh jfrconv ${CMAKE_SOURCE_DIR} ${LIBPROF_ARM64_BUILD}
          $<TARGET_FILE:jfrconv>
  PROPERTIES TIMEOUT 600 SKIP_RETURN_CODE 77 FIXTURES_REQUIRED arm64_build)
