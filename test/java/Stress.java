import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * Workloads that are hard on a profiler, one per scenario, each running (and profiled) for the given
 * seconds of wall time (thread churn: 60 s or more also means 20K threads or more):
 *   threads     thread churn: short-lived threads created and ended continuously
 *   gc          GC pressure: heavy allocation in a small heap (run with -Xmx64m)
 *   recursion   5000-frame deep recursion (stacks deeper than jstackdepth)
 *   classes     class churn: lambdas, hidden classes defined and dropped, so methods get unloaded
 *   deopt       deoptimization and exception storms
 * Prints "STRESS <scenario> done <counter>", then "STRESS resources fds A B rss C D": descriptors and
 * resident kB once a fifth of the time has passed (warmed up) and at the end, so the driver can tell a
 * profiler that leaks per thread, per class or per sample from a JVM that merely warmed up.
 * Usage: java Stress <scenario> <seconds>
 */
public class Stress {
    static volatile long sink;

    public static void main(String[] args) throws Throwable {
        String scenario = args[0];
        long ns = (long) (Double.parseDouble(args[1]) * 1e9);
        long begin = System.nanoTime(), end = begin + ns, warm = begin + ns / 5;
        long counter = 0, fds0 = -1, rss0 = -1;
        // A full-length thread churn ends and starts at least 20K threads, however slow the machine.
        long minimum = scenario.equals("threads") && ns >= 60e9 ? 20000 : 0;
        while (System.nanoTime() < end || counter < minimum) {
            if (fds0 < 0 && System.nanoTime() >= warm) {
                fds0 = openDescriptors();
                rss0 = residentKb();
            }
            counter += switch (scenario) {
                case "threads" -> threadChurn();
                case "gc" -> allocate();
                case "recursion" -> recurse(5000);
                case "classes" -> classChurn(counter);
                case "deopt" -> deoptAndThrow(counter);
                default -> throw new IllegalArgumentException("unknown scenario " + scenario);
            };
        }
        System.out.println("STRESS " + scenario + " done " + counter);
        if (scenario.equals("classes")) System.out.println("STRESS hidden classes defined " + hiddenClassesDefined);
        System.out.println("STRESS resources fds " + fds0 + " " + openDescriptors() + " rss " + rss0 + " " + residentKb());
    }

    static long openDescriptors() {
        String[] fds = new java.io.File("/proc/self/fd").list();
        return fds == null ? -1 : fds.length;
    }

    static long residentKb() throws java.io.IOException {
        for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"))) {
            if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
        return -1;
    }

    static long threadChurn() throws InterruptedException {
        List<Thread> batch = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            Thread t = new Thread(() -> {
                long x = 0;
                for (int k = 0; k < 20000; k++) x += k * 31;
                sink += x;
            }, "churn-" + i);
            t.start();
            batch.add(t);
        }
        for (Thread t : batch) t.join();
        return batch.size();
    }

    static long allocate() {
        List<long[]> keep = new ArrayList<>();
        for (int i = 0; i < 20000; i++) {
            keep.add(new long[64 + (i % 256)]);
            if (keep.size() > 2000) keep.subList(0, 1000).clear();
        }
        return keep.size();
    }

    static long recurse(int depth) {
        if (depth == 0) {
            long x = 0;
            for (int i = 0; i < 200000; i++) x += i ^ (x >>> 3);
            return x;
        }
        return recurse(depth - 1) + 1;
    }

    /** A fresh hidden class per call (unloaded once unreachable), plus lambdas. */
    static long hiddenClassesDefined;

    static long classChurn(long seed) throws Throwable {
        var lookup = MethodHandles.lookup();
        byte[] bytes;
        try (var in = Stress.class.getResourceAsStream("StressHidden.class")) {
            bytes = in.readAllBytes();
        }
        long total = 0;
        for (int i = 0; i < 20; i++) {
            var hidden = lookup.defineHiddenClass(bytes, false);
            hiddenClassesDefined++;
            var compute = hidden.findStatic(hidden.lookupClass(), "compute", MethodType.methodType(long.class, long.class));
            total += (long) compute.invokeExact(seed + i);
            IntSupplier lambda = () -> (int) (seed ^ 7);
            total += lambda.getAsInt();
        }
        System.gc();
        return total;
    }

    interface Shape { long area(long x); }
    static final class Square implements Shape { public long area(long x) { return x * x; } }
    static final class Line implements Shape { public long area(long x) { return x; } }

    /** Megamorphic switches after a monomorphic warm-up force deoptimization; exceptions unwind frames. */
    static long deoptAndThrow(long seed) {
        Shape[] shapes = {new Square(), new Line()};
        long total = 0;
        for (int i = 0; i < 100000; i++) {
            Shape s = (seed % 3 == 0 || i < 90000) ? shapes[0] : shapes[i & 1];
            total += s.area(i);
            if (i % 1000 == 0) {
                try {
                    throw new IllegalStateException("storm " + i);
                } catch (IllegalStateException e) {
                    total += e.getMessage().length();
                }
            }
        }
        return total;
    }
}

/** Loaded again and again as a hidden class by Stress.classChurn. */
class StressHidden {
    static long compute(long x) {
        long r = x;
        for (int i = 0; i < 5000; i++) r = r * 6364136223846793005L + i;
        return r;
    }
}
