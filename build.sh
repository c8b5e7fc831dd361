#!/usr/bin/env bash
# libprof build driver. Usage: ./build.sh [build|test|demo|demo-summary FILE|bench|stress|asan|clean]
#   build (default)  install missing packages (when root), configure and build into build/
#   test             build, then run every unit and integration test through ctest
#   demo             build, profile the bundled demo program, print where the profile is and its hot methods
#   demo-summary F   print that summary of the collapsed profile F (what demo prints at its end)
#   bench            build, run the benchmarks (about 13 minutes, plus BenchPeer), print the results tables;
#                    ASYNC_PROFILER_HOME=<async-profiler build> adds it side by side, BENCH_ONLY=peer runs that alone
#   stress           every stress scenario under each engine and each stack mode for 60 s each (STRESS_SECONDS
#                    to change), then 50 attach/start/stop cycles on one JVM
#   asan             unit tests built with AddressSanitizer + UndefinedBehaviorSanitizer (build-asan/)
set -euo pipefail
cd "$(dirname "$0")"
ROOT=$PWD
BUILD=$ROOT/build
JOBS=$(nproc 2>/dev/null || echo 2)

# Debian packages the product's build needs (protobuf-c and zlib: the pprof writer), and those only the tests,
# benchmarks and the release need besides.
# libunwind-dev: only test_dwarf links it, as an independent oracle for our DWARF unwinder (docs/dev/architecture.md).
# golang-go: go tool pprof reads the pprof output; prometheus: promtool reads the metrics output as Prometheus
# does; debootstrap: the Debian roots of ./build.sh dist and of the release tests; unzip: reads the jar there.
PACKAGES=(cmake gcc make openjdk-17-jdk-headless protobuf-c-compiler libprotobuf-c-dev zlib1g-dev)
TEST_PACKAGES=(pkg-config libunwind-dev libcmocka-dev
          libguava-java libcommons-lang3-java libcommons-io-java libguice-java   # jars: the rewriter tests
          golang-go prometheus debootstrap unzip
          protobuf-compiler python3)   # protoc --decode reads the OpenTelemetry output (test/otlp)
# The linux-arm64 tests (test/arm64): Debian's cross compiler, the arm64 builds of the product's libraries
# (from the arm64 architecture added to dpkg), and qemu-user to run the arm64 tools.
ARM64_TEST_PACKAGES=(gcc-aarch64-linux-gnu libprotobuf-c-dev:arm64 zlib1g-dev:arm64 qemu-user-static
                     libcmocka-dev:arm64 libunwind-dev:arm64 libstdc++6:arm64)
ROOTS=${LIBPROF_ROOTS:-/var/cache/libprof/roots}
# The portable build's root: Debian 11's glibc 2.31 and GCC 10, with Debian 12's kernel headers (constants
# and structures for the newer perf features, which the agent checks at run time).
DIST_ROOT_PACKAGES=(gcc libc6-dev libstdc++-10-dev make cmake binutils protobuf-c-compiler libprotobuf-c-dev
                    zlib1g-dev openjdk-17-jdk-headless linux-libc-dev/bookworm)

install_missing() {   # [package...], default: PACKAGES
  local missing=() want=("$@")
  [ $# -eq 0 ] && want=("${PACKAGES[@]}")
  for p in "${want[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "build.sh: missing packages: ${missing[*]} (run as root, or install them yourself)" >&2
    return 0
  fi
  echo "build.sh: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

# The arm64 packages need dpkg to know the arm64 architecture first (root only; install_missing says what
# is missing otherwise, and the arm64.* tests are skipped).
install_arm64_test_deps() {
  if [ "$(id -u)" -eq 0 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
    echo "build.sh: adding the arm64 architecture to dpkg (for the arm64 libraries of the cross build)" >&2
    dpkg --add-architecture arm64
  fi
  install_missing "${ARM64_TEST_PACKAGES[@]}" ||
    echo "build.sh: the arm64 packages could not be installed: the arm64.* tests will be skipped" >&2
}

# The browser tests' needs: Debian's chromium and node (apt, when root), playwright-core and speedscope (npm,
# into test/browser/node_modules; speedscope's importers read the viewer formats in test/browser/viewers.test.js),
# @firefox-devtools/profiler-cli (the Firefox Profiler's own profile loading, test/browser/firefox.test.js).
# Whatever is still missing, the browser tests say so and fail.
install_browser_test_deps() {
  local want=()
  [ -x /usr/bin/chromium ] || want+=(chromium)
  command -v node >/dev/null || want+=(nodejs)
  command -v npm >/dev/null || want+=(npm)   # nodejs from other sources brings its own npm
  [ ${#want[@]} -eq 0 ] || install_missing "${want[@]}"
  if { [ ! -d "$ROOT/test/browser/node_modules/playwright-core" ] || [ ! -d "$ROOT/test/browser/node_modules/speedscope" ] ||
       [ ! -d "$ROOT/test/browser/node_modules/@firefox-devtools/profiler-cli" ]; } &&
     command -v npm >/dev/null; then
    echo "build.sh: installing playwright-core, speedscope and profiler-cli into test/browser/node_modules" >&2
    (cd "$ROOT/test/browser" && npm ci --no-audit --no-fund --loglevel=error >&2) ||
      echo "build.sh: npm ci failed; the browser tests will fail" >&2
  fi
}

# The demo's summary of a collapsed profile: the hot methods (leaf frames by self samples) and the hottest
# stacks read from the leaf, where a newcomer looks, not from the thread's root. Each pipeline ends in awk,
# which reads all its input: 'head' would close the pipe early and, under pipefail, fail the script (141).
demo_summary() {   # <collapsed profile>
  local tab=$'\t' total
  total=$(awk '{ s += $NF } END { print s + 0 }' "$1")
  echo "hottest methods (self samples: the leaf frames of $total samples):"
  awk '{ n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";"); self[f[k]] += n }
       END { for (m in self) printf "%d\t%s\n", self[m], m }' "$1" |
    sort -t "$tab" -k1,1nr -k2,2 |
    awk -F "$tab" -v total="$total" 'NR <= 8 { printf "  %6d %5.1f%%  %s\n", $1, 100 * $1 / (total ? total : 1), $2 }'
  echo "hottest stacks, leaf first:"
  awk '{ n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";"); s = f[k]
         for (i = k - 1; i >= 1; i--) s = s " <- " f[i]
         printf "%d\t%s\n", n, s }' "$1" |
    sort -t "$tab" -k1,1nr -k2,2 |
    awk -F "$tab" 'NR <= 5 { printf "  %6d  %s\n", $1, substr($2, 1, 150) }'
}

configure_and_build() {   # [with-tests]
  install_missing
  [ "${1:-}" = with-tests ] && install_missing "${TEST_PACKAGES[@]}"
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$BUILD" -j "$JOBS"
}

# The portable linux-arm64 build: Debian's aarch64 cross compiler against a Debian 11 arm64 root as its
# sysroot (glibc 2.31, as the x86-64 build's root; made by unpacking its packages, nothing of it runs), with
# Debian 12's kernel headers (the cross toolchain's, as the x86-64 root takes bookworm's linux-libc-dev).
ARM64_SYSROOT_PACKAGES=(libc6-dev libprotobuf-c-dev zlib1g-dev libstdc++-10-dev)
dist_arm64_build() {   # <build dir>
  install_arm64_test_deps
  local sysroot=$ROOTS/bullseye-arm64-sysroot headers=/usr/aarch64-linux-gnu/include
  "$ROOT/cmake/debian_root.sh" make-foreign "$sysroot" arm64 bullseye "${ARM64_SYSROOT_PACKAGES[@]}"
  [ -d "$headers/linux" ] || { echo "build.sh: no $headers/linux (Debian: linux-libc-dev-arm64-cross)" >&2; return 1; }
  cp -r "$headers/linux" "$headers/asm-generic" "$sysroot/usr/include/"
  cp -r "$headers/asm" "$sysroot/usr/include/aarch64-linux-gnu/"
  # The cross compiler looks in its own glibc (Debian 12's, /usr/aarch64-linux-gnu) before the sysroot: the
  # root's headers, start files and libraries are named first. The static demangler (libsupc++.a,
  # cmake/portable.cmake) is the root's GCC 10's.
  local s=$sysroot cflags ldflags
  cflags="-isystem $s/usr/include/aarch64-linux-gnu -isystem $s/usr/include"
  ldflags="-B$s/usr/lib/aarch64-linux-gnu/ -L$s/usr/lib/aarch64-linux-gnu -L$s/lib/aarch64-linux-gnu"
  ldflags="$ldflags -L$s/usr/lib/gcc/aarch64-linux-gnu/10"
  cmake -S "$ROOT" -B "$1" -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/aarch64-linux-gnu.cmake" -DCMAKE_SYSROOT="$sysroot" \
        -DCMAKE_C_FLAGS="$cflags" -DCMAKE_SHARED_LINKER_FLAGS="$ldflags" -DCMAKE_EXE_LINKER_FLAGS="$ldflags" \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIBPROF_PORTABLE=ON -DLIBPROF_TESTS=OFF -DLIBPROF_INSTALL_DOCDIR=. >/dev/null
  cmake --build "$1" -j "$JOBS"
}

pack() {   # <stage dir> <name> <out dir>: <out>/<name>.tar.gz and its .sha256, checked with objdump
  tar --sort=name --owner=0 --group=0 --numeric-owner -czf "$3/$2.tar.gz" -C "$1" "$2"
  (cd "$3" && sha256sum "$2.tar.gz" >"$2.tar.gz.sha256")
  bash "$ROOT/test/release/check_portable.sh" "$3/$2.tar.gz"
}

# The portable release: configured with LIBPROF_PORTABLE inside the Debian 11 root (cmake/portable.cmake),
# installed into the tarball's directory, packed, checksummed and checked with objdump; the same for
# linux-arm64, cross-built first so that the one libprof.jar of both tarballs carries both libraries.
dist() {
  install_missing debootstrap unzip
  local root=$ROOTS/bullseye-build out=$BUILD/dist portable=$BUILD/portable arm64=$BUILD/portable-arm64 start=$SECONDS
  dist_arm64_build "$arm64"
  "$ROOT/cmake/debian_root.sh" make "$root" bullseye "${DIST_ROOT_PACKAGES[@]}"
  rm -rf "$out/stage"
  "$ROOT/cmake/debian_root.sh" run "$root" --bind "$ROOT" sh -c "
    set -e
    cmake -S '$ROOT' -B '$portable' -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLIBPROF_PORTABLE=ON -DLIBPROF_TESTS=OFF \
          -DLIBPROF_INSTALL_DOCDIR=. -DJAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64 \
          -DLIBPROF_JAR_OTHER_NATIVE=linux-arm64='$arm64/lib/libprof.so' >/dev/null
    cmake --build '$portable' -j $JOBS
    cmake --install '$portable' --prefix '$out/stage/dir' >/dev/null"
  local version name
  version=$(cat "$portable/VERSION")
  name=libprof-$version-linux-x64
  mv "$out/stage/dir" "$out/stage/$name"
  pack "$out/stage" "$name" "$out"
  cmake --install "$arm64" --prefix "$out/stage/libprof-$version-linux-arm64" >/dev/null
  local jar=$out/stage/$name/lib/libprof.jar platform
  for platform in linux-x64 linux-arm64; do
    unzip -l "$jar" | grep -q " dev/libprof/native/$platform/libprof.so$" ||
      { echo "build.sh: $jar lacks the $platform library" >&2; return 1; }
  done
  cp "$jar" "$out/stage/libprof-$version-linux-arm64/lib/libprof.jar"
  pack "$out/stage" "libprof-$version-linux-arm64" "$out"
  echo "dist: $out/$name.tar.gz, $out/libprof-$version-linux-arm64.tar.gz and their .sha256 ($((SECONDS - start)) s)"
}

case "${1:-build}" in
  build)
    configure_and_build ;;
  dist)
    dist ;;
  test)
    install_browser_test_deps
    install_arm64_test_deps
    configure_and_build with-tests
    # The release (the Debian 11 build root, the tarball) and the roots its tests run in take minutes the
    # first time, mostly downloads: they are made beside the suite, at the lowest CPU and I/O priority so the
    # suite's timings are not disturbed, and their tests (dist.*) run last.
    (renice -n 19 -p "$BASHPID" >/dev/null; ionice -c 3 -p "$BASHPID" 2>/dev/null || true
     dist && bash "$ROOT/test/release/root_tests.sh" prepare) >"$BUILD/dist.log" 2>&1 &
    dist_pid=$!
    # The arm64 JVMs' roots likewise, one after the other (the arm64.it.* tests wait for theirs;
    # test/arm64/jvm_tests.sh).
    (renice -n 19 -p "$BASHPID" >/dev/null; ionice -c 3 -p "$BASHPID" 2>/dev/null || true
     bash "$ROOT/test/arm64/jvm_tests.sh" root "$ROOT") >"$BUILD/arm64-root.log" 2>&1 &
    cd "$BUILD"
    rc=0
    ctest --output-on-failure -j "$JOBS" --timeout 600 -E '^dist\.' || rc=$?
    if ! wait "$dist_pid"; then
      cat "$BUILD/dist.log" >&2
      echo "build.sh: the release could not be built (above); the dist.* tests are not run" >&2
      exit 1
    fi
    tail -n 3 "$BUILD/dist.log"
    ctest --output-on-failure --timeout 1800 -R '^dist\.' || rc=$?
    exit "$rc" ;;
  demo)
    configure_and_build with-tests
    out=$BUILD/demo
    mkdir -p "$out"
    java -agentpath:"$BUILD/lib/libprof.so=start,event=cpu,interval=1ms,file=$out/demo.collapsed" \
         -cp "$BUILD/test-classes" Demo
    java -agentpath:"$BUILD/lib/libprof.so=start,event=cpu,interval=1ms,file=$out/demo.txt" \
         -cp "$BUILD/test-classes" Demo >/dev/null
    java -agentpath:"$BUILD/lib/libprof.so=start,event=cpu,interval=1ms,file=$out/demo.html,title=libprof demo" \
         -cp "$BUILD/test-classes" Demo >/dev/null
    echo
    echo "demo profile (collapsed stacks): $out/demo.collapsed"
    echo "demo profile (text report):      $out/demo.txt"
    echo "demo profile (flame graph):      $out/demo.html"
    demo_summary "$out/demo.collapsed"
    ;;
  demo-summary)
    [ -r "${2:-}" ] || { echo "usage: ./build.sh demo-summary <collapsed profile> (a readable file)" >&2; exit 2; }
    demo_summary "$2" ;;
  asan)
    # The unit tests again, built with AddressSanitizer and UndefinedBehaviorSanitizer.
    install_missing
    install_missing "${TEST_PACKAGES[@]}"
    cmake -S "$ROOT" -B "$BUILD-asan" -DCMAKE_BUILD_TYPE=Debug -DLIBPROF_SANITIZE=ON >/dev/null
    cmake --build "$BUILD-asan" -j "$JOBS"
    cd "$BUILD-asan"
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
      ctest --output-on-failure -j "$JOBS" -R '^unit\.' ;;
  stress)
    # Every stress scenario, engine and stack mode for 60 s each, on every JDK found. The JDKs run side by
    # side (scenarios last a fixed wall time, so this halves the run); each one's log is printed at its end.
    configure_and_build with-tests
    mkdir -p "$BUILD/stress"
    pids=()
    for jdk in /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/temurin-25-jdk-amd64; do
      [ -x "$jdk/bin/java" ] || continue
      log="$BUILD/stress/$(basename "$jdk").log"
      (
        java -Dstress.seconds="${STRESS_SECONDS:-60}" -Dstress.full=true -cp "$BUILD/test-classes" IntegrationTest \
          stress "$jdk" "$BUILD/lib/libprof.so" "$BUILD/test-classes" "$BUILD/stress/$(basename "$jdk")" &&
        # 50 attach/start/stop cycles on one JVM, every output format in turn, descriptors and RSS checked.
        ATTACH_CYCLES=50 bash "$ROOT/test/attach/attach_tests.sh" cycles "$jdk" "$BUILD" "$BUILD/attach-classes"
      ) > "$log" 2>&1 &
      pids+=("$!:$log")
    done
    failed=0
    for entry in "${pids[@]}"; do
      wait "${entry%%:*}" || failed=1
      echo "== ${entry#*:}"; cat "${entry#*:}"
    done
    [ "$failed" = 0 ] && echo "stress: every JDK passed" || { echo "stress: FAILED (see above)"; exit 1; } ;;
  bench)
    configure_and_build with-tests
    # libprof side by side with async-profiler when ASYNC_PROFILER_HOME names an async-profiler build (the
    # directory holding lib/libasyncProfiler.so, built by whoever runs this from its public source; never part
    # of this repository), else against no profiler alone. BENCH_ONLY=peer stops after it.
    # BENCH_ONLY=engines: every engine and the combinations against async-profiler (BenchEngines), only.
    if [ "${BENCH_ONLY:-}" = engines ]; then
      java -cp "$BUILD/bench-classes" BenchEngines /usr/lib/jvm/java-17-openjdk-amd64 "$BUILD/lib/libprof.so" \
           "$BUILD/bench-classes" "$BUILD/bench-engines" "${ASYNC_PROFILER_HOME:?BENCH_ONLY=engines needs ASYNC_PROFILER_HOME}"
      echo "results: $BUILD/bench-engines/engines.md"; exit 0
    fi
    java -cp "$BUILD/bench-classes" BenchPeer full /usr/lib/jvm/java-17-openjdk-amd64 "$BUILD/lib/libprof.so" \
         "$BUILD/bench-classes:$BUILD/test-classes" "$BUILD/bench" "${ASYNC_PROFILER_HOME:-}"
    if [ "${BENCH_ONLY:-}" = peer ]; then echo "results: $BUILD/bench/peer.md"; exit 0; fi
    java -cp "$BUILD/bench-classes" BenchHarness full /usr/lib/jvm/java-17-openjdk-amd64 "$BUILD/lib/libprof.so" \
         "$BUILD/bench-classes" "$BUILD/bin/dump_bench" "$BUILD/bench"
    # Method instrumentation: a hot method at interval=1 and interval=100 against no agent.
    java -cp "$BUILD/bench-classes" BenchInstrument /usr/lib/jvm/java-17-openjdk-amd64 "$BUILD/lib/libprof.so" \
         "$BUILD/bench-classes" "$BUILD/bench"
    java -cp "$BUILD/bench-classes" BenchWall /usr/lib/jvm/java-17-openjdk-amd64 "$BUILD/lib/libprof.so" \
         "$BUILD/bench-classes" "$BUILD/bench"
    bash "$ROOT/bench/alloc_lock.sh"
    # Native memory profiling: a malloc-heavy JNI workload at nativemem's default interval and at 1m.
    java -cp "$BUILD/bench-classes" BenchNativeMem /usr/lib/jvm/java-17-openjdk-amd64 "$BUILD/lib/libprof.so" \
         "$BUILD/bench-classes" "$BUILD/lib/libnativemem.so" "$BUILD/bench"
    echo "results: $BUILD/bench/peer.md $BUILD/bench/results.md $BUILD/bench/instrument.md $BUILD/bench/wall.md $BUILD/bench/alloc_lock.md $BUILD/bench/nativemem.md" ;;
  clean)
    rm -rf "$BUILD" "$BUILD-asan" ;;
  *)
    echo "usage: ./build.sh [build|dist|test|demo|demo-summary FILE|bench|stress|asan|clean]" >&2; exit 2 ;;
esac
