/**
 * Java -> JNI -> C -> JNI callback -> Java, for the interleaved-stack tests (issue 4): each round spends
 * about half its CPU in C (callback_burn in test/native/jni/callback.c) and half in javaLeaf, called back
 * from C through CallStaticVoidMethod.
 * Usage: java Interleaved /path/to/libcallback.so [cpu seconds=3]
 */
public class Interleaved {
    static volatile long sink;

    static native void nativeCallback(long rounds);

    static void javaLeaf(long rounds) {
        long x = rounds;
        for (long r = 0; r < rounds; r++) {
            for (int i = 0; i < 1000; i++) {
                x ^= x << 13;
                x ^= x >>> 7;
                x ^= x << 17;
            }
        }
        sink += x;
    }

    public static void main(String[] args) {
        System.load(args[0]);
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 3;
        long end = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < end) nativeCallback(200);
        System.out.println("done " + (sink != 0));
    }
}
