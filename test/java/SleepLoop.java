/**
 * Gives up the CPU N times (1 ms sleeps in nap), each a context switch of the main thread; prints
 *   TRUTH naps=<N>
 * Usage: java SleepLoop [N=500]
 */
public class SleepLoop {
    static void nap() throws InterruptedException {
        Thread.sleep(1);
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        for (int i = 0; i < n; i++) nap();
        System.out.println("TRUTH naps=" + n);
    }
}
