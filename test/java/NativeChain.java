/**
 * Spends CPU in a native call chain (test/native/jni/chain.c) for the mixed-stack tests.
 * Usage: java NativeChain /path/to/libchain.so [cpu seconds=3]
 */
public class NativeChain {
    static native long spin(long cpuNanos);

    static long run(double seconds) {
        return spin((long) (seconds * 1e9));
    }

    public static void main(String[] args) {
        System.load(args[0]);
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 3;
        System.out.println("spun " + (run(seconds) != 0));
    }
}
