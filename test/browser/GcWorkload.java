/**
 * Garbage collections at a known pace for the Firefox Profiler test: System.gc() every 50 ms for the given
 * seconds (default 2), with some allocation between. Run through the JDK's source launcher
 * (java GcWorkload.java), so it needs no build step.
 */
public class GcWorkload {
    static volatile Object sink;

    public static void main(String[] args) throws Exception {
        long end = System.nanoTime() + (long) (Double.parseDouble(args.length > 0 ? args[0] : "2") * 1e9);
        while (System.nanoTime() < end) {
            for (int i = 0; i < 2000; i++) sink = new byte[1024];
            System.gc();
            Thread.sleep(50);
        }
    }
}
