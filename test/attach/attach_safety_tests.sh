#!/usr/bin/env bash
# jprof must not harm what is not its own: a session directory swapped for a symlink while jprof
# waits (in our /tmp, and in a container's /tmp reached through /proc/<pid>/root) must not lead jprof's
# cleanup into the link's target; a jprof killed (SIGKILL) or hung up (SIGHUP, SIGTERM) during -d must not
# leave profiling running for the JVM's lifetime.
# A JVM stopped with SIGSTOP gets no command that would run when it continues.
# Usage: attach_safety_tests.sh <swap|container_swap|sigkill|signals|stopped> <JAVA_HOME> <build dir> <classes dir>
set -u
source "$(dirname "$0")/attach_lib.sh"
LOAD=light

# Waits until the jprof $1 has started profiling: its session directory in $2 (a /tmp) holds the agent's
# "profiling started". Sets SESSION to that directory.
wait_started() {
  local jp=$1 tmp=$2 d
  for _ in $(seq 1 600); do
    for d in "$tmp"/jprof-"$jp".*; do
      [ -d "$d" ] && grep -q "profiling started" "$d/agent.log" 2>/dev/null && { SESSION=$d; return 0; }
    done
    kill -0 "$jp" 2>/dev/null || break
    sleep 0.1
  done
  return 1
}

# A directory of files that are not jprof's: what a swapped session directory points to.
make_sacrificial() {
  mkdir -p "$WORK/sacrificial"
  echo one >"$WORK/sacrificial/precious-1"
  echo two >"$WORK/sacrificial/precious-2"
}

check_sacrificial() {
  if [ "$(cat "$WORK/sacrificial/precious-1" 2>/dev/null)" = one ] &&
     [ "$(cat "$WORK/sacrificial/precious-2" 2>/dev/null)" = two ]; then
    pass "the files behind the planted symlink survive"
  else
    fail "files behind the planted symlink were deleted or changed: $(ls -la "$WORK/sacrificial" 2>&1)"
  fi
}

# What a process owning the session directory (the JVM's user, or root in a container) can do while jprof
# waits: move it away and put a symlink to $2 in its place.
swap_for_symlink() {
  mv "$1" "$1.moved" && ln -s "$2" "$1"
}

# Runs jprof -d 4 in the background on $TARGET writing to $1, swaps its session directory in $2 (a /tmp)
# for a symlink to the sacrificial directory once profiling has started, and waits for jprof.
run_swapped() {
  make_sacrificial
  "$JPROF" -d 4 -i 1ms -f "$1" "$TARGET" >"$WORK/out" 2>"$WORK/err" &
  local jp=$!
  if ! wait_started "$jp" "$2"; then
    wait "$jp"; fail "jprof did not start profiling: $(cat "$WORK/err")"; return 1
  fi
  swap_for_symlink "$SESSION" "$WORK/sacrificial" || { fail "could not swap $SESSION"; return 1; }
  wait "$jp"; RC=$?; ERR=$(cat "$WORK/err")
  echo "jprof exit $RC, stderr: $ERR"
  check_sacrificial
  [ -L "$SESSION" ] && pass "the planted symlink is left alone" || fail "the planted symlink was removed"
  grep -q "moved or replaced" <<<"$ERR" && pass "jprof says its directory was tampered with" \
    || fail "no word about the replaced session directory: $ERR"
  # Only the planted link and the moved directory remain; both are this test's doing.
  rm -rf "$SESSION" "$SESSION.moved"
}

case_swap() {
  start_target
  run_swapped "$WORK/swap.collapsed" /tmp || return
  [ "$(samples_with AttachTarget <"$WORK/swap.collapsed")" -gt 0 ] && pass "the profile was still written" \
    || fail "no profile in $WORK/swap.collapsed"
}

case_container_swap() {
  namespaces_usable || return
  start_in_namespace ""
  # The link's target is an absolute host path: inside the container it names nothing, but through
  # /proc/<pid>/root an absolute symlink resolves in the host's file system.
  run_swapped /tmp/swap.collapsed "/proc/$TARGET/root/tmp" || return
  [ "$(samples_with AttachTarget <"/proc/$TARGET/root/tmp/swap.collapsed")" -gt 0 ] \
    && pass "the profile was written in the container" || fail "no profile in the container's /tmp"
}

# The state of the profiler in $TARGET, asked up to $1 times a second until it is $2.
wait_state() {
  local state=""
  for _ in $(seq 1 "$1"); do
    run_jprof status "$TARGET"; state=$(status_field state)
    [ "$state" = "$2" ] && break
    sleep 1
  done
  STATE=$state
}

case_sigkill() {
  start_target
  "$JPROF" -d 5 -i 1ms -f "$WORK/killed.collapsed" "$TARGET" >/dev/null 2>"$WORK/err" &
  local jp=$!
  wait_started "$jp" /tmp || { wait "$jp"; fail "jprof did not start profiling: $(cat "$WORK/err")"; return; }
  kill -9 "$jp"; { wait "$jp"; } 2>/dev/null
  # Nothing can clean up after SIGKILL: the agent must stop by itself, with the duration jprof sent.
  wait_state 45 idle
  [ "$STATE" = idle ] && pass "the agent stopped by itself after jprof -d 5 was killed" \
    || fail "profiler still '$STATE' 45 s after jprof -d 5 was killed"
  [ "$(samples_with AttachTarget <"$WORK/killed.collapsed")" -gt 0 ] && pass "it wrote the profile to -f" \
    || fail "no profile in $WORK/killed.collapsed: $(ls -la "$WORK")"
  rm -rf "$SESSION"   # jprof's directory, which SIGKILL left it no chance to remove
  # A jprof held up (SIGSTOP) past the agent's timeout: its stop finds the session ended, and the agent
  # returns that session's profile again (as asprof does), which jprof prints.
  "$JPROF" -d 1 -i 1ms -o collapsed "$TARGET" >"$WORK/late.out" 2>"$WORK/err" &
  jp=$!
  wait_started "$jp" /tmp || { wait "$jp"; fail "jprof did not start profiling: $(cat "$WORK/err")"; return; }
  kill -STOP "$jp"
  wait_state 45 idle
  kill -CONT "$jp"
  wait "$jp"; RC=$?; ERR=$(cat "$WORK/err")
  expect_ok "jprof -d 1 resumed after the agent's timeout"
  [ "$(samples_with AttachTarget <"$WORK/late.out")" -gt 0 ] && pass "it prints the profile the timeout wrote" \
    || fail "no profile printed: $(head -3 "$WORK/late.out")"
}

case_signals() {
  start_target
  local sig jp
  for sig in HUP TERM; do
    "$JPROF" -d 60 -i 1ms -f "$WORK/$sig.collapsed" "$TARGET" >/dev/null 2>"$WORK/err" &
    jp=$!
    wait_started "$jp" /tmp || { wait "$jp"; fail "jprof did not start profiling: $(cat "$WORK/err")"; continue; }
    sleep 1   # some samples first
    kill -"$sig" "$jp"
    { wait "$jp"; } 2>/dev/null; RC=$?; ERR=$(cat "$WORK/err")
    expect_ok "jprof -d 60 ended by SIG$sig"
    [ "$(samples_with AttachTarget <"$WORK/$sig.collapsed")" -gt 0 ] && pass "SIG$sig: the profile was written" \
      || fail "SIG$sig: no profile in $WORK/$sig.collapsed"
    wait_state 1 idle
    [ "$STATE" = idle ] && pass "SIG$sig: profiling stopped" || fail "SIG$sig: profiler still '$STATE'"
    [ -e "$SESSION" ] && fail "SIG$sig: session directory left behind: $SESSION" \
      || pass "SIG$sig: session directory removed"
  done
  # Under nohup a hangup is no reason to stop: jprof runs its full -d.
  nohup "$JPROF" -d 3 -i 1ms -f "$WORK/nohup.collapsed" "$TARGET" >/dev/null 2>"$WORK/err" &
  jp=$!
  if wait_started "$jp" /tmp; then
    kill -HUP "$jp"; sleep 0.5
    kill -0 "$jp" 2>/dev/null && pass "nohup: SIGHUP ignored" || fail "nohup: jprof ended on SIGHUP"
    wait "$jp"; RC=$?; ERR=$(cat "$WORK/err")
    expect_ok "nohup jprof -d 3 ran to its end"
    [ "$(samples_with AttachTarget <"$WORK/nohup.collapsed")" -gt 0 ] && pass "nohup: the profile was written" \
      || fail "nohup: no profile"
  else
    wait "$jp"; fail "nohup jprof did not start profiling: $(cat "$WORK/err")"
  fi
  # A signal while jprof waits for the attach listener ends the wait at once, and jprof removes its trigger
  # file and directory; the listener never comes in a JVM run with -XX:+DisableAttachMechanism.
  end_target
  start_target -XX:+DisableAttachMechanism
  "$JPROF" status --attach-timeout 60 "$TARGET" >/dev/null 2>"$WORK/err" &
  jp=$!
  for _ in $(seq 1 100); do [ -e "$WORK/.attach_pid$TARGET" ] && break; sleep 0.1; done
  [ -e "$WORK/.attach_pid$TARGET" ] || fail "jprof created no trigger file in the JVM's directory"
  local session=$(ls -d /tmp/jprof-"$jp".* 2>/dev/null)
  kill -HUP "$jp"
  { wait "$jp"; } 2>/dev/null; RC=$?; ERR=$(cat "$WORK/err")
  expect_error "SIGHUP while waiting for the listener" "interrupted"
  [ -e "$WORK/.attach_pid$TARGET" ] && fail "trigger file left behind" || pass "trigger file removed"
  [ -n "$session" ] && [ ! -e "$session" ] && pass "session directory removed" \
    || fail "session directory '$session' not seen or left behind"
}

# A JVM stopped with SIGSTOP: jprof says so at once and sends nothing, so no stale command runs when the JVM
# is continued.
case_stopped() {
  start_target
  wait_state 30 idle
  kill -STOP "$TARGET"
  # kill returns before the threads have stopped: wait for the stop itself, as a JVM stopped long ago is.
  for _ in $(seq 1 50); do [ "$(awk '{ print $3 }' "/proc/$TARGET/stat" 2>/dev/null)" = T ] && break; sleep 0.1; done
  local t0=$SECONDS
  run_jprof start -e cpu -i 1ms -f "$WORK/stale.collapsed" "$TARGET"
  local took=$((SECONDS - t0))
  kill -CONT "$TARGET"
  expect_error "jprof start on a stopped JVM" "is stopped"
  [ "$took" -le 10 ] && pass "it said so in ${took} s" || fail "it took ${took} s to give up"
  sleep 3
  wait_state 5 idle
  [ "$STATE" = idle ] && pass "no stale start ran once the JVM continued"     || fail "the JVM runs a session nobody started for it: state '$STATE'"
}

case "$CASE" in
  stopped) case_stopped ;;
  swap) case_swap ;;
  container_swap) case_container_swap ;;
  sigkill) case_sigkill ;;
  signals) case_signals ;;
  *) echo "unknown case $CASE" >&2; exit 2 ;;
esac
[ "$FAILED" -eq 0 ] && echo "PASS: $CASE on $JDK" || echo "FAILED: $CASE on $JDK"
exit "$FAILED"
