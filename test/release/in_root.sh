#!/bin/bash
# Runs inside a Debian root (test/release/root_tests.sh): the unpacked release's agent, jprof and jfrconv on
# one JDK of the root, checked against known truths. One line per check: "<jdk> <check> ok|FAIL|REFUSED
# <detail>"; exit 1 when a check failed (a refusal with a clear message is not a failure).
#   in_root.sh <JDK home> <JDK home with a jfr tool> <release dir> <classes dir> <work dir>
set -uo pipefail
JDK=$1 JFR_JDK=$2 REL=$3 CLASSES=$4 WORK=$5
TAG=$(basename "$JDK")
AGENT=$REL/lib/libprof.so
mkdir -p "$WORK"
failed=0
report() { echo "$TAG $1 $2 ${*:3}"; [ "$2" = FAIL ] && failed=1; return 0; }
java_agent() {   # <agent options> <main> <args...>: stdout to $WORK/out, stderr to $WORK/err
  local opts=$1; shift
  timeout 120 "$JDK/bin/java" -agentpath:"$AGENT=$opts" -cp "$CLASSES" "$@" >"$WORK/out" 2>"$WORK/err"
}
sum_matching() { awk -v re="$2" '$0 ~ re { s += $NF } END { print s + 0 }' "$1"; }
truth() { grep -oE "$1=[0-9.]+" "$WORK/out" | head -n 1 | cut -d= -f2; }
within() { awk -v a="$1" -v b="$2" -v d="$3" 'BEGIN { x = a - b; if (x < 0) x = -x; exit !(x <= d) }'; }

# CPU shares on each engine: burnA's share of burnA + burnB against the share the workload measured.
for engine in cpu ctimer itimer; do
  f=$WORK/shares-$engine.collapsed
  if ! java_agent "start,event=$engine,interval=1ms,loglevel=info,file=$f" Burn7525 4; then
    if grep -qiE "refus|not supported|needs|cannot" "$WORK/err"; then
      report "shares-$engine" REFUSED "$(grep -iE "refus|not supported|needs|cannot" "$WORK/err" | head -n 1)"
    else
      report "shares-$engine" FAIL "exit $?: $(tail -n 3 "$WORK/err" | tr '\n' ' ')"
    fi
    continue
  fi
  used=$(grep -oE "using the [a-z]+ engine" "$WORK/err" | head -n 1)
  a=$(sum_matching "$f" 'Burn7525[.]burnA') b=$(sum_matching "$f" 'Burn7525[.]burnB') t=$(truth burnA)
  share=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", (a + b) ? a / (a + b) : 0 }')
  if [ "$((a + b))" -gt 600 ] && within "$share" "${t:-9}" 0.05; then
    report "shares-$engine" ok "$used: burnA $a burnB $b share $share truth $t"
  else
    report "shares-$engine" FAIL "$used: burnA $a burnB $b share $share truth ${t:-none}"
  fi
done

# Mixed stacks: Java frames and the JVM's C++ frames (demangled: "::") in one stack. Where the VM's own
# walker serves the JDK, the JVM's frames below the Java ones (JavaCalls::call_helper) are there too.
f=$WORK/shares-cpu.collapsed
[ -s "$f" ] || f=$WORK/shares-itimer.collapsed
mixed=$(grep -c 'Burn7525[.].*::\|::.*Burn7525[.]' "$f")
below=$(grep -E 'JavaCalls::call_helper' "$f" | grep -c 'Burn7525[.]burnA')
[ "$mixed" -gt 0 ] && report mixed-stacks ok "$mixed stacks mix Java and demangled C++ frames; $below also hold the JVM's frames below Java (JavaCalls::call_helper)" ||
  report mixed-stacks FAIL "no stack with both a Burn7525 frame and a demangled C++ frame in $f"

# Wall clock: the sleeping thread's sampled share of sleep against the share it measured; the blocked,
# waiting and parked threads are sampled too.
f=$WORK/wall.collapsed
if java_agent "start,event=wall,interval=5ms,threads,file=$f" WallWorkload 3; then
  half=$(sum_matching "$f" '^\[halfsleeper') slept=$(grep '^\[halfsleeper' "$f" | sum_matching /dev/stdin 'Thread[.]sleep')
  share=$(awk -v s="$slept" -v h="$half" 'BEGIN { printf "%.4f", h ? s / h : 0 }') t=$(truth sleeping_share)
  others=$(for fr in blockedOnMonitor waitForever parkForever; do sum_matching "$f" "WallWorkload[.]$fr"; done | sort -n | head -n 1)
  if [ "$half" -gt 100 ] && within "$share" "${t:-9}" 0.1 && [ "$others" -gt 10 ]; then
    report wall ok "halfsleeper $half samples, sleep share $share truth $t; blocked/waiting/parked at least $others"
  else
    report wall FAIL "halfsleeper $half samples, sleep share $share truth ${t:-none}; blocked/waiting/parked $others"
  fi
else report wall FAIL "$(tail -n 3 "$WORK/err" | tr '\n' ' ')"; fi

# Allocation and lock profiles name the allocating and contending methods.
for kind in alloc lock; do
  f=$WORK/$kind.collapsed
  frame=$([ $kind = alloc ] && echo allocate || echo contend)
  if java_agent "start,event=$kind,file=$f" ReleaseWorkload $kind 2; then
    n=$(sum_matching "$f" "ReleaseWorkload[.]$frame") all=$(sum_matching "$f" .)
    [ "$n" -gt 0 ] && [ "$n" -ge $((all / 2)) ] && report $kind ok "ReleaseWorkload.$frame weighs $n of $all" ||
      report $kind FAIL "ReleaseWorkload.$frame weighs $n of $all"
  elif grep -qiE "refus|not supported|needs" "$WORK/err"; then
    report $kind REFUSED "$(grep -iE "refus|not supported|needs" "$WORK/err" | head -n 1)"
  else report $kind FAIL "$(tail -n 3 "$WORK/err" | tr '\n' ' ')"; fi
done

# A JFR recording that the root's own jfr tool reads, and that jfrconv converts back to the same method.
f=$WORK/cpu.jfr
if java_agent "start,event=cpu,interval=1ms,file=$f" Burn7525 2 &&
   "$JFR_JDK/bin/jfr" summary "$f" >"$WORK/summary" 2>&1 && grep -q 'jdk.ExecutionSample' "$WORK/summary"; then
  report jfr ok "$(basename "$JFR_JDK")/bin/jfr summary: $(awk '$1 == "jdk.ExecutionSample" { print $1, $2 }' "$WORK/summary")"
else report jfr FAIL "$(tail -n 3 "$WORK/err" "$WORK/summary" 2>/dev/null | tr '\n' ' ')"; fi
if "$REL/bin/jfrconv" "$f" "$WORK/conv.collapsed" 2>"$WORK/err" &&
   [ "$(sum_matching "$WORK/conv.collapsed" 'Burn7525[.]burnA')" -gt 0 ] &&
   "$REL/bin/jfrconv" "$WORK/conv.collapsed" "$WORK/conv.txt" 2>>"$WORK/err" && grep -q 'Burn7525.burnA' "$WORK/conv.txt"; then
  report jfrconv ok "JFR -> collapsed ($(sum_matching "$WORK/conv.collapsed" 'Burn7525[.]burnA') burnA samples) -> text"
else report jfrconv FAIL "$(tail -n 3 "$WORK/err" | tr '\n' ' ')"; fi

# jprof attaches to a JVM started without the agent, profiles it for 2 s and writes the profile.
"$JDK/bin/java" -cp "$CLASSES" Burn7525 8 >/dev/null 2>&1 &
pid=$!
sleep 1.5
f=$WORK/attach.collapsed
if timeout 60 "$REL/bin/jprof" -d 2 -e cpu -i 1ms -f "$f" "$pid" >"$WORK/out" 2>"$WORK/err" &&
   [ "$(sum_matching "$f" 'Burn7525[.]burn')" -gt 500 ]; then
  report jprof ok "attached to $pid: $(sum_matching "$f" 'Burn7525[.]burn') burn samples in 2 s"
else report jprof FAIL "$(tail -n 3 "$WORK/err" | tr '\n' ' ')"; fi
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
exit $failed
