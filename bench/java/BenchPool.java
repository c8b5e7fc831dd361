import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.Deflater;

/**
 * A multi-threaded service-like workload: a thread pool parsing numbers from text, hashing with SHA-256
 * and compressing. Prints "ITER <ms> CPU <ms>" per iteration (BenchClock). Usage:
 * java BenchPool <iterations> [threads=4] [tasks per iteration=64] [numbers per task=20000]
 * (BenchPeer's "many small tasks": 160 tasks of 2000 numbers).
 */
public class BenchPool {
    static byte[] text(int seed, int numbers) {
        StringBuilder b = new StringBuilder();
        long x = seed;
        for (int i = 0; i < numbers; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            b.append(x >>> 40).append(i % 7 == 0 ? '\n' : ' ');
        }
        return b.toString().getBytes();
    }

    static long task(int seed, int numbers) throws Exception {
        byte[] data = text(seed, numbers);
        long sum = 0;
        for (String token : new String(data).split("[ \n]")) sum += Long.parseLong(token);
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(data);
        Deflater d = new Deflater(6);
        d.setInput(data);
        d.finish();
        byte[] out = new byte[data.length];
        int n = 0;
        while (!d.finished()) n += d.deflate(out);
        d.end();
        return sum + digest[0] + n;
    }

    public static void main(String[] args) throws Exception {
        int iterations = Integer.parseInt(args[0]);
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int tasks = args.length > 2 ? Integer.parseInt(args[2]) : 64;
        int numbers = args.length > 3 ? Integer.parseInt(args[3]) : 20000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long sink = 0;
        BenchClock clock = new BenchClock();
        for (int i = 0; i < iterations; i++) {
            List<Future<Long>> futures = new ArrayList<>();
            for (int t = 0; t < tasks; t++) {
                final int seed = i * tasks + t;
                futures.add(pool.submit(() -> task(seed, numbers)));
            }
            for (Future<Long> f : futures) sink += f.get();
            clock.iteration();
        }
        BenchClock.total();
        pool.shutdown();
        System.out.println("sink " + (sink != 0));
    }
}
