#!/usr/bin/env bash
# The linux-arm64 build from the same sources, and the arm64 tools run under qemu-user.
#
#   cross_build.sh build SOURCE_DIR WORK_DIR
#       configures and builds WORK_DIR with cmake/aarch64-linux-gnu.cmake (no tests); the build itself runs
#       the signal allow-list and the layer check on the arm64 objects with the cross nm. Then each product
#       binary must be an AArch64 ELF file and both checks must have passed.
#   cross_build.sh jfrconv SOURCE_DIR WORK_DIR HOST_JFRCONV
#       the arm64 jfrconv of WORK_DIR, run by qemu-aarch64, must turn every recording of the JFR corpus
#       (test/native/corpus/jfr: JDK 17 and 25 recordings, a synthetic one, fuzzed inputs) into exactly what
#       the host's jfrconv makes of it, in every output format, with the same exit status and messages.
#   cross_build.sh unit SOURCE_DIR WORK_DIR TEST...
#       cross-builds the named cmocka unit tests (LIBPROF_TESTS=ON, cmocka and libunwind from Debian's arm64
#       packages) into WORK_DIR and runs each under qemu-aarch64: the stores, writers, ELF and symbol
#       readers, the unwind cache and the import-slot patcher (R_AARCH64_JUMP_SLOT/GLOB_DAT, live) on aarch64.
#
# Exit 77 (skipped) when the cross compiler, the arm64 libraries or qemu is missing: ./build.sh test
# installs them (Debian: gcc-aarch64-linux-gnu, libprotobuf-c-dev:arm64, zlib1g-dev:arm64, qemu-user-static,
# and for the unit tests libcmocka-dev:arm64, libunwind-dev:arm64, libstdc++6:arm64).
set -euo pipefail
mode=$1 src=$(realpath "$2") work=$(realpath -m "$3")
arm_libs=/usr/lib/aarch64-linux-gnu

skip() { echo "skipped: $*; ./build.sh test installs what is missing" >&2; exit 77; }

find_qemu() {
    qemu=$(command -v qemu-aarch64-static || command -v qemu-aarch64 || true)
    [ -n "$qemu" ] || skip "no qemu-aarch64 (Debian: qemu-user-static)"
    [ -e /lib/ld-linux-aarch64.so.1 ] && [ -e "$arm_libs/libz.so.1" ] || skip "no arm64 libc or zlib (Debian: libc6:arm64 zlib1g:arm64)"
}

case "$mode" in
build)
    command -v aarch64-linux-gnu-gcc >/dev/null || skip "no aarch64-linux-gnu-gcc (Debian: gcc-aarch64-linux-gnu)"
    for lib in libprotobuf-c.a libz.so; do
        [ -e "$arm_libs/$lib" ] || skip "no $arm_libs/$lib (Debian: libprotobuf-c-dev:arm64 zlib1g-dev:arm64)"
    done
    rm -f "$work/signal_symbols.checked" "$work/layers.checked"
    cmake -S "$src" -B "$work" -DCMAKE_TOOLCHAIN_FILE="$src/cmake/aarch64-linux-gnu.cmake" -DLIBPROF_TESTS=OFF \
          -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build "$work" -j 1   # beside the rest of the suite: one core
    for f in lib/libprof.so bin/jprof bin/jfrconv; do
        machine=$(aarch64-linux-gnu-readelf -h "$work/$f" | sed -n 's/^ *Machine: *//p')
        if [ "$machine" != AArch64 ]; then
            echo "FAIL: $f is built for '$machine', not AArch64" >&2
            exit 1
        fi
        echo "$f: AArch64"
    done
    for stamp in signal_symbols.checked layers.checked; do
        [ -e "$work/$stamp" ] || { echo "FAIL: the build did not run the check that writes $stamp" >&2; exit 1; }
    done
    echo "arm64 build: libprof.so, jprof, jfrconv; allow-list and layer checks passed on the arm64 objects" ;;
jfrconv)
    host=$4
    find_qemu
    [ -x "$work/bin/jfrconv" ] || { echo "FAIL: no arm64 jfrconv in $work (arm64.build makes it)" >&2; exit 1; }
    out=$work/jfrconv-compare
    rm -rf "$out"
    mkdir -p "$out/host" "$out/arm64"
    compared=0 differ=0 converted=0
    for input in "$src"/test/native/corpus/jfr/*; do
        name=$(basename "$input")
        case "$name" in
        *.jfr) formats="collapsed html tree text pprof speedscope cpuprofile gecko" ;;
        *) formats=collapsed ;;   # fuzzed or option files: the reader's verdict is what is compared
        esac
        for format in $formats; do
            for side in host arm64; do
                # Each side writes into its own directory under the same relative name: messages that
                # name the output are then the same text.
                rc=0
                if [ "$side" = host ]; then
                    (cd "$out/$side" && "$host" -o "$format" "$input" "$name.$format") >"$out/$side/$name.$format.log" 2>&1 || rc=$?
                else
                    (cd "$out/$side" && "$qemu" "$work/bin/jfrconv" -o "$format" "$input" "$name.$format") \
                        >"$out/$side/$name.$format.log" 2>&1 || rc=$?
                fi
                echo "exit $rc" >>"$out/$side/$name.$format.log"
            done
            compared=$((compared + 1))
            grep -q '^exit 0$' "$out/host/$name.$format.log" && converted=$((converted + 1))
            for suffix in "" .log; do
                a=$out/host/$name.$format$suffix b=$out/arm64/$name.$format$suffix
                if [ -e "$a" ] || [ -e "$b" ]; then
                    if ! cmp -s "$a" "$b"; then
                        echo "DIFFER: $name as $format${suffix:+ (messages)}: $a vs $b" >&2
                        differ=$((differ + 1))
                    fi
                fi
            done
        done
    done
    echo "jfrconv arm64 vs host: $compared conversions ($converted of them succeed on the host), $differ differ"
    [ "$converted" -gt 0 ] || { echo "FAIL: no recording of the corpus converted" >&2; exit 1; }
    [ "$differ" -eq 0 ] ;;
unit)
    shift 3
    command -v aarch64-linux-gnu-gcc >/dev/null || skip "no aarch64-linux-gnu-gcc (Debian: gcc-aarch64-linux-gnu)"
    find_qemu
    for pc in cmocka libunwind; do
        [ -e "$arm_libs/pkgconfig/$pc.pc" ] || skip "no arm64 $pc (Debian: libcmocka-dev:arm64 libunwind-dev:arm64)"
    done
    [ -e "$arm_libs/libstdc++.so.6" ] || skip "no arm64 libstdc++ (Debian: libstdc++6:arm64)"
    # pkg-config must answer for the target: only the arm64 .pc files (and the architecture-independent ones).
    PKG_CONFIG_LIBDIR=$arm_libs/pkgconfig:/usr/share/pkgconfig \
        cmake -S "$src" -B "$work" -DCMAKE_TOOLCHAIN_FILE="$src/cmake/aarch64-linux-gnu.cmake" -DLIBPROF_TESTS=ON \
              -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build "$work" -j 1 --target "$@"
    failed=()
    cd "$work"   # as ctest runs the host's unit tests: from their build directory
    for t in "$@"; do
        if "$qemu" "$work/bin/$t" >"$work/$t.log" 2>&1; then
            echo "$t: $(grep -c '^\[       OK \]' "$work/$t.log") passed on aarch64"
        else
            echo "FAIL: $t on aarch64 (its output: $work/$t.log):" >&2
            grep -E '^\[  (ERROR|FAILED) |^\[   LINE' "$work/$t.log" >&2 || tail -5 "$work/$t.log" >&2
            failed+=("$t")
        fi
    done
    [ ${#failed[@]} -eq 0 ] ;;
*)
    echo "usage: cross_build.sh build|jfrconv|unit SOURCE_DIR WORK_DIR [HOST_JFRCONV | TEST...]" >&2
    exit 2 ;;
esac
