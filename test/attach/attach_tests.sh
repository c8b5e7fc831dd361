#!/usr/bin/env bash
# Integration tests of jprof against real JVMs started WITHOUT the agent.
# Usage: attach_tests.sh <profile|flow|cycles|errors|namespace|parity> <JAVA_HOME> <build dir> <workload classes dir>
# Every JVM a case starts is killed on exit; every failed check prints what was expected and what came.
set -u
source "$(dirname "$0")/attach_lib.sh"

case_profile() {
  start_target
  local t0=$(date +%s%N)
  run_jprof -d 3 -i 1ms -o collapsed "$TARGET"
  local ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  expect_ok "jprof -d 3 on a JVM started without the agent (${ms} ms)"
  local seventy thirty total
  seventy=$(samples_with AttachTarget.burnSeventy <<<"$OUT")
  thirty=$(samples_with AttachTarget.burnThirty <<<"$OUT")
  total=$(awk '{ s += $NF } END { print s + 0 }' <<<"$OUT")
  echo "samples: burnSeventy=$seventy burnThirty=$thirty all=$total"
  if [ $((seventy + thirty)) -lt 50 ]; then fail "too few samples of the workload: $seventy + $thirty"
  else
    local share=$(( 100 * seventy / (seventy + thirty) ))
    if [ "$share" -ge 60 ] && [ "$share" -le 80 ]; then pass "burnSeventy share $share% (expected 70 +- 10)"
    else fail "burnSeventy share $share%, expected 70 +- 10"; fi
  fi
  # The workload thread is what the profile is about (not JIT or GC threads).
  [ $((100 * (seventy + thirty) / (total > 0 ? total : 1))) -ge 50 ] && pass "workload methods dominate the profile" \
    || fail "workload methods are only $((seventy + thirty)) of $total samples"
  # Finding the JVM by main class name, like jps; text format by default on stdout.
  end_target
  MAIN=AttachByName start_target
  run_jprof -d 1 AttachByName
  expect_ok "jprof -d 1 AttachByName (by main class name)"
  # Either phase: at the default 10 ms a perf period can lock onto the workload's 10 ms phase cycle.
  grep -q "AttachTarget.burn" <<<"$OUT" && pass "text report on stdout names the workload" || fail "text report: $OUT"
}

case_flow() {
  start_target
  local log=$WORK/flow
  touch "$WORK/flow-began"
  run_jprof status "$TARGET"; expect_ok "status before any session"
  [ "$(status_field state)" = idle ] && pass "state idle" || fail "status before start: $OUT"
  run_jprof stop "$TARGET"; expect_error "stop while idle" "not running"
  run_jprof start -e cpu -i 1ms "$TARGET"; expect_ok "start -e cpu -i 1ms"
  grep -qx "Profiling started" <<<"$OUT" && pass "start says so as asprof does" || fail "start printed: $OUT"
  [ -z "$ERR" ] && pass "start is quiet on stderr" || fail "start's stderr: $ERR"
  run_jprof start "$TARGET"; expect_error "start while running" "already running"
  sleep 1
  run_jprof status "$TARGET"; expect_ok "status while running"
  for f in state engine elapsed_s samples dropped; do
    [ -n "$(status_field $f)" ] || fail "status has no '$f': $OUT"
  done
  [ "$(status_field state)" = running ] && pass "state running, $(status_field samples) samples" || fail "status: $OUT"
  [ "$(status_field samples)" -gt 20 ] && pass "samples counted" || fail "samples: $(status_field samples)"
  run_jprof dump -o collapsed "$TARGET"; expect_ok "dump to stdout"
  [ "$(samples_with burnSeventy <<<"$OUT")" -gt 0 ] && pass "dump has the hot method" || fail "dump: $OUT"
  run_jprof status "$TARGET"
  [ "$(status_field state)" = running ] && pass "still running after dump" || fail "after dump: $OUT"
  mkdir -p "$log"
  run_jprof stop -f "$log/out.collapsed" "$TARGET"; expect_ok "stop -f file"
  [ "$(samples_with burnSeventy <"$log/out.collapsed")" -gt 0 ] && pass "stop wrote the file" || fail "file: $(head -3 "$log/out.collapsed")"
  [ -z "$OUT" ] && pass "nothing on stdout with -f" || fail "stdout with -f: $OUT"
  # Like asprof: after the session ended, dump (or stop) writes its profile again.
  run_jprof dump -f "$log/again.collapsed" "$TARGET"; expect_ok "dump after stop"
  cmp -s "$log/out.collapsed" "$log/again.collapsed" && pass "dump after stop writes the last profile again" \
    || fail "dump after stop: $(head -3 "$log/again.collapsed")"
  run_jprof start -f "$log/rel-%p.txt" "$TARGET"; expect_ok "start again with -f"
  (cd "$log" && "$JPROF" stop -f rel.collapsed "$TARGET" >/dev/null 2>&1) && [ -f "$log/rel.collapsed" ] \
    && pass "relative -f is resolved against jprof's directory" || fail "relative -f: $(ls "$log")"
  run_jprof version "$TARGET"; expect_ok "version"
  grep -qx "[0-9][0-9]*\(\.[0-9][0-9]*\)\{1,\}" <<<"$OUT" && pass "version, a bare number: $OUT" || fail "version: $OUT"
  run_jprof stop -o collapsed "$TARGET"; expect_ok "stop after the session ended"
  run_jprof start "$TARGET"; run_jprof stop -f /nonexistent-dir/x.collapsed "$TARGET"
  expect_error "unwritable output file: the agent's own message" "cannot write the profile"
  run_jprof -i 0 -d 1 "$TARGET"; expect_error "bad option refused before attaching" "interval"
  # Ctrl-C during -d stops early and still prints the profile.
  "$JPROF" -d 30 -i 1ms -o collapsed "$TARGET" >"$WORK/int.out" 2>"$WORK/int.err" &
  local jp=$! t0
  sleep 1.5; kill -INT "$jp"; t0=$(date +%s%N)
  wait "$jp"; RC=$?; ERR=$(cat "$WORK/int.err")
  local ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  expect_ok "Ctrl-C during -d 30 (returned after ${ms} ms)"
  [ "$ms" -lt 5000 ] && pass "stopped early" || fail "Ctrl-C took $ms ms"
  [ "$(samples_with AttachTarget <"$WORK/int.out")" -gt 0 ] && pass "profile printed after Ctrl-C" \
    || fail "no profile after Ctrl-C: $(head -3 "$WORK/int.out")"
  # The countdown shows only when stderr is a terminal.
  grep -q "s left" "$WORK/int.err" && fail "countdown written to a file" || pass "no countdown when stderr is a file"
  if command -v script >/dev/null; then
    script -qec "'$JPROF' -d 2 -o collapsed $TARGET >/dev/null" "$WORK/tty.txt" >/dev/null 2>&1
    grep -q "Profiling for 2 s: 1 s left" "$WORK/tty.txt" && pass "countdown on a terminal" \
      || fail "no countdown on a terminal: $(cat -v "$WORK/tty.txt" | head -5)"
  fi
  run_jprof list; expect_ok "list"
  grep -q ctimer <<<"$OUT" && pass "list shows ctimer" || fail "list: $OUT"
  # Every kind of event the agent accepts: native memory and locks, method calls, the perf events by name.
  for e in nativemem nativelock pkg.Class.method page-faults context-switches; do
    grep -qx "  $e" <<<"$OUT" && pass "list shows $e" || fail "list lacks $e: $OUT"
  done
  "$JPROF" --help | grep -q "^Formats this agent writes now:.* pprof speedscope cpuprofile gecko" &&
    pass "help names the viewer formats" || fail "help: $("$JPROF" --help | grep Formats)"
  # Directories of jprof processes that have exited must be gone (other tests' jprof may still run). Only
  # those made during this flow: a jprof killed by someone else long before leaves its own behind.
  local d owner
  for d in /tmp/jprof-[0-9]*.*; do
    [ -d "$d" ] && [ "$d" -nt "$WORK/flow-began" ] || continue
    owner=${d#/tmp/jprof-}; owner=${owner%%.*}
    kill -0 "$owner" 2>/dev/null || fail "session directory left behind: $d"
  done
  kill -0 "$TARGET" && pass "JVM alive after the flow" || fail "JVM died"
}

fd_count() { ls "/proc/$1/fd" | wc -l; }
rss_kb() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }

# ATTACH_CYCLES start/stop cycles on one JVM (20 in the test run, 50 in ./build.sh stress), the stop of each
# cycle writing a different format in turn; descriptors and RSS must come back to where they were.
case_cycles() {
  local cycles=${ATTACH_CYCLES:-20} formats=(collapsed flamegraph tree text)
  start_target
  run_jprof start -i 1ms "$TARGET" && run_jprof stop -o collapsed "$TARGET"   # warm-up: first attach, first session
  sleep 0.5
  local fd0=$(fd_count "$TARGET") rss0=$(rss_kb "$TARGET") t0=$(date +%s%N) samples=0 format
  for i in $(seq 1 "$cycles"); do
    format=${formats[$(( i % ${#formats[@]} ))]}
    run_jprof start -i 1ms "$TARGET"; [ "$RC" -eq 0 ] || { fail "cycle $i start: $ERR"; break; }
    run_jprof stop -o "$format" "$TARGET"; [ "$RC" -eq 0 ] || { fail "cycle $i stop ($format): $ERR"; break; }
    case $format in
      collapsed) samples=$((samples + $(samples_with AttachTarget <<<"$OUT"))) ;;
      flamegraph|tree) grep -q '</html>' <<<"$OUT" || { fail "cycle $i: $format output is not a whole page"; break; } ;;
      text) grep -q 'samples' <<<"$OUT" || { fail "cycle $i: text output without a sample count"; break; } ;;
    esac
  done
  # A cycle may fall in the workload's rest; all cycles together must have seen it.
  [ "$samples" -gt 0 ] && pass "cycles sampled the workload ($samples samples)" || fail "no samples in $cycles cycles"
  local ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  sleep 0.5
  local fd1=$(fd_count "$TARGET") rss1=$(rss_kb "$TARGET")
  echo "$cycles cycles in $ms ms ($((ms / (2 * cycles))) ms per attach); fds $fd0 -> $fd1; RSS $rss0 -> $rss1 kB"
  kill -0 "$TARGET" && pass "JVM alive after $cycles start/stop cycles" || fail "JVM died during the cycles"
  [ "$fd1" -le "$fd0" ] && pass "no descriptor growth" || fail "descriptors grew: $fd0 -> $fd1"
  [ $((rss1 - rss0)) -le 10240 ] && pass "RSS growth $((rss1 - rss0)) kB <= 10 MB" || fail "RSS grew by $((rss1 - rss0)) kB"
}

case_errors() {
  run_jprof status 99999999; expect_error "no such process" "no such process"
  run_jprof status NoSuchMainClass42; expect_error "no such main class" "no running JVM"
  sleep 30 & local sleeper=$!; disown "$sleeper"; PIDS+=("$sleeper")
  run_jprof status "$sleeper"; expect_error "not a JVM" "is not a JVM"
  kill -0 "$sleeper" && pass "the non-JVM was not signalled" || fail "the non-JVM died"

  start_target -XX:+DisableAttachMechanism
  local t0=$(date +%s%N)
  run_jprof status --attach-timeout 2 "$TARGET"
  local ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  expect_error "attach timed out" "DisableAttachMechanism"
  [ "$ms" -lt 5000 ] && pass "timeout honoured (${ms} ms)" || fail "took $ms ms"
  ls -a "$WORK" /tmp | grep -q "^.attach_pid$TARGET$" && fail "trigger file left behind" || pass "trigger file removed"

  # A JVM that dies while jprof waits: a clear message at once, not the full timeout.
  ("$JPROF" status --attach-timeout 20 "$TARGET" >"$WORK/out" 2>"$WORK/err"; echo $? >"$WORK/rc") &
  local waiter=$!
  sleep 0.5; kill -9 "$TARGET"; t0=$(date +%s%N)
  wait "$waiter"; ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  RC=$(cat "$WORK/rc"); ERR=$(cat "$WORK/err")
  expect_error "JVM killed during attach" "exited"
  [ "$ms" -lt 3000 ] && pass "noticed within ${ms} ms" || fail "took $ms ms to notice"

  # A JVM that exits normally during -d: the agent dumps at exit, jprof says so and fails.
  start_target
  "$JPROF" -d 30 -i 1ms -o collapsed "$TARGET" >"$WORK/exit.out" 2>"$WORK/exit.err" &
  local jp=$!
  sleep 1.5; kill -TERM "$TARGET"
  wait "$jp"; RC=$?; ERR=$(cat "$WORK/exit.err")
  expect_error "JVM exits during -d" "exited while profiling"
  [ "$(samples_with AttachTarget <"$WORK/exit.out")" -gt 0 ] && pass "the profile dumped at exit is printed" \
    || fail "no profile from the exiting JVM: $(head -3 "$WORK/exit.out")"

  start_target
  local jvm=$TARGET
  run_jprof status --libpath /etc/hostname "$jvm"; expect_error "not a library: the JVM's message" "was not loaded"
  run_jprof status --libpath /nonexistent/libprof.so "$jvm"; expect_error "missing library" "/nonexistent/libprof.so"
  run_jprof -X 'a,b' "$jvm"; expect_error "comma in a value" "may not contain ','"
  run_jprof --reverse -d 1 "$jvm"
  if [ "$RC" -ne 0 ]; then expect_error "an option the agent does not know yet" "unknown option 'reverse'"
  else pass "--reverse accepted by this agent"; fi

  # JDK 21+ can forbid loading agents at run time: the JVM's own reason is shown.
  if "$JDK/bin/java" -XX:-EnableDynamicAgentLoading -version >/dev/null 2>&1; then
    end_target
    start_target -XX:-EnableDynamicAgentLoading
    run_jprof status "$TARGET"; expect_error "dynamic agent loading disabled" "EnableDynamicAgentLoading"
    end_target
    start_target
    jvm=$TARGET
  fi
  # A thread id is not a process id.
  run_jprof status "$(ls "/proc/$jvm/task" | sed -n 3p)"; expect_error "a thread id" "is a thread of process $jvm"

  # A planted symlink where the trigger file goes is never followed.
  end_target
  start_target
  ln -s "$WORK/victim" "$WORK/.attach_pid$TARGET"
  run_jprof status "$TARGET"; expect_ok "attach with a symlink planted in the JVM's working directory"
  [ -e "$WORK/victim" ] && fail "the planted symlink was followed" || pass "symlink not followed"

  if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null || ! setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
    echo "skipped: another-user cases need root and setpriv"; return
  fi
  if ! setpriv --reuid=65534 --regid=65534 --clear-groups test -r "$BUILD/lib/libprof.so"; then
    echo "skipped: another-user cases: nobody cannot read $BUILD/lib/libprof.so"; return
  fi
  end_target
  RUN_AS="setpriv --reuid=65534 --regid=65534 --clear-groups" start_target
  local theirs=$TARGET
  "$JPROF" status "$theirs" >/dev/null 2>&1   # as root: switches to nobody and works
  RC=$?; ERR=""; expect_ok "root attaches to a JVM of user nobody"
  setpriv --reuid=12345 --regid=12345 --clear-groups "$JPROF" status "$theirs" >"$WORK/out" 2>"$WORK/err"
  RC=$?; ERR=$(cat "$WORK/err"); expect_error "another user's JVM" "permission denied"
  cp "$BUILD/lib/libprof.so" "$WORK/private.so"; chmod 600 "$WORK/private.so"
  run_jprof status --libpath "$WORK/private.so" "$theirs"; expect_error "library the JVM cannot read" "not readable by the user"
  # A stale socket of the JVM's own user (a dead JVM with the same pid) is replaced by the real listener.
  [ -x /usr/bin/python3 ] || { echo "skipped: planted socket cases need /usr/bin/python3"; return; }
  end_target
  start_target
  /usr/bin/python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])" "/tmp/.java_pid$TARGET"
  run_jprof status --attach-timeout 5 "$TARGET"; expect_ok "attach past a stale socket"
  # A socket planted by another user under the JVM's name is refused, not talked to.
  end_target
  start_target -XX:+DisableAttachMechanism
  # A socket a dead JVM with the same pid left (killed earlier in the suite: pids are reused) would make the
  # bind fail; this JVM has no listener of its own (attach disabled), so the name is free to plant.
  rm -f "/tmp/.java_pid$TARGET"
  setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 -c \
    "import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])" "/tmp/.java_pid$TARGET" ||
    fail "could not plant a socket at /tmp/.java_pid$TARGET"
  run_jprof status --attach-timeout 1 "$TARGET"; rm -f "/tmp/.java_pid$TARGET"
  expect_error "socket planted by another user" "not owned by the JVM's user"
}

case_namespace() {
  namespaces_usable || return
  start_in_namespace ""
  local nspid=$(awk '/^NSpid/ { print $NF }' "/proc/$TARGET/status")
  echo "JVM $TARGET is pid $nspid in its namespace"
  [ "$nspid" != "$TARGET" ] && pass "the JVM has its own pid namespace" || fail "no pid namespace"
  run_jprof -d 1 -i 1ms -o collapsed "$TARGET"; expect_ok "jprof -d 1 into another pid and mount namespace"
  [ "$(samples_with AttachTarget <<<"$OUT")" -gt 0 ] && pass "profile from the namespaced JVM" || fail "profile: $OUT"
  [ -S "/proc/$TARGET/root/tmp/.java_pid$nspid" ] && pass "its socket is in its own /tmp" || fail "no socket there"
  ls -a "/proc/$TARGET/root/tmp" | grep -q "^jprof-" && fail "session directory left in its /tmp" || pass "its /tmp is clean"
  end_target
  # The library's directory hidden inside the namespace: refused before attaching, with the reason.
  start_in_namespace "mount -t tmpfs tmpfs '$BUILD/lib' &&"
  run_jprof status "$TARGET"; expect_error "library not visible in the container" "not visible inside the container"
}

# asprof's habits: -v, collect spelled out, load, metrics, --loop, and jps as the target.
case_parity() {
  run_jprof -v; expect_ok "jprof -v"
  grep -q "^jprof (libprof) [0-9]" <<<"$OUT" && pass "version: $OUT" || fail "jprof -v printed: $OUT"
  start_target
  run_jprof load "$TARGET"; expect_ok "jprof load"
  grep -q "loaded into JVM $TARGET" <<<"$OUT" && pass "load says so" || fail "load printed: $OUT"
  run_jprof status "$TARGET"; expect_ok "status after load"
  [ "$(status_field state)" = idle ] && pass "load started nothing" || fail "state after load: $OUT"
  run_jprof collect -d 1 -i 1ms -o collapsed "$TARGET"; expect_ok "jprof collect -d 1"
  [ "$(samples_with AttachTarget <<<"$OUT")" -gt 0 ] && pass "collect profiles the workload" || fail "collect: $OUT"
  # Quiet as asprof: the agent's info lines only when asked for with -L info.
  ! grep -q "INFO" <<<"$ERR" && pass "no info lines on stderr" || fail "info lines without -L: $ERR"
  run_jprof -L info collect -d 1 -i 1ms -o collapsed "$TARGET"; expect_ok "jprof -L info collect -d 1"
  grep -q "\[libprof\] INFO: profiling started" <<<"$ERR" && pass "-L info shows them" || fail "-L info: $ERR"
  run_jprof metrics "$TARGET"; expect_ok "jprof metrics"
  if command -v promtool >/dev/null; then
    promtool check metrics <<<"$OUT" && pass "promtool reads the metrics" || fail "promtool refused: $OUT"
  else fail "promtool not installed (./build.sh installs the prometheus package)"; fi
  # --loop from jprof: periods of 1 s, numbered files, for 3.5 s.
  run_jprof start --loop 1s -e ctimer -i 1ms -f "$WORK/loop-%n.collapsed" "$TARGET"; expect_ok "jprof start --loop 1s"
  sleep 3.5
  run_jprof stop "$TARGET"; expect_ok "stop of the loop"
  for n in 0 1 2; do
    [ "$(samples_with AttachTarget < "$WORK/loop-$n.collapsed")" -gt 0 ] && pass "loop period $n written" \
      || fail "loop period $n: $(cat "$WORK/loop-$n.collapsed" 2>&1)"
  done
  end_target
  # jps: the one JVM running here; in a pid namespace of its own, where it is alone.
  namespaces_usable || return
  local out=$WORK/jps.out
  unshare --pid --fork --mount-proc sh -c "'$JDK/bin/java' -Xmx64m -cp '$CLASSES' AttachTarget light >'$WORK/jps-target.out' 2>&1 &
    for i in \$(seq 1 100); do grep -q ready '$WORK/jps-target.out' && break; sleep 0.1; done
    '$JPROF' status jps; echo rc=\$?; kill -9 \$!" >"$out" 2>&1
  grep -q "^state: idle" "$out" && grep -q "^rc=0" "$out" && pass "jprof status jps finds the one JVM" \
    || fail "jprof status jps: $(cat "$out")"
}

# Only the profile case measures shares: the others run a lighter workload to leave it the CPU.
[ "$CASE" = profile ] || LOAD=light
case "$CASE" in
  profile) case_profile ;;
  flow) case_flow ;;
  cycles) case_cycles ;;
  errors) case_errors ;;
  namespace) case_namespace ;;
  parity) case_parity ;;
  *) echo "unknown case $CASE" >&2; exit 2 ;;
esac
[ "$FAILED" -eq 0 ] && echo "PASS: $CASE on $JDK" || echo "FAILED: $CASE on $JDK"
exit "$FAILED"
