#!/usr/bin/env bash
# The agent's memory during a long JFR recording: profiles Burn7525 at interval=1ms into a .jfr for
# SECONDS (default 600), printing the JVM's RSS every 30 s (and at 5 s), then stops it with SIGTERM (the
# recording is completed at exit) and checks the file with the JDK's jfr tool.
# Usage: bench/jfr_memory.sh [seconds=600] [extra agent options, e.g. chunktime=1m]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}
SECONDS_TOTAL=${1:-600}
EXTRA=${2:+,$2}
OUT=$BUILD/bench/jfr-memory
mkdir -p "$OUT"
rm -f "$OUT/recording.jfr"
"$JAVA_HOME/bin/java" "-agentpath:$BUILD/lib/libprof.so=start,event=cpu,interval=1ms,file=$OUT/recording.jfr$EXTRA" \
  -cp "$BUILD/test-classes" Burn7525 100000 >"$OUT/java.out" 2>&1 &
pid=$!
start=$(date +%s)
next=5
while kill -0 "$pid" 2>/dev/null; do
  now=$(( $(date +%s) - start ))
  if [ "$now" -ge "$next" ]; then
    echo "t=${now}s rss_kb=$(awk '/VmRSS/{print $2}' "/proc/$pid/status")"
    next=$(( next == 5 ? 30 : next + 30 ))
  fi
  if [ "$now" -ge "$SECONDS_TOTAL" ]; then kill -TERM "$pid"; break; fi
  sleep 1
done
wait "$pid" || true
grep libprof "$OUT/java.out" || true
"$JAVA_HOME/bin/jfr" summary "$OUT/recording.jfr" | grep -E "Chunks|Duration|jdk.ExecutionSample"
