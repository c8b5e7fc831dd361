# Cross-compiling for Linux on aarch64 with Debian's cross toolchain (gcc-aarch64-linux-gnu, binutils
# included): cmake -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DLIBPROF_TESTS=OFF.
# Libraries (protobuf-c, zlib) come from Debian's arm64 packages (dpkg --add-architecture arm64;
# libprotobuf-c-dev:arm64 zlib1g-dev:arm64), which the cross compiler finds in /usr/lib/aarch64-linux-gnu.
# The JNI headers are the host JDK's: jni.h and linux/jni_md.h are the same on every Linux architecture.
# protoc-c and javac run on the build machine.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
# The signal allow-list and the layer check read the target's objects with the target's nm; the tests
# split debug information with its objcopy and strip.
set(CMAKE_NM aarch64-linux-gnu-nm)
set(CMAKE_OBJCOPY aarch64-linux-gnu-objcopy)
set(CMAKE_STRIP aarch64-linux-gnu-strip)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
