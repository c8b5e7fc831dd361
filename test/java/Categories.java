import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Three threads, each doing one kind of work whose category --classify must find: "loader" defines a class
 * over and over in fresh class loaders (class loading), "collector" calls System.gc() every 10 ms over a
 * retained heap (the JVM's GC threads and VM thread collect), "main" spins in Java code.
 * Usage: java Categories [seconds=3]
 */
public class Categories {
    static volatile long sink;
    static final List<Object> retained = new ArrayList<>();

    /** The class defined again and again: a few methods, so that parsing it is real work. */
    public static class Payload {
        public int a(int x) { return x * 3 + 1; }
        public int b(int x) { return a(x) ^ 0x55; }
        public long c(long x) { return x * x + b((int) x); }
        public String d(String s) { return s + a(s.length()); }
    }

    static byte[] payloadBytes() throws Exception {
        try (InputStream in = Categories.class.getResourceAsStream("Categories$Payload.class")) {
            return in.readAllBytes();
        }
    }

    /** Loads Payload through a loader of its own (parent: the bootstrap loader, which does not know it). */
    static class DefiningClassLoader extends ClassLoader {
        final byte[] bytes;

        DefiningClassLoader(byte[] bytes) {
            super(null);
            this.bytes = bytes;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            if (!name.equals("Categories$Payload")) throw new ClassNotFoundException(name);
            return defineClass(name, bytes, 0, bytes.length);
        }
    }

    static long spin(long x) {
        for (int i = 0; i < 20000; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    public static void main(String[] args) throws Exception {
        long end = System.nanoTime() + (long) ((args.length > 0 ? Double.parseDouble(args[0]) : 3) * 1e9);
        byte[] bytes = payloadBytes();
        for (int i = 0; i < 200_000; i++) retained.add(new int[16]);   // live data for every collection to mark
        Thread loader = new Thread(() -> {
            long n = 0;
            try {
                while (System.nanoTime() < end) n += new DefiningClassLoader(bytes).loadClass("Categories$Payload").hashCode();
            } catch (ClassNotFoundException e) {
                throw new RuntimeException(e);
            }
            sink += n;
        }, "loader");
        /* A pause between collections: back to back, their safepoints would stop the other threads most of
         * the time, and the JDK's sampler takes no sample of a stopped thread. */
        Thread collector = new Thread(() -> {
            try {
                while (System.nanoTime() < end) {
                    System.gc();
                    Thread.sleep(10);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "collector");
        loader.start();
        collector.start();
        long x = 1;
        while (System.nanoTime() < end) x = spin(x);
        sink += x;
        loader.join();
        collector.join();
        System.out.println("done " + retained.size());
    }
}
