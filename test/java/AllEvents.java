import java.util.ArrayList;
import java.util.List;
import java.util.zip.Deflater;

/**
 * Something for every event at once (all): a thread that allocates and keeps some of it, two threads that
 * contend for a monitor, Deflaters whose native buffers come from malloc, and a sleeper. Runs for the seconds
 * given (default 1.5), then prints "TRUTH done".
 */
public class AllEvents {
    static final Object MONITOR = new Object();
    static final List<byte[]> kept = new ArrayList<>();
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        long end = System.nanoTime() + (long) ((args.length > 0 ? Double.parseDouble(args[0]) : 1.5) * 1e9);
        Thread allocator = new Thread(() -> {
            for (int i = 0; System.nanoTime() < end; i++) {
                byte[] b = new byte[1024 + i % 512];
                if (i % 64 == 0) kept.add(b);
                sink += b.length;
            }
        }, "allocator");
        Thread holder = new Thread(() -> {
            while (System.nanoTime() < end) {
                synchronized (MONITOR) {
                    long hold = System.nanoTime() + 20_000_000L;
                    while (System.nanoTime() < hold) sink++;
                }
            }
        }, "holder");
        Thread sleeper = new Thread(() -> {
            try {
                while (System.nanoTime() < end) Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "sleeper");
        allocator.start();
        holder.start();
        sleeper.start();
        byte[] out = new byte[1 << 16];
        while (System.nanoTime() < end) {
            synchronized (MONITOR) {
                sink++;
            }
            Deflater d = new Deflater();
            d.setInput(new byte[4096]);
            d.finish();
            sink += d.deflate(out);
            d.end();
        }
        allocator.join();
        holder.join();
        sleeper.join();
        System.out.println("TRUTH done " + kept.size());
    }
}
