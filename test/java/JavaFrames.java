import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Workloads whose Java frames have a known shape, for the walker's own naming of Java frames:
 *   inline S       hotCaller -> inlinee -> work: run with -XX:CompileCommand=inline,JavaFrames::inlinee and
 *                  dontinline,JavaFrames::work, C2 inlines inlinee into hotCaller and calls work, so that
 *                  work's samples have the inlined frame inlinee between work and hotCaller
 *   warm S         one method (JavaFrames.warming) run for S seconds: interpreted, C1 or C2 by the JVM's flags
 *   arraycopy S    StringBuilder.deleteCharAt(0) on a long builder: almost all time in the arraycopy stub
 *   megamorphic S  an interface call site with five receiver classes: itable stubs
 * Each runs its loop on the main thread for S seconds of the thread's CPU time (so that a loaded machine
 * gives as many samples, only later; at most 60 s of wall time) and prints "JAVAFRAMES <mode> done <sum>".
 */
public class JavaFrames {
    static volatile long sink;

    static final List<String> MODES = List.of("inline", "warm", "arraycopy", "megamorphic");

    public static void main(String[] args) {
        int mode = MODES.indexOf(args[0]);
        if (mode < 0) throw new IllegalArgumentException("unknown mode " + args[0]);
        long sum = loop(mode, (long) (Double.parseDouble(args[1]) * 1e9), System.nanoTime() + 60_000_000_000L);
        System.out.println("JAVAFRAMES " + args[0] + " done " + sum);
    }

    /** The workload's loop, apart from main's start-up (parsing, class loading): a plain int switch. */
    static long loop(int mode, long cpuNanos, long deadline) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long until = threads.getCurrentThreadCpuTime() + cpuNanos, sum = 0;
        while (threads.getCurrentThreadCpuTime() < until && System.nanoTime() < deadline) {
            for (int i = 0; i < 16; i++) {   /* reading the clock is a system call: not every round */
                switch (mode) {
                    case 0: sum += hotCaller(100_000); break;
                    case 1: sum += warming(20_000); break;
                    case 2: sum += deleteFromFront(20_000); break;
                    default: sum += callShapes(200_000); break;
                }
            }
        }
        return sum;
    }

    /** The caller: its loop calls inlinee, small and hot, which C2 inlines. */
    static long hotCaller(int n) {
        long s = 0;
        for (int i = 0; i < n / 100; i++) s += inlinee(i, s);
        return s;
    }

    static long inlinee(int i, long s) {
        return work(s ^ (i * 0x9E3779B97F4A7C15L));
    }

    /** Where the time goes: a real call from inlinee's inlined code (kept out of line by the test's flags). */
    static long work(long x) {
        for (int k = 0; k < 100; k++) x = (x >>> 7) ^ (x << 3) ^ k;
        return x;
    }

    /** Work of its own, too large to be inlined anywhere it matters. */
    static long warming(int n) {
        long s = 1;
        for (int i = 0; i < n; i++) {
            s = s * 31 + (i ^ (s >>> 11));
            if ((s & 1023) == 7) s += i;
        }
        return s;
    }

    static final StringBuilder TEXT = new StringBuilder();

    /** Deleting the first char shifts the rest down with System.arraycopy: the arraycopy stub's time. */
    static long deleteFromFront(int n) {
        if (TEXT.length() < 100_000) TEXT.append("x".repeat(300_000));
        for (int i = 0; i < n / 100; i++) TEXT.deleteCharAt(0);
        return TEXT.length();
    }

    interface Shape {
        long area(long x);
    }

    static final class A implements Shape { public long area(long x) { return x + 1; } }
    static final class B implements Shape { public long area(long x) { return x * 3; } }
    static final class C implements Shape { public long area(long x) { return x ^ 5; } }
    static final class D implements Shape { public long area(long x) { return x - 7; } }
    static final class E implements Shape { public long area(long x) { return x >>> 1; } }

    static final Shape[] SHAPES = {new A(), new B(), new C(), new D(), new E()};

    /** One call site, five receiver classes in random order: HotSpot calls through an itable stub. */
    static long callShapes(int n) {
        long s = 0;
        ThreadLocalRandom r = ThreadLocalRandom.current();
        for (int i = 0; i < n; i++) s += SHAPES[r.nextInt(SHAPES.length)].area(i);
        sink = s;
        return s;
    }
}
