/**
 * A workload for the native front doors of the API (the C host, LD_PRELOAD): burns CPU in ApiBurn.burn for
 * the given milliseconds, called either from its main or by a native host through JNI.
 */
public class ApiBurn {
    static volatile long sink;

    public static void burn(int millis) {
        long end = System.nanoTime() + millis * 1_000_000L;
        long x = 1;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 10_000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        }
        sink = x;
    }

    public static void main(String[] args) {
        System.out.println("ready");   // the JVM is up: an attach (SIGQUIT) no longer kills it
        burn(Integer.parseInt(args[0]));
    }
}
