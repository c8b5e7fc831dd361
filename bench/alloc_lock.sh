#!/usr/bin/env bash
# The cost of allocation and lock profiling: AllocLockWorkload bench, an allocation-heavy
# workload (four threads allocating small arrays) and a contended one (four threads taking one monitor in
# turns), SECONDS per run; operations per second without the profiler and with each configuration, in
# interleaved rounds (none, then each configuration, ROUNDS times); medians and their ratio to the runs
# without the profiler. Writes build/bench/alloc_lock.md.
# Usage: bench/alloc_lock.sh [seconds=3] [rounds=5]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
SECS=${1:-3}
ROUNDS=${2:-5}
OUT=$BUILD/bench
mkdir -p "$OUT"
ALLOC_CONFIGS=("none" "event=alloc" "alloc=64k" "alloc,live" "event=cpu")
LOCK_CONFIGS=("none" "event=lock" "lock=0" "event=cpu")

ops() {   # ops/s of one run of workload $2 with agent options $1 ("none": without the agent)
  local agent=()
  [ "$1" != none ] && agent=("-agentpath:$BUILD/lib/libprof.so=start,$1,file=$OUT/alloc_lock.collapsed,quiet")
  "$JAVA_HOME/bin/java" "${agent[@]}" -cp "$BUILD/test-classes" AllocLockWorkload bench "$SECS" "$2" |
    awk -v s="$SECS" '/^OPS/{printf "%.0f\n", $2 / s}'
}

median() { tr ' ' '\n' | grep . | sort -n | awk '{v[NR]=$1} END{print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

table() {   # workload, then its configurations
  local workload=$1
  shift
  declare -A results
  for ((r = 0; r < ROUNDS; r++)); do
    for c in "$@"; do results[$c]+="$(ops "$c" "$workload") "; done
  done
  local base m
  base=$(echo "${results[none]}" | median)
  echo
  echo "$workload workload:"
  echo
  echo "| configuration | ops/s (median) | ratio to none |"
  echo "| --- | --- | --- |"
  for c in "$@"; do
    m=$(echo "${results[$c]}" | median)
    echo "| $c | $m | $(awk -v a="$m" -v b="$base" 'BEGIN{printf "%.3f", a / b}') |"
  done
}

{
  echo "# Allocation and lock profiling: cost (bench/alloc_lock.sh)"
  echo
  echo "${SECS} s per run, ${ROUNDS} interleaved rounds, median ops/s; $(nproc) CPUs, $("$JAVA_HOME/bin/java" -version 2>&1 | head -1)"
  table alloc "${ALLOC_CONFIGS[@]}"
  table lock "${LOCK_CONFIGS[@]}"
} | tee "$OUT/alloc_lock.md"
