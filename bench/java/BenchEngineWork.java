import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.Deflater;

/**
 * BenchEngines' workload: one worker thread doing units of work that give every engine something to
 * sample, beside N threads that sleep all along (half in Thread.sleep, half parked). Each unit: calls of
 * step() (the instrumentation target) doing arithmetic, small arrays allocated (some kept in a ring, so
 * `live` has survivors), zlib deflate through java.util.zip (native malloc and free), and a phase where a
 * second thread contends a monitor with the worker (the contender works only in that phase, so the CPU time
 * per unit does not depend on how long the unit takes). Prints BenchClock's "ITER" line per unit,
 * "CPU_TOTAL", and "RSS_KB <VmRSS>" after the last unit. With "wait" it then prints "DONE" and waits for
 * its standard input to close (so a harness can stop an attached profiler first).
 * Usage: java BenchEngineWork <sleepers> <units> [wait]
 */
public class BenchEngineWork {
    static final Object LOCK = new Object();
    static final Semaphore CONTEND = new Semaphore(0), CONTENDED = new Semaphore(0);
    static final Object[] RING = new Object[4096];
    static final byte[] INPUT = new byte[16384];
    static volatile boolean done;
    static volatile long sink;
    static long shared;

    static long step(long x) {
        for (int i = 0; i < 200; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        return x;
    }

    /* The lock is held for a fixed amount of work (about 20 us here), not for a time: a loop bounded by the
     * clock uses less CPU the more its thread is preempted, which on a loaded machine made the CPU per unit
     * depend on the scheduler (that loop was 40% of a unit's CPU). */
    static void lockPhase() {
        for (int i = 0; i < 40; i++) {
            synchronized (LOCK) {
                shared++;
                long x = shared;
                for (int j = 0; j < 64; j++) x = step(x);
                sink += x;
            }
        }
    }

    /* A unit: ten parts of each kind of work. */
    static long unit(long x, int n, byte[] out) {
        for (int part = 0; part < 10; part++) x = part(x, n * 10 + part, out);
        return x;
    }

    static long part(long x, int n, byte[] out) {
        for (int i = 0; i < 2000; i++) x = step(x);
        for (int i = 0; i < 8000; i++) {
            byte[] a = new byte[64 + (i & 255)];
            a[0] = (byte) x;
            if ((i & 15) == 0) RING[(n * 8000 + i) / 16 & (RING.length - 1)] = a;
        }
        for (int i = 0; i < 12; i++) {
            Deflater d = new Deflater(6);
            d.setInput(INPUT);
            d.finish();
            while (!d.finished()) x += d.deflate(out);
            d.end();
        }
        CONTEND.release();
        lockPhase();
        CONTENDED.acquireUninterruptibly();
        return x;
    }

    public static void main(String[] args) throws Exception {
        int sleepers = Integer.parseInt(args[0]), units = Integer.parseInt(args[1]);
        boolean wait = args.length > 2 && args[2].equals("wait");
        for (int i = 0; i < INPUT.length; i++) INPUT[i] = (byte) (i * 7 % 61);
        CountDownLatch up = new CountDownLatch(sleepers);
        for (int i = 0; i < sleepers; i++) {
            boolean park = i % 2 == 0;
            Thread t = new Thread(null, () -> {
                up.countDown();
                while (!done) {
                    if (park) LockSupport.park();
                    else try {
                        Thread.sleep(3_600_000);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "sleeper-" + i, 128 * 1024);
            t.setDaemon(true);
            t.start();
        }
        up.await();
        Thread contender = new Thread(() -> {
            while (true) {
                CONTEND.acquireUninterruptibly();
                lockPhase();
                CONTENDED.release();
            }
        }, "contender");
        contender.setDaemon(true);
        contender.start();
        BenchClock clock = new BenchClock();
        byte[] out = new byte[32768];
        long x = 1;
        for (int n = 0; n < units; n++) {
            x = unit(x, n, out);
            clock.iteration();
        }
        sink += x;
        BenchClock.total();
        System.out.println("RSS_KB " + rssKb());
        if (wait) {
            System.out.println("DONE");
            System.out.flush();
            while (System.in.read() >= 0) { }
        }
        done = true;
        System.exit(0);
    }

    static long rssKb() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status")))
            if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("[^0-9]", ""));
        return -1;
    }
}
