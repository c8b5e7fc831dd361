#!/bin/bash
# Profiling a program with no JVM (nonjava.cmake). Usage:
#   nonjava_test.sh CASE LIBPROF NATIVE_BURN JDK TEST_CLASSES WORK
# Prints what it measured; exits 1 with FAIL: ... when a profile does not hold what the program did.
set -u
case_name=$1 lib=$2 prog=$3 jdk=$4 classes=$5 work=$6
rm -rf "$work" && mkdir -p "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

# Samples of the collapsed lines in $1 whose stack holds the frame $2.
samples_with() {
    awk -v f="$2" '{ n = $NF; $NF = ""; k = split($0, fr, ";"); for (i = 1; i <= k; i++) { sub(/ +$/, "", fr[i]);
        if (fr[i] == f) { s += n; break } } } END { print s + 0 }' "$1"
}

# burn_heavy's share of the two functions' samples in collapsed file $1 against the truth line in $2.
check_split() {
    local h l
    h=$(samples_with "$1" burn_heavy) l=$(samples_with "$1" burn_light)
    read -r _ th tl < <(grep '^truth ' "$2") || fail "no truth line in $2: $(cat "$2")"
    awk -v h="$h" -v l="$l" -v th="$th" -v tl="$tl" 'BEGIN {
        truth = th / (th + tl); share = (h + l) ? h / (h + l) : 0;
        printf "burn_heavy %d, burn_light %d samples: share %.3f, truth %.3f\n", h, l, share, truth;
        exit !(h + l >= 200 && share > truth - 0.08 && share < truth + 0.08) }' || fail "CPU split in $1"
}

case $case_name in
preload_split)
    # Started at load, written at exit, with no JVM in the process.
    LD_PRELOAD=$lib LIBPROF_COMMAND=start,event=cpu,interval=1ms,file=$work/out.collapsed \
        "$prog" burn 1200 > "$work/stdout" 2> "$work/stderr" || fail "exit $?: $(cat "$work/stderr")"
    [ -s "$work/out.collapsed" ] || fail "no profile at exit: $(cat "$work/stderr")"
    check_split "$work/out.collapsed" "$work/stdout"
    grep -q 'main;.*burn_heavy;spin ' "$work/out.collapsed" \
        || fail "no stack main -> burn_heavy -> spin: $(head -3 "$work/out.collapsed")"
    ;;
preload_threads)
    # Threads the program creates after the start: found by the thread listing, armed by ctimer.
    LD_PRELOAD=$lib LIBPROF_COMMAND=start,event=ctimer,interval=1ms,file=$work/out.collapsed \
        "$prog" threads > "$work/stdout" 2> "$work/stderr" || fail "exit $?: $(cat "$work/stderr")"
    check_split "$work/out.collapsed" "$work/stdout"
    ;;
preload_fork)
    # A child forked during the session ends by exit() at once; the parent's profile is written at its exit.
    timeout 30 env LD_PRELOAD="$lib" LIBPROF_COMMAND="start,event=cpu,interval=1ms,file=$work/out.collapsed" \
        "$prog" fork > "$work/stdout" 2> "$work/stderr" || fail "exit $? (124: hung): $(cat "$work/stderr")"
    check_split "$work/out.collapsed" "$work/stdout"
    ;;
preload_jfr)
    # async-profiler's variable; the recording read by the JDK's own jfr tool.
    LD_PRELOAD=$lib ASPROF_COMMAND=start,event=cpu,interval=1ms,file=$work/out.jfr \
        "$prog" burn 600 > "$work/stdout" 2> "$work/stderr" || fail "exit $?: $(cat "$work/stderr")"
    "$jdk/bin/jfr" summary "$work/out.jfr" > "$work/summary" || fail "jfr summary: $(cat "$work/summary")"
    n=$(awk '$1 == "jdk.ExecutionSample" { print $2 }' "$work/summary")
    [ "${n:-0}" -ge 200 ] || fail "jdk.ExecutionSample: ${n:-none} (of 600 ms at 1 ms)"
    "$jdk/bin/jfr" print --events jdk.ExecutionSample "$work/out.jfr" > "$work/print" || fail "jfr print"
    h=$(grep -c 'burn_heavy' "$work/print") l=$(grep -c 'burn_light' "$work/print")
    echo "jdk.ExecutionSample: $n; frames burn_heavy $h, burn_light $l"
    [ "$h" -gt "$l" ] && [ "$l" -gt 0 ] || fail "burn_heavy $h, burn_light $l in the recording"
    ;;
preload_html)
    LD_PRELOAD=$lib LIBPROF_COMMAND=start,event=itimer,file=$work/out.html \
        "$prog" burn 400 > "$work/stdout" 2> "$work/stderr" || fail "exit $?: $(cat "$work/stderr")"
    grep -q burn_heavy "$work/out.html" && grep -q '</html>' "$work/out.html" || fail "no complete HTML with burn_heavy"
    echo "HTML flame graph with burn_heavy: $(wc -c < "$work/out.html") bytes"
    ;;
api)
    "$prog" api "$lib" "$work/dump.collapsed" || fail "C API"
    ;;
nativemem)
    # Every allocation recorded (nativemem's default interval), weighed in bytes (total): the two call sites'
    # bytes are known exactly.
    LD_PRELOAD=$lib LIBPROF_COMMAND=start,nativemem,total,file=$work/out.collapsed \
        "$prog" malloc > "$work/stdout" 2> "$work/stderr" || fail "exit $?: $(cat "$work/stderr")"
    big=$(samples_with "$work/out.collapsed" alloc_big) small=$(samples_with "$work/out.collapsed" alloc_small)
    pointer=$(samples_with "$work/out.collapsed" alloc_by_pointer)
    echo "bytes: alloc_big $big (20 x 3000017 = 60000340), alloc_small $small (20 x 1000003 = 20000060)," \
         "alloc_by_pointer $pointer (20 x 2000003 = 40000060)"
    [ "$big" = 60000340 ] && [ "$small" = 20000060 ] && [ "$pointer" = 40000060 ] \
        || fail "allocation sites: $(grep alloc_ "$work/out.collapsed")"
    ;;
refuse)
    "$prog" refuse "$lib" || fail "Java-only requests"
    # The same by LD_PRELOAD: a clear message, the program unharmed.
    LD_PRELOAD=$lib LIBPROF_COMMAND=start,event=alloc,file=$work/out.html \
        "$prog" burn 20 > "$work/stdout" 2> "$work/stderr" || fail "exit $?"
    grep -q "alloc.*needs a Java VM" "$work/stderr" || fail "no message naming alloc: $(cat "$work/stderr")"
    [ ! -e "$work/out.html" ] || fail "a profile was written"
    echo "LD_PRELOAD: $(cat "$work/stderr")"
    ;;
host_rtld_local)
    "$prog" host "$lib" "$jdk/lib/server/libjvm.so" "$classes" || fail "JVM in libjvm loaded RTLD_LOCAL"
    ;;
preload_jvm_later)
    # Started with no JVM; the JVM the program creates later (libjvm RTLD_LOCAL) takes the session over.
    LD_PRELOAD=$lib LIBPROF_COMMAND=start,event=cpu,interval=1ms,file=$work/out.collapsed \
        "$prog" jvm_later "$jdk/lib/server/libjvm.so" "$classes" > "$work/stdout" 2> "$work/stderr" \
        || fail "exit $?: $(cat "$work/stderr")"
    [ -s "$work/out.collapsed" ] || fail "no profile at exit: $(cat "$work/stderr")"
    check_split "$work/out.collapsed" "$work/stdout"
    java=$(samples_with "$work/out.collapsed" ApiBurn.burn) main=$(samples_with "$work/out.collapsed" jni_CallStaticVoidMethod)
    echo "after the JVM started: $java of $main samples of the main thread in ApiBurn.burn"
    [ "$main" -ge 100 ] && [ $((java * 100)) -ge $((main * 80)) ] || fail "Java frames after the JVM started"
    ;;
*) fail "unknown test $case_name" ;;
esac
echo OK
