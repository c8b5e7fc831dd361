#!/usr/bin/env bash
# The release where users run it: the tarball of ./build.sh dist unpacked into a Debian root (made once by
# cmake/debian_root.sh and kept under LIBPROF_ROOTS, default /var/cache/libprof/roots) and checked by
# in_root.sh on each of the root's own JDKs: CPU shares on each engine, mixed stacks, wall, alloc, lock, a
# JFR read by the root's jfr tool, jfrconv, jprof attaching.
#   root_tests.sh <bullseye|trixie> <tarball> <source dir> <results dir>
#   root_tests.sh prepare        makes (or finds cached) every root the tests use, and runs nothing
set -euo pipefail
ROOTS=${LIBPROF_ROOTS:-/var/cache/libprof/roots}
if [ "${1:-}" = prepare ]; then
  for name in bullseye trixie; do bash "$0" "$name" --prepare; done
  exit 0
fi
NAME=$1 TARBALL=${2:-} SRC=$(cd "$(dirname "$0")/../.." && pwd) RESULTS=${4:-}
case "$NAME" in
  # Debian 11: glibc 2.31, JDK 11 and 17. JDK 11 has no jfr tool: its recordings are read by 17's.
  bullseye) SUITE=bullseye PACKAGES="openjdk-11-jdk-headless openjdk-17-jdk-headless"
            JDKS="java-11-openjdk-amd64:java-17-openjdk-amd64 java-17-openjdk-amd64:java-17-openjdk-amd64" ;;
  # Debian 13: glibc 2.41, JDK 21.
  trixie)   SUITE=trixie PACKAGES="openjdk-21-jdk-headless"
            JDKS="java-21-openjdk-amd64:java-21-openjdk-amd64" ;;
  *) echo "root_tests.sh: unknown root '$NAME': accepted: bullseye, trixie" >&2; exit 2 ;;
esac
if [ "$TARBALL" = --prepare ]; then
  "$SRC/cmake/debian_root.sh" make "$ROOTS/$NAME" "$SUITE" $PACKAGES
  exit 0
fi
[ -f "$TARBALL" ] || { echo "root_tests.sh: no tarball at $TARBALL: run ./build.sh dist first" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "root_tests.sh: entering a root needs root" >&2; exit 1; }

start=$SECONDS
"$SRC/cmake/debian_root.sh" make "$ROOTS/$NAME" "$SUITE" $PACKAGES
echo "root $ROOTS/$NAME ready in $((SECONDS - start)) s (0-1 s when cached)"

# Everything the root sees lives in one scratch directory of /tmp, which the root shares.
scratch=$(mktemp -d /tmp/libprof-release.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
tar -xzf "$TARBALL" -C "$scratch"
rel=$(find "$scratch" -mindepth 1 -maxdepth 1 -type d -name 'libprof-*' | head -n 1)
mkdir -p "$scratch/src" "$scratch/classes"
cp "$SRC/test/java/Burn7525.java" "$SRC/test/java/WallWorkload.java" "$SRC/test/release/ReleaseWorkload.java" \
   "$SRC/test/release/in_root.sh" "$scratch/src/"
oldest=${JDKS%% *}; oldest=${oldest%%:*}
"$SRC/cmake/debian_root.sh" run "$ROOTS/$NAME" \
  "/usr/lib/jvm/$oldest/bin/javac" -d "$scratch/classes" "$scratch/src/Burn7525.java" \
  "$scratch/src/WallWorkload.java" "$scratch/src/ReleaseWorkload.java"

mkdir -p "$RESULTS"
failed=0
for pair in $JDKS; do
  jdk=${pair%%:*} jfr=${pair#*:}
  "$SRC/cmake/debian_root.sh" run "$ROOTS/$NAME" /bin/bash "$scratch/src/in_root.sh" "/usr/lib/jvm/$jdk" \
    "/usr/lib/jvm/$jfr" "$rel" "$scratch/classes" "$scratch/work-$jdk" | sed "s/^/$NAME /" | tee "$RESULTS/$jdk.txt" ||
    failed=1
  grep -q " FAIL " "$RESULTS/$jdk.txt" && failed=1
  rm -rf "${RESULTS:?}/work-$jdk" && cp -r "$scratch/work-$jdk" "$RESULTS/"   # the profiles, to look at
done
echo "root $NAME: checks took $((SECONDS - start)) s in all"
exit $failed
