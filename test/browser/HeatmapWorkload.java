/*
 * A Java workload with a burst at a known time, for the heatmap test: the main thread works lightly (a
 * tenth of the time) for the whole run, and three threads run burst() flat out from 'at' to 'at + length'
 * seconds after start. It prints when the burst began and ended (ms since the epoch), so the test knows
 * which part of the recording's timeline must be the densest and show burst().
 */
public class HeatmapWorkload {
    static volatile long sink;

    static long spin(long until) {
        long x = 0;
        while (System.nanoTime() < until) {
            for (int i = 0; i < 10_000; i++) x = x * 31 + i ^ (x >>> 7);
        }
        return x;
    }

    static void steady(long until) throws InterruptedException {
        while (System.nanoTime() < until) {
            sink += spin(System.nanoTime() + 10_000_000L);
            Thread.sleep(90);
        }
    }

    static void burst(long until) { sink += spin(until); }

    public static void main(String[] args) throws Exception {
        double total = Double.parseDouble(args[0]), at = Double.parseDouble(args[1]), length = Double.parseDouble(args[2]);
        long start = System.nanoTime();
        long burstFrom = start + (long) (at * 1e9), burstTo = burstFrom + (long) (length * 1e9);
        Thread[] threads = new Thread[3];
        for (int i = 0; i < threads.length; i++) {
            threads[i] = new Thread(() -> {
                try {
                    Thread.sleep(Math.max(0, (burstFrom - System.nanoTime()) / 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
                burst(burstTo);
            }, "burst-" + i);
            threads[i].start();
        }
        long epochOffset = System.currentTimeMillis() - System.nanoTime() / 1_000_000;
        steady(start + (long) (total * 1e9));
        for (Thread t : threads) t.join();
        System.out.println("burst " + (epochOffset + burstFrom / 1_000_000) + " " + (epochOffset + burstTo / 1_000_000));
    }
}
