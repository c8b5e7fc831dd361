# Shared by the jprof integration test scripts (sourced): arguments, the work directory, JVM workloads
# started without the agent, running jprof and checking what it said.
# Sourced with the script's arguments: <case> <JAVA_HOME> <build dir> <workload classes dir>
CASE=$1 JDK=$2 BUILD=$3 CLASSES=$4
JPROF=$BUILD/bin/jprof
WORK=$(mktemp -d /tmp/jprof-test.XXXXXX)
chmod 755 "$WORK"
PIDS=()
FAILED=0

cleanup() {
  for p in "${PIDS[@]}"; do kill -9 "$p" 2>/dev/null; rm -f "/tmp/.java_pid$p"; done
  rm -rf "$WORK"
}
trap cleanup EXIT

fail() { echo "FAIL: $*" >&2; FAILED=1; }
pass() { echo "ok: $*"; }

# Starts the workload with extra JVM options; sets TARGET to its pid once it prints "ready".
# Runs it as $RUN_AS (a setpriv prefix), with main class $MAIN and workload argument $LOAD when set.
start_target() {
  local out=$WORK/target-$RANDOM.out
  (cd "$WORK" && exec ${RUN_AS:-} "$JDK/bin/java" -Xmx64m -XX:+UseSerialGC "$@" -cp "$CLASSES" ${MAIN:-AttachTarget} ${LOAD:-} >"$out" 2>&1) &
  TARGET=$!
  disown "$TARGET"   # its death by kill -9 is expected: no job notice
  PIDS+=("$TARGET")
  for _ in $(seq 1 100); do
    grep -q ready "$out" 2>/dev/null && return 0
    kill -0 "$TARGET" 2>/dev/null || break
    sleep 0.1
  done
  echo "workload did not start: $(cat "$out")" >&2
  exit 1
}

# Kills the last target once a case is done with it, to leave the CPU to the others.
end_target() { kill -9 "$TARGET" 2>/dev/null; }

# Runs jprof, capturing stdout, stderr and the exit status into OUT, ERR, RC.
run_jprof() {
  "$JPROF" "$@" >"$WORK/out" 2>"$WORK/err"
  RC=$?
  OUT=$(cat "$WORK/out")
  ERR=$(cat "$WORK/err")
}

expect_ok() {   # <what>
  if [ "$RC" -eq 0 ]; then pass "$1"; else fail "$1: exit $RC, stderr: $ERR"; fi
}

expect_error() {   # <what> <text expected on stderr>
  if [ "$RC" -ne 0 ] && grep -qF -- "$2" <<<"$ERR"; then pass "$1"
  else fail "$1: expected a non-zero exit and '$2' on stderr; got exit $RC, stderr: $ERR"; fi
}

# Sum of the sample counts of collapsed stacks (on stdin) that contain $1.
samples_with() { grep -F -- "$1" | awk '{ s += $NF } END { print s + 0 }'; }

status_field() { sed -n "s/^$1: //p" <<<"$OUT"; }

# True when a JVM can be started in namespaces of its own here; else says why not.
namespaces_usable() {
  if [ "$(id -u)" -ne 0 ] || ! unshare --mount --pid --fork --mount-proc true 2>/dev/null; then
    echo "skipped: namespace cases need root and unshare"; return 1
  fi
  case "$(realpath "$BUILD")" in /tmp/*)
    echo "skipped: namespace cases: the build is under /tmp, which the namespaced JVM replaces"; return 1 ;;
  esac
}

# Starts the workload in new pid and mount namespaces (a container without an image) with its own /tmp;
# $1: more shell commands to run inside first. Sets TARGET to the JVM's pid as we see it.
start_in_namespace() {
  local out=$WORK/ns-$RANDOM.out
  unshare --mount --pid --fork --mount-proc sh -c "mount -t tmpfs tmpfs /tmp && cd /tmp && $1
    exec '$JDK/bin/java' -Xmx64m -XX:+UseSerialGC -cp '$CLASSES' AttachTarget light" >"$out" 2>&1 &
  local parent=$!
  disown "$parent"; PIDS+=("$parent")
  for _ in $(seq 1 100); do
    grep -q ready "$out" 2>/dev/null && break
    kill -0 "$parent" 2>/dev/null || break
    sleep 0.1
  done
  TARGET=$(pgrep -P "$parent")
  [ -n "$TARGET" ] && grep -q ready "$out" || { echo "namespaced workload did not start: $(cat "$out")" >&2; exit 1; }
  PIDS+=("$TARGET")
}
