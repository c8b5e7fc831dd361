/**
 * For the jfrsync tests: a thread spends CPU in hotSpin() for about the given seconds while the main thread
 * asks for a garbage collection every 200 ms (jdk.GarbageCollection events in the JDK's recording).
 * Usage: java SyncWorkload [seconds=1.5]
 */
public class SyncWorkload {
    static volatile long sink;

    static long hotSpin(long untilNs) {
        long x = 3;
        while (System.nanoTime() < untilNs) {
            for (int i = 0; i < 100000; i++) x = x * 6364136223846793005L + i ^ (x >>> 31);
        }
        return x;
    }

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 1.5;
        long end = System.nanoTime() + (long) (seconds * 1e9);
        Thread spinner = new Thread(() -> sink += hotSpin(end), "sync-spinner");
        spinner.start();
        while (System.nanoTime() < end) {
            sink += new byte[1 << 20].length;
            System.gc();
            Thread.sleep(200);
        }
        spinner.join();
        System.out.println("done " + (sink != 0));
    }
}
