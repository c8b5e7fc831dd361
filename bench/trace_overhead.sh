#!/usr/bin/env bash
# The cost of latency tracing under the threshold: BenchTrace's hot method (about 100 ns a call) without
# the profiler and with trace=BenchTrace.work:1ms (no call is that slow: every call takes the fast path,
# two clock reads and a compare), in interleaved rounds; the median calls per second of each and their
# ratio, and the cost of one traced call in ns. With ASYNC_PROFILER_HOME set, async-profiler's trace= on the
# same method in the same rounds. Writes build/bench/trace_overhead.md.
# Usage: [ASYNC_PROFILER_HOME=dir] bench/trace_overhead.sh [seconds=3] [rounds=5]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
SECS=${1:-3}
ROUNDS=${2:-5}
OUT=$BUILD/bench
mkdir -p "$OUT"

AP=${ASYNC_PROFILER_HOME:-}
ops() {   # calls/s of one run with agent options $1 ("none": without the agent) of agent $2
  local agent=() lib=${2:-$BUILD/lib/libprof.so}
  [ "$1" != none ] && agent=("-agentpath:$lib=start,$1,file=$OUT/trace_overhead.collapsed")
  "$JAVA_HOME/bin/java" "${agent[@]}" -cp "$BUILD/bench-classes" BenchTrace "$SECS" |
    awk -v s="$SECS" '/^OPS/{printf "%.0f\n", $2 / s}'
}

median() { tr ' ' '\n' | grep . | sort -n | awk '{v[NR]=$1} END{print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

base="" traced="" peer=""
for _ in $(seq "$ROUNDS"); do
  base="$base $(ops none)"
  traced="$traced $(ops trace=BenchTrace.work:1ms)"
  [ -n "$AP" ] && peer="$peer $(ops trace=BenchTrace.work:1ms "$AP/lib/libasyncProfiler.so")"
done
b=$(echo "$base" | median) t=$(echo "$traced" | median)
{
  echo "| run | calls/s (median of $ROUNDS x ${SECS}s) | ratio | ns per call |"
  echo "| --- | ---: | ---: | ---: |"
  awk -v b="$b" 'BEGIN{printf "| without the profiler | %.0f | 1.000 | %.1f |\n", b, 1e9 / b}'
  awk -v b="$b" -v t="$t" 'BEGIN{printf "| trace=BenchTrace.work:1ms | %.0f | %.3f | %.1f (+%.1f) |\n", t, t / b, 1e9 / t, 1e9 / t - 1e9 / b}'
  if [ -n "$AP" ]; then
    p=$(echo "$peer" | median)
    awk -v b="$b" -v t="$p" 'BEGIN{printf "| async-profiler trace=BenchTrace.work:1ms | %.0f | %.3f | %.1f (+%.1f) |\n", t, t / b, 1e9 / t, 1e9 / t - 1e9 / b}'
  fi
} | tee "$OUT/trace_overhead.md"
