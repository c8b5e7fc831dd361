#!/usr/bin/env bash
# The OpenTelemetry output, decoded by protoc (Debian's protobuf-compiler) against the schema's field numbers
# and checked by otlp_check.py against what the workload did.
# Usage: otlp_tests.sh <agent|total|jfrconv|api> <JAVA_HOME> <build dir> <test classes> <api test classes> <work>
set -u
CASE=$1 JDK=$2 BUILD=$3 CLASSES=$4 API_CLASSES=$5 WORK=$6
HERE=$(cd "$(dirname "$0")" && pwd)
PROTO_DIR=$HERE/../../resources/proto
LIB=$BUILD/lib/libprof.so
FAILED=0
fail() { echo "FAIL: $*" >&2; FAILED=1; }

command -v protoc >/dev/null || { echo "FAIL: protoc is not installed (apt-get install protobuf-compiler)"; exit 1; }
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1

decode() {   # <file.pb> -> <file.pb>.txt
  protoc --decode=opentelemetry.proto.profiles.v1development.ProfilesData -I "$PROTO_DIR" otlp_profiles.proto \
    <"$1" >"$1.txt" 2>"$1.err" || fail "protoc cannot decode $1: $(cat "$1.err")"
}
check() {   # <file.pb> <otlp_check.py options...>
  local f=$1; shift
  decode "$f" && { /usr/bin/python3 "$HERE/otlp_check.py" "$f.txt" "$@" || FAILED=1; }
}
truth() { sed -n 's/.*TRUTH burnA=\([0-9.]*\).*/\1/p' "$1"; }
# The samples the agent says it wrote ("profile written to F (N samples, ...)").
written() { sed -n 's/.*profile written to .* (\([0-9]*\) samples.*/\1/p' "$1" | tail -1; }
# The CPU engines' names as async-profiler gives them, one of which event=cpu uses.
CPU_TYPES="perf_events|ctimer|itimer"

case "$CASE" in
agent)   # async-profiler's spelling: start,otlp,file=x.pb
  since=$(date +%s%N)
  "$JDK/bin/java" -agentpath:"$LIB=start,otlp,threads,interval=1ms,loglevel=info,file=$WORK/cpu.pb" \
    -cp "$CLASSES" Burn7525 2 >out.txt 2>err.txt || fail "the JVM failed: $(tail -3 err.txt)"
  check cpu.pb --type "$CPU_TYPES" --unit count --period-unit ns --period 1000000 --sum "$(written err.txt)" \
    --share Burn7525.burnA:Burn7525.burnB:"$(truth out.txt)" --leaf-first Burn7525.burnA:Burn7525.main \
    --thread "[main tid=" --since "$since"
  ;;
total)   # the weight: itimer's CPU time in ns, about the process's CPU time
  "$JDK/bin/java" -agentpath:"$LIB=start,event=itimer,otlp,total,file=$WORK/total.otlp" \
    -cp "$CLASSES" Burn7525 2 >out.txt 2>err.txt || fail "the JVM failed: $(tail -3 err.txt)"
  cpu=$(sed -n 's/.*processCpuNs=\([0-9]*\).*/\1/p' out.txt)
  check total.otlp --type itimer --unit ns --period-unit ns --period 10000000 \
    --sum-range "$((cpu / 2)):$((cpu * 3 / 2))" --share Burn7525.burnA:Burn7525.burnB:"$(truth out.txt)"
  ;;
jfrconv)   # jfrconv -o otlp of a recording: the same stacks and counts as its collapsed output
  since=$(date +%s%N)
  "$JDK/bin/java" -agentpath:"$LIB=start,jfr,interval=1ms,file=$WORK/cpu.jfr" \
    -cp "$CLASSES" Burn7525 2 >out.txt 2>err.txt || fail "the JVM failed: $(tail -3 err.txt)"
  "$BUILD/bin/jfrconv" -o otlp cpu.jfr cpu.pb 2>conv.err || fail "jfrconv -o otlp: $(cat conv.err)"
  "$BUILD/bin/jfrconv" cpu.jfr cpu.collapsed 2>>conv.err || fail "jfrconv to collapsed: $(cat conv.err)"
  check cpu.pb --type cpu --unit count --collapsed cpu.collapsed --since "$since" \
    --share Burn7525.burnA:Burn7525.burnB:"$(truth out.txt)" --leaf-first Burn7525.burnA:Burn7525.main
  ;;
api)   # dev.libprof.Profiler.dumpOtlp(): the bytes; one start time per session, its duration growing
  "$JDK/bin/java" -Dlibprof.path="$LIB" -cp "$BUILD/lib/libprof.jar:$API_CLASSES" OtlpDump "$WORK" \
    >out.txt 2>err.txt || fail "OtlpDump failed: $(tail -3 err.txt)"
  check dump1.pb --type "$CPU_TYPES" --unit count --hot OtlpDump.burn:0.5 --leaf-first OtlpDump.burn:OtlpDump.main
  check dump2.pb --type "$CPU_TYPES" --unit ns
  check dump3.pb --type "$CPU_TYPES" --unit count
  field() { sed -n "s/^ *$1: //p" "$2.txt" | head -1; }
  t1=$(field time_unix_nano dump1.pb) t2=$(field time_unix_nano dump2.pb) t3=$(field time_unix_nano dump3.pb)
  d1=$(field duration_nano dump1.pb) d2=$(field duration_nano dump2.pb)
  [ -n "$t1" ] && [ "$t1" = "$t2" ] || fail "one session, two start times: $t1, $t2"
  [ -n "$d2" ] && [ $((d2 - d1)) -ge 100000000 ] || fail "the duration did not grow by the 150 ms waited: $d1, $d2"
  [ -n "$t3" ] && [ "$t3" -gt "$t1" ] || fail "a new session kept the old start time: $t1, $t3"
  echo "api: time_unix_nano $t1 $t2 $t3, duration_nano $d1 $d2"
  ;;
*) echo "unknown case $CASE"; exit 2 ;;
esac
[ "$FAILED" = 0 ] && echo "ok: otlp $CASE"
exit "$FAILED"
