import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Two threads that burn CPU, each pinned to its own CPU before it starts burning: burnOnCpu0 runs only on CPU 0,
 * burnOnCpu1 only on CPU 1 (each thread moves itself with taskset and checks its Cpus_allowed_list). Prints
 * "PINNED" once both are pinned, then burns for the seconds given and prints "BURNED <cpu> <ns>", the CPU time
 * each burner spent burning (the truth a profile of it is held to). Usage: java PinnedBurners <seconds>
 */
public class PinnedBurners {
    static volatile long sink;

    /** Moves the calling thread to 'cpu' only; fails unless the kernel then allows it that CPU alone. */
    static void pinSelf(int cpu) throws Exception {
        String tid = Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
        Process p = new ProcessBuilder("taskset", "-pc", String.valueOf(cpu), tid).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) throw new IllegalStateException("taskset failed: " + said);
        for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
            if (line.startsWith("Cpus_allowed_list:") && !line.substring(18).strip().equals(String.valueOf(cpu)))
                throw new IllegalStateException("thread " + tid + " not pinned to CPU " + cpu + ": " + line);
        }
    }

    static long spin(long x) {
        for (int i = 0; i < 100_000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        return x;
    }

    static void burnOnCpu0(long until) {
        long x = 0;
        while (System.nanoTime() < until) x = spin(x);
        sink += x;
    }

    static void burnOnCpu1(long until) {
        long x = 1;
        while (System.nanoTime() < until) x = spin(x);
        sink += x;
    }

    public static void main(String[] args) throws Exception {
        double seconds = Double.parseDouble(args[0]);
        CountDownLatch pinned = new CountDownLatch(2), go = new CountDownLatch(1);
        long[] until = new long[1], burned = new long[2];
        Thread[] burners = new Thread[2];
        for (int c = 0; c < 2; c++) {
            int cpu = c;
            burners[c] = new Thread(() -> {
                try {
                    pinSelf(cpu);
                    pinned.countDown();
                    go.await();
                } catch (Exception e) {
                    e.printStackTrace();
                    System.exit(3);
                }
                long before = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
                if (cpu == 0) burnOnCpu0(until[0]);
                else burnOnCpu1(until[0]);
                burned[cpu] = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - before;
            }, "burner-cpu" + cpu);
            burners[c].start();
        }
        pinned.await();
        until[0] = System.nanoTime() + (long) (seconds * 1e9);
        System.out.println("PINNED");
        go.countDown();
        for (Thread t : burners) t.join();
        for (int c = 0; c < 2; c++) System.out.println("BURNED " + c + " " + burned[c]);
    }
}
