/*
 * loop='s fallback when a period's file cannot be written: spins on its main thread ("spinner") while another
 * thread waits for the file named by its second argument to appear in the directory (the first argument),
 * then moves the directory away for 1.5 s (longer than the 1 s loop period, so one period's end falls in the
 * gap) and puts it back. It spins for 3 s more, so periods after the gap are written, then prints "done" (its
 * own output, which the profiler must not disturb).
 */
import java.nio.file.Files;
import java.nio.file.Path;

public class LoopDirGone {
    static volatile long sink;

    static void spin(long ns) {
        long end = System.nanoTime() + ns, x = 0;
        while (System.nanoTime() < end) x += x * 31 + 7;
        sink = x;
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]), away = Path.of(args[0] + ".away");
        Path first = dir.resolve(args[1]);
        Thread.currentThread().setName("spinner");
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!Files.exists(first) && System.nanoTime() < deadline) spin(10_000_000);
        if (!Files.exists(first)) throw new IllegalStateException("no " + first + " after 20 s");
        Files.move(dir, away);
        System.out.println("away");
        spin(1_500_000_000L);
        Files.move(away, dir);
        System.out.println("back");
        spin(3_000_000_000L);
        System.out.println("done");
    }
}
