package libprof;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The helper the class file rewriter's tests give classfile_tool (--helper libprof/CallCounter.hit): counts
 * the calls the rewritten methods make, by calling class and method, so a test can compare them with the
 * calls it made. (Kept beside the other test tools, which are compiled together, although its package is
 * libprof: javac places it by its package.)
 */
public final class CallCounter {
    private static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();
    private static final StackWalker WALKER = StackWalker.getInstance();

    private CallCounter() {}

    /** Called at the start of every rewritten method. */
    public static void hit() {
        String caller = WALKER.walk(s -> s.skip(1).findFirst()
                .map(f -> f.getClassName() + "." + f.getMethodName()).orElse("?"));
        COUNTS.computeIfAbsent(caller, k -> new AtomicLong()).incrementAndGet();
    }

    private static final AtomicLong ENTERS = new AtomicLong(), EXITS = new AtomicLong();

    /** classfile_tool --trace: called first by every rewritten method, with the method's id. */
    public static void enter(int id) {
        ENTERS.incrementAndGet();
    }

    /** classfile_tool --trace: called on every way out of a rewritten method (return or exception). */
    public static void exit(int id) {
        EXITS.incrementAndGet();
    }

    /** The traced calls entered and exited so far. */
    public static long[] traced() {
        return new long[] {ENTERS.get(), EXITS.get()};
    }

    /** Calls counted for "pkg.Class.method" (all overloads together). */
    public static long count(String method) {
        AtomicLong n = COUNTS.get(method);
        return n == null ? 0 : n.get();
    }

    public static Map<String, Long> snapshot() {
        Map<String, Long> m = new TreeMap<>();
        COUNTS.forEach((k, v) -> m.put(k, v.get()));
        return m;
    }
}
