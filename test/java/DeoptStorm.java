import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.MutableCallSite;

/**
 * A deoptimisation-heavy workload for the failure-marker tests: a recursive method whose compiled code
 * inlines the target of a MutableCallSite, while another thread keeps changing that target. Each change
 * invalidates the nmethods that depend on it, so HotSpot deoptimises every compiled frame of the recursion
 * on the stack (their return addresses patched to the deoptimisation handler) and each goes through the
 * deoptimisation blob when returned into; the method is then recompiled and the cycle repeats.
 * Usage: java DeoptStorm [cpu seconds=2] [depth=40] [flip every ms=2]
 */
public class DeoptStorm {
    static final MutableCallSite SITE = new MutableCallSite(MethodType.methodType(long.class, long.class));
    static final MethodHandle INVOKER = SITE.dynamicInvoker();
    static volatile boolean done;
    static long sink;

    static long mulA(long x) { return x * 31 + 7; }

    static long mulB(long x) { return x * 17 + 3; }

    static long recurse(int depth, long x) throws Throwable {
        if (depth == 0) {
            long s = x;
            for (int i = 0; i < 3000; i++) s = (long) INVOKER.invokeExact(s);
            return s;
        }
        return recurse(depth - 1, (long) INVOKER.invokeExact(x)) + 1;
    }

    public static void main(String[] args) throws Throwable {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 2;
        int depth = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        long flipMillis = args.length > 2 ? Long.parseLong(args[2]) : 2;
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        MethodType type = MethodType.methodType(long.class, long.class);
        MethodHandle a = lookup.findStatic(DeoptStorm.class, "mulA", type), b = lookup.findStatic(DeoptStorm.class, "mulB", type);
        SITE.setTarget(a);
        Thread flipper = new Thread(() -> {
            boolean which = false;
            while (!done) {
                SITE.setTarget(which ? a : b);
                which = !which;
                try {
                    Thread.sleep(flipMillis);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "flipper");
        flipper.start();
        var bean = java.lang.management.ManagementFactory.getThreadMXBean();
        long end = bean.getCurrentThreadCpuTime() + (long) (seconds * 1e9);
        long s = 0;
        while (bean.getCurrentThreadCpuTime() < end) s += recurse(depth, s);
        done = true;
        flipper.join();
        sink = s;
        System.out.println("done " + (s != 0));
    }
}
