/**
 * Java -> JNI -> C -> JNI callback -> Java, for the interleaved-stack tests: each round spends
 * about half its CPU in C (callback_burn in test/native/jni/callback.c) and half in javaLeaf, called back
 * from C through CallStaticVoidMethod. javaLeaf's step is small enough to be inlined wherever javaLeaf is
 * compiled (C1 or C2), so an inlined frame is sampled as soon as javaLeaf runs compiled.
 * Runs for the given CPU time of its main thread, so a busy machine does not shorten it.
 * Usage: java Interleaved /path/to/libcallback.so [cpu seconds=3]
 */
public class Interleaved {
    static volatile long sink;

    static native void nativeCallback(long rounds);

    static long step(long x) {
        x ^= x << 13;
        x ^= x >>> 7;
        return x ^ (x << 17);
    }

    static void javaLeaf(long rounds) {
        long x = rounds;
        for (long r = 0; r < rounds; r++) {
            for (int i = 0; i < 1000; i++) x = step(x);
        }
        sink += x;
    }

    public static void main(String[] args) {
        System.load(args[0]);
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 3;
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long end = threads.getCurrentThreadCpuTime() + (long) (seconds * 1e9);
        while (threads.getCurrentThreadCpuTime() < end) nativeCallback(200);
        System.out.println("done " + (sink != 0));
    }
}
