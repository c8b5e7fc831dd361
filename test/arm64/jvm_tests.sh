#!/usr/bin/env bash
# The arm64 build on arm64 JVMs: Debian 12's arm64 OpenJDK 17 and Debian 13's arm64 OpenJDK 21, each in a
# root of its own (made once by cmake/debian_root.sh make-foreign and kept under LIBPROF_ROOTS), run by
# qemu-aarch64 with that root as its library prefix (-L: no binfmt_misc needed), with the agent, jprof and
# jfrconv of arm64.build. JDK is 17 or 21 (17 when not given).
#
#   jvm_tests.sh root SOURCE_DIR [JDK...]
#       makes (or finds) the roots alone (every JDK's when none is named)
#   jvm_tests.sh prepare SOURCE_DIR ARM64_BUILD WORK_DIR HOST_TEST_CLASSES [JDK]
#       makes (or finds) the JDK's root, cross-builds the test's JNI libraries, compiles the release and
#       attach workloads (into WORK_DIR/JDK)
#   jvm_tests.sh CASE SOURCE_DIR ARM64_BUILD WORK_DIR HOST_TEST_CLASSES [JDK]
#       one check against a known truth on that JDK; prints what it measured, exit 1 when it does not hold:
#       shares_cpu     event=cpu: the perf engine's fallback (no perf_event_open under qemu-user) says so in
#                      the log (event=cpu-clock, a perf event named outright, is refused saying why);
#                      burnA's share of burnA + burnB against the share the workload measured; the stacks
#                      walked by cstack=vm to the thread's root (JavaCalls::call_helper, JavaMain)
#       shares_itimer  the same on the itimer engine
#       interleaved    Java -> JNI -> C -> JNI -> Java: every segment in its place, to the thread's root;
#                      frame types (ann): compiled, inlined and interpreted frames; an interpreted
#                      frame's line (lines) is the one of the call it is in, from the bci its frame holds
#       wall           the sleeping thread's share of sleep against what it measured; blocked, waiting, parked
#       alloc          the allocating method weighs most
#       lock           a monitor's wait in the profile against the time the waiter measured
#       jfr            a JFR recording that the root's own jfr tool reads, with the burn methods in it
#       jprof          the arm64 jprof attaches to a JVM started without the agent, starts (relaying the
#                      perf engine's fallback), then stops profiling; AttachTarget's 70/30 split of its CPU
#       javaagent      libprof.jar alone (-javaagent): it loads the library it packs for aarch64
#       nativemem      every malloc/calloc of a JNI library counted at its call site, with the Java chain
# Exit 77 (skipped) when qemu, the root or the arm64 build is missing.
set -uo pipefail
CASE=$1 SRC=$(realpath "$2")
ROOTS=${LIBPROF_ROOTS:-/var/cache/libprof/roots}
skip() { echo "skipped: $*" >&2; exit 77; }
QEMU=$(command -v qemu-aarch64-static || command -v qemu-aarch64 || true)
[ -n "$QEMU" ] || skip "no qemu-aarch64 (Debian: qemu-user-static; ./build.sh test installs it)"

# The JDK's Debian suite: its root is ROOTS/<suite>-arm64, the JDK inside it under /usr/lib/jvm.
suite_of() {
  case "$1" in
  17) echo bookworm ;;
  21) echo trixie ;;
  *) echo "jvm_tests.sh: no arm64 root for JDK '$1' (17 or 21)" >&2; exit 2 ;;
  esac
}
make_root() {   # <jdk>
  local suite
  suite=$(suite_of "$1") || exit 2
  "$SRC/cmake/debian_root.sh" make-foreign "$ROOTS/$suite-arm64" arm64 "$suite" "openjdk-$1-jdk-headless"
}
if [ "$CASE" = root ]; then   # the roots alone (./build.sh test makes them beside the suite, one after another)
  shift 2
  [ $# -gt 0 ] || set -- 17 21
  for v in "$@"; do
    [ "$(id -u)" -eq 0 ] || [ -f "$ROOTS/$(suite_of "$v")-arm64/.libprof-root" ] || skip "making the arm64 roots needs root"
    make_root "$v" || exit 1
  done
  exit
fi
ARM=$(realpath -m "${3:-.}") HOST_CLASSES=$(realpath -m "${5:-.}") VERSION=${6:-17}
ROOT=$ROOTS/$(suite_of "$VERSION")-arm64 || exit 2
WORK=$(realpath -m "${4:-.}")/$VERSION
JDK=/usr/lib/jvm/java-$VERSION-openjdk-arm64
AGENT=$ARM/lib/libprof.so
if [ "$CASE" = prepare ]; then
  command -v aarch64-linux-gnu-gcc >/dev/null || skip "no aarch64-linux-gnu-gcc (Debian: gcc-aarch64-linux-gnu)"
  [ "$(id -u)" -eq 0 ] || [ -f "$ROOT/.libprof-root" ] || skip "making the arm64 root needs root"
  start=$SECONDS
  make_root "$VERSION" || exit 1
  echo "root $ROOT ready in $((SECONDS - start)) s (0-1 s when cached)"
  mkdir -p "$WORK/lib" "$WORK/classes"
  inc=$(dirname "$(dirname "$(realpath "$(command -v javac)")")")/include
  for lib in callback nativemem; do
    aarch64-linux-gnu-gcc -O1 -g -fPIC -shared -fno-omit-frame-pointer -I"$inc" -I"$inc/linux" \
      -o "$WORK/lib/lib$lib.so" "$SRC/test/native/jni/$lib.c" -lpthread || exit 1
  done
  javac --release 17 -d "$WORK/classes" "$SRC/test/release/ReleaseWorkload.java" "$SRC/test/attach/AttachTarget.java" || exit 1
  echo "prepared: lib{callback,nativemem}.so for aarch64, ReleaseWorkload, AttachTarget"
  exit 0
fi

[ -f "$ROOT/.libprof-root" ] || skip "no arm64 root at $ROOT (arm64.it.$VERSION.prepare makes it)"
[ -f "$AGENT" ] || { echo "FAIL: no arm64 agent at $AGENT (arm64.build makes it)" >&2; exit 1; }
OUT=$WORK/$CASE
rm -rf "$OUT" && mkdir -p "$OUT"
CP=$HOST_CLASSES:$WORK/classes
fail() { echo "FAIL: $*" >&2; exit 1; }
# The cases whose check does not depend on C2 (all but the CPU shares and the frame types) run with C1 only:
# an emulated C2 compiles for many CPU seconds (JDK 21's compiler threads had most of a 1 s run's samples),
# which a loaded machine turns into minutes.
C1_ONLY=-XX:TieredStopAtLevel=1
arm_java() {   # [java args...]: stdout to $OUT/out, stderr to $OUT/err
  # A safety net only (under ctest's 600 s): at a load of 24 on 2 cores an emulated JDK 21 took over 240 s.
  timeout 540 "$QEMU" -L "$ROOT" "$ROOT$JDK/bin/java" "$@" >"$OUT/out" 2>"$OUT/err"
}
with_agent() {   # <agent options> <main> <args...>
  local opts=$1; shift
  arm_java -agentpath:"$AGENT=$opts" -cp "$CP" "$@" || fail "the JVM failed (exit $?): $(tail -n 5 "$OUT/err" | tr '\n' ' ')"
}
sum_matching() { awk -v re="$2" '$0 ~ re { s += $NF } END { print s + 0 }' "$1"; }
truth() { grep -oE "$1=[0-9.]+" "$OUT/out" | head -n 1 | cut -d= -f2; }
within() { awk -v a="$1" -v b="$2" -v d="$3" 'BEGIN { x = a - b; if (x < 0) x = -x; exit !(x <= d) }'; }
share() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.4f", (a + b) ? a / (a + b) : 0 }'; }

shares() {   # <event>
  local f=$OUT/shares.collapsed
  with_agent "start,event=$1,interval=1ms,loglevel=info,file=$f" Burn7525 3
  grep -q 'profiling started: .*cstack=vm' "$OUT/err" || fail "cstack=vm not used: $(grep -i cstack "$OUT/err")"
  local a b t s rooted burns
  a=$(sum_matching "$f" 'Burn7525[.]burnA') b=$(sum_matching "$f" 'Burn7525[.]burnB') t=$(truth burnA)
  s=$(share "$a" "$b")
  burns=$((a + b))
  rooted=$(grep -E 'JavaMain;.*JavaCalls::call_helper;Burn7525[.]main;Burn7525[.]burn[AB]' "$f" | sum_matching /dev/stdin .)
  echo "$(grep -oE "profiling started: engine [a-z]+" "$OUT/err" | head -n 1 | cut -d" " -f3-): burnA $a burnB $b share $s truth ${t:-none}; $rooted of $burns to the thread's root"
  # Under emulation a thread gets a few hundred of its 1 ms ticks a second (qemu-user delivers a signal
  # between translated blocks): 300 samples put the share within 0.05 of the truth at over 2 sigma.
  [ "$burns" -gt 300 ] || fail "only $burns burn samples"
  within "$s" "${t:-9}" 0.05 || fail "burnA's share $s, truth ${t:-none}"
  [ "$rooted" -ge $((burns * 9 / 10)) ] || fail "only $rooted of $burns burn samples walked to JavaMain through JavaCalls::call_helper"
}

case "$CASE" in
shares_cpu)
  shares cpu
  grep -q 'perf engine unavailable: perf_event_open' "$OUT/err" && grep -q 'using the ctimer engine' "$OUT/err" ||
    fail "the fallback from the perf engine is not in the log: $(head -n 3 "$OUT/err" | tr '\n' ' ')"
  echo "fallback logged: $(grep -o 'perf engine unavailable.*' "$OUT/err" | head -n 1)"
  # A perf event named outright has no fallback: the JVM refuses to start, saying why.
  if arm_java -agentpath:"$AGENT=start,event=cpu-clock,file=$OUT/perf.collapsed" -cp "$CP" Burn7525 1; then
    fail "event=cpu-clock started without perf_event_open"
  fi
  grep -q 'event=cpu-clock: Perf events unavailable: perf_event_open' "$OUT/err" ||
    fail "event=cpu-clock's refusal: $(head -n 3 "$OUT/err" | tr '\n' ' ')"
  echo "event=cpu-clock refused: $(grep -o 'event=cpu-clock: the perf engine.*' "$OUT/err" | head -n 1)" ;;
shares_itimer)
  shares itimer ;;
interleaved)
  f=$OUT/interleaved.collapsed
  with_agent "start,event=cpu,interval=1ms,ann,lines,file=$f" -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints \
    Interleaved "$WORK/lib/libcallback.so" 3
  l='(:[0-9]+)?'   # a Java frame's source line (lines)
  chain="JavaMain;jni_CallStaticVoidMethod;jni_invoke_static;JavaCalls::call_helper;Interleaved[.]main$l"'_\[.\];'"Interleaved[.]nativeCallback$l"'_\[.\];Java_Interleaved_nativeCallback;callback_call_java;jni_CallStaticVoidMethod;jni_invoke_static;JavaCalls::call_helper;'"Interleaved[.]javaLeaf$l"'_\[.\]'
  leaf=$(sum_matching "$f" 'Interleaved[.]javaLeaf') whole=$(grep -E "$chain" "$f" | sum_matching /dev/stdin .)
  burn=$(sum_matching "$f" 'Java_Interleaved_nativeCallback;callback_burn')
  types() { grep -oE "[A-Za-z0-9_\$]+$l"'_\['"$1"'\]' "$f" | sed 's/:[0-9]*_/_/' | sort -u | wc -l; }
  jit=$(types j) interp=$(types 0) inlined=$(types i)
  # The interpreted main is in its loop's one line whenever it calls nativeCallback (the line of the bci in
  # its frame); a wrong bytecode pointer slot gives bci 0, the first line of main.
  call_line=$(grep -n 'nativeCallback(200);' "$SRC/test/java/Interleaved.java" | cut -d: -f1)
  interp_calls=$(sum_matching "$f" 'Interleaved[.]main:[0-9]+_[[]0[]];Interleaved[.]nativeCallback')
  at_line=$(sum_matching "$f" "Interleaved[.]main:${call_line}_[[]0[]];Interleaved[.]nativeCallback")
  # An inlined frame is one scope of a compiled frame: its caller is compiled or inlined itself. With the
  # debug information of every pc (DebugNonSafepoints), JDK 17's C2 puts about a third of javaLeaf's samples
  # in its inlined step; JDK 21's C2 shows inlined JDK methods only (String.charAt...).
  misplaced=$(grep -oE "[^;]+;[^;]+$l"'_\[i\]' "$f" | grep -vcE "_\[[ij1]\];[^;]+_\[i\]\$")
  echo "javaLeaf $leaf samples, $whole with the whole chain to JavaMain; callback_burn $burn; methods typed compiled $jit, interpreted $interp, inlined $inlined ($misplaced under no compiled frame); interpreted main calling nativeCallback $interp_calls samples, $at_line at its line $call_line"
  # 100 samples each: at a load of 24 with two busy loops beside it the emulated JVM got 172 and 119 (about
  # 400 each on a quieter machine).
  [ "$leaf" -gt 100 ] && [ "$whole" -ge $((leaf * 9 / 10)) ] || fail "javaLeaf's stacks lack the chain: $(grep javaLeaf "$f" | sort -t' ' -k2 -nr | head -n 2)"
  [ "$burn" -gt 100 ] || fail "the C code's own time (callback_burn) is missing"
  # Under emulation C2 may inline nothing a sample lands in (JDK 21 in 1 of 4 runs, JDK 17 once in a CI run:
  # 9 compiled methods, 0 inlined): an inlined frame is not asked for, only that any is in its place.
  [ "$jit" -gt 0 ] && [ "$interp" -gt 0 ] || fail "frame types missing"
  [ "$misplaced" -eq 0 ] || fail "inlined frames under no compiled frame: $(grep -oE "[^;]+;[^;]+$l"'_\[i\]' "$f" | grep -vE "_\[[ij1]\];[^;]+_\[i\]\$" | head -n 3 | tr '\n' ' ')"
  [ "$interp_calls" -gt 100 ] && [ "$at_line" -eq "$interp_calls" ] ||
    fail "interpreted main's line: $(grep -oE 'Interleaved[.]main:[0-9]+_\[0\]' "$f" | sort | uniq -c | tr '\n' ' ')" ;;
wall)
  f=$OUT/wall.collapsed
  with_agent "start,event=wall,interval=5ms,threads,file=$f" $C1_ONLY WallWorkload 3
  half=$(sum_matching "$f" '^\[halfsleeper') slept=$(grep '^\[halfsleeper' "$f" | sum_matching /dev/stdin 'Thread[.]sleep')
  s=$(awk -v s="$slept" -v h="$half" 'BEGIN { printf "%.4f", h ? s / h : 0 }') t=$(truth sleeping_share)
  others=$(for fr in blockedOnMonitor waitForever parkForever; do sum_matching "$f" "WallWorkload[.]$fr"; done | sort -n | head -n 1)
  echo "halfsleeper $half samples, sleep share $s truth ${t:-none}; blocked/waiting/parked at least $others each"
  [ "$half" -gt 100 ] && within "$s" "${t:-9}" 0.1 && [ "$others" -gt 10 ] || fail "wall shares" ;;
alloc)
  f=$OUT/alloc.collapsed
  with_agent "start,event=alloc,file=$f" $C1_ONLY ReleaseWorkload alloc 2
  n=$(sum_matching "$f" "ReleaseWorkload[.]allocate") all=$(sum_matching "$f" .)
  echo "ReleaseWorkload.allocate weighs $n of $all"
  [ "$n" -gt 0 ] && [ "$n" -ge $((all / 2)) ] || fail "ReleaseWorkload.allocate weighs $n of $all" ;;
lock)
  # A monitor held 3 x 500 ms while a waiter blocks on it: the blocked time in the waiter's stack lies inside
  # the span the waiter measured around its entry. That span adds the waiter's spinning before it blocks
  # (HotSpot reports a contended entry after its spin) and its time around the wait: under emulation 15 ms a
  # wait, up to 100 ms on a loaded machine (measured: the profile 88% of the span at a load of 32, 59% at 28
  # with two more busy loops beside the test).
  f=$OUT/lock.collapsed
  with_agent "start,event=lock,total,file=$f" $C1_ONLY AllocLockWorkload lock 3 500
  seen=$(sum_matching "$f" 'AllocLockWorkload[.]waiterEnters;AllocLockWorkload[$]Monitor') t=$(truth waited_ns)
  echo "the waiter's monitor entries: $seen ns in the profile, ${t:-none} ns measured by the waiter"
  awk -v s="$seen" -v t="${t:-0}" 'BEGIN { exit !(t > 0 && s <= t + 1e6 && s >= t / 3) }' ||
    fail "lock time $seen ns, the waiter measured ${t:-none}" ;;
jfr)
  f=$OUT/cpu.jfr
  with_agent "start,event=cpu,interval=1ms,file=$f" $C1_ONLY Burn7525 1
  # Every event parsed by the root's own jfr (slow under emulation: its stacks cut to 3 frames), as many as
  # the arm64 jfrconv reads.
  "$QEMU" -L "$ROOT" "$ROOT$JDK/bin/jfr" print --events jdk.ExecutionSample --stack-depth 3 "$f" >"$OUT/print" 2>&1 ||
    fail "jfr print: $(tail -n 3 "$OUT/print")"
  "$QEMU" "$ARM/bin/jfrconv" -o collapsed "$f" "$OUT/cpu.collapsed" >"$OUT/jfrconv.out" 2>&1 ||
    fail "jfrconv: $(tail -n 3 "$OUT/jfrconv.out")"
  events=$(grep -c '^jdk.ExecutionSample' "$OUT/print") burn=$(grep -c 'Burn7525.burn[AB]' "$OUT/print")
  samples=$(sum_matching "$OUT/cpu.collapsed" .) burns=$(sum_matching "$OUT/cpu.collapsed" 'Burn7525[.]burn[AB]')
  echo "the root's jfr print: $events jdk.ExecutionSample events, $burn with Burn7525.burnA/B in their top 3 frames; jfrconv: $samples samples, $burns in burnA/B"
  # A burn sample's top 3 frames miss burnA/B when spin and a JVM frame sit above it (a third measured).
  [ "$events" -gt 0 ] && [ "$events" -eq "$samples" ] && [ "$burns" -gt 50 ] && [ $((burn * 2)) -ge "$burns" ] ||
    fail "the recording as jfr and jfrconv read it" ;;
jprof)
  "$QEMU" -L "$ROOT" "$ROOT$JDK/bin/java" $C1_ONLY -cp "$CP" AttachTarget >"$OUT/target.out" 2>&1 &
  pid=$!
  trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null' EXIT
  for _ in $(seq 1 720); do grep -q ready "$OUT/target.out" && break; sleep 0.25; done
  grep -q ready "$OUT/target.out" || fail "the target JVM did not start: $(tail -n 3 "$OUT/target.out")"
  f=$OUT/attach.collapsed
  timeout 120 "$QEMU" "$ARM/bin/jprof" start -e cpu -i 1ms -f "$f" "$pid" >"$OUT/start.out" 2>&1 ||
    fail "jprof start: $(tail -n 3 "$OUT/start.out" | tr '\n' ' ')"
  grep -q 'perf engine unavailable: perf_event_open.*using the ctimer engine' "$OUT/start.out" ||
    fail "jprof does not relay the perf engine's fallback: $(head -n 2 "$OUT/start.out" | tr '\n' ' ')"
  # Profiling lasts until the target has used 5 s of CPU (at most 90 s): a loaded machine gives the emulated
  # JVM less of it, and samples follow its CPU time, not the clock.
  cpu_ticks() { sed 's/.*) //' "/proc/$pid/stat" | awk '{ print $12 + $13 }'; }   # utime + stime, after comm
  from=$(cpu_ticks) hz=$(getconf CLK_TCK) waited=0
  while [ $(($(cpu_ticks) - from)) -lt $((5 * hz)) ] && [ "$waited" -lt 90 ]; do sleep 1; waited=$((waited + 1)); done
  timeout 120 "$QEMU" "$ARM/bin/jprof" stop -f "$f" "$pid" >"$OUT/stop.out" 2>&1 ||
    fail "jprof stop: $(tail -n 3 "$OUT/stop.out" | tr '\n' ' ')"
  a=$(sum_matching "$f" 'AttachTarget[.]burnSeventy') b=$(sum_matching "$f" 'AttachTarget[.]burnThirty') s=$(share "$a" "$b")
  kill -0 "$pid" 2>/dev/null || fail "the target JVM is gone after jprof stop"
  echo "the arm64 jprof attached to $pid (relaying the perf engine's fallback), started and stopped profiling ($waited s, 5 s of the target's CPU); burnSeventy $a burnThirty $b share $s (truth 0.7); the JVM runs on"
  # Under emulation and a loaded machine a thread gets some 30-100 ticks a second: 120 samples put the share
  # within 0.1 of the truth at over 2 sigma.
  [ $((a + b)) -gt 120 ] && within "$s" 0.7 0.1 || fail "burnSeventy's share $s of $((a + b)) samples" ;;
javaagent)
  # libprof.jar alone: its Agent extracts the library packed for this JVM's processor (linux-arm64).
  f=$OUT/javaagent.collapsed
  arm_java -javaagent:"$ARM/lib/libprof.jar=start,event=itimer,interval=1ms,file=$f" -cp "$CP" Burn7525 2 ||
    fail "the JVM failed (exit $?): $(tail -n 5 "$OUT/err" | tr '\n' ' ')"
  n=$(sum_matching "$f" 'Burn7525[.]burn[AB]')
  echo "-javaagent:libprof.jar (its linux-arm64 library): $n burn samples"
  [ "$n" -gt 150 ] || fail "only $n burn samples" ;;
nativemem)
  f=$OUT/nativemem.collapsed
  with_agent "start,event=nativemem,file=$f" $C1_ONLY NativeMem "$WORK/lib/libnativemem.so" sites 2000
  a=$(grep -E ';NativeMem[.]allocate;Java_NativeMem_allocate;nativemem_site_a;malloc_hook [0-9]+$' "$f" | sum_matching /dev/stdin .)
  b=$(grep -E ';NativeMem[.]allocate;Java_NativeMem_allocate;nativemem_site_b;calloc_hook [0-9]+$' "$f" | sum_matching /dev/stdin .)
  whole=$(grep -E '^start_thread;|^clone3;start_thread;|libc.so.6;ThreadJavaMain;' "$f" | grep -E 'JavaMain;.*NativeMem[.]main;NativeMem[.]allocate;Java_NativeMem_allocate;nativemem_site_' | sum_matching /dev/stdin .)
  echo "calls at site A $a (want 2000), site B $b (want 4000); $whole of them with the chain from the thread's root"
  [ "$a" -eq 2000 ] && [ "$b" -eq 4000 ] && [ "$whole" -eq 6000 ] || fail "calls per site" ;;
*)
  echo "jvm_tests.sh: unknown case '$CASE'" >&2; exit 2 ;;
esac
