import jdk.test.whitebox.WhiteBox;

/**
 * A workload that keeps HotSpot unpacking deoptimised frames, for the failure-marker tests: loop() calls a
 * chain of eight small methods, which C2 inlines into it; every 64th call the innermost asks the WhiteBox
 * API to deoptimise every compiled frame of the thread without invalidating their code. On its return each
 * such frame goes through the deoptimisation blob, which replaces it by one interpreter frame per method of
 * its chain and fills them in (Deoptimization::unpack_frames); the next call of loop() runs the same
 * compiled code again, so there is no recompilation between one deoptimisation and the next.
 * Needs -XX:+UnlockDiagnosticVMOptions -XX:+WhiteBoxAPI -Xbootclasspath/a:(these classes) (WhiteBox.java).
 * Usage: java DeoptUnpack [cpu seconds=2]
 */
public class DeoptUnpack {
    static long sink;
    static int calls;

    static long level1(long x) { long a = x + 1, b = x ^ 3, c = a * b; return level2(c) + a + b; }
    static long level2(long x) { long a = x + 2, b = x ^ 5, c = a * b; return level3(c) + a - b; }
    static long level3(long x) { long a = x + 3, b = x ^ 7, c = a * b; return level4(c) + a + b; }
    static long level4(long x) { long a = x + 4, b = x ^ 9, c = a * b; return level5(c) - a + b; }
    static long level5(long x) { long a = x + 5, b = x ^ 11, c = a * b; return level6(c) + a + b; }
    static long level6(long x) { long a = x + 6, b = x ^ 13, c = a * b; return level7(c) + a - b; }
    static long level7(long x) { long a = x + 7, b = x ^ 15, c = a * b; return level8(c) + a + b; }

    static long level8(long x) {
        if ((++calls & 63) == 0) WhiteBox.WB.deoptimizeFrames(false);
        return x * 31 + 7;
    }

    static long loop(long x) {
        long s = x;
        for (int i = 0; i < 100; i++) s += level1(s);
        return s;
    }

    public static void main(String[] args) {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 2;
        var bean = java.lang.management.ManagementFactory.getThreadMXBean();
        long end = bean.getCurrentThreadCpuTime() + (long) (seconds * 1e9);
        long s = 0;
        while (bean.getCurrentThreadCpuTime() < end) s += loop(s);
        sink = s;
        System.out.println("done " + (s != 0));
    }
}
