/**
 * For the ttsp tests: a thread fills native memory with Unsafe.setMemory in calls of a few hundred
 * milliseconds (no safepoint poll inside one), while the main thread asks for a safepoint every 100 ms (a
 * thread dump), so each safepoint waits for the filler: its time to safepoint is spent in fillMemory.
 * Usage: java SafepointWorkload [seconds=2]
 */
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.lang.reflect.Method;

public class SafepointWorkload {
    static volatile boolean stop;

    /* sun.misc.Unsafe by reflection: javac warns about every mention of the class. */
    static void fillMemory() throws Exception {
        Class<?> c = Class.forName("sun.misc.Unsafe");
        Field f = c.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        Object unsafe = f.get(null);
        Method allocate = c.getMethod("allocateMemory", long.class), free = c.getMethod("freeMemory", long.class);
        Method set = c.getMethod("setMemory", long.class, long.class, byte.class);
        long size = 256L << 20, address = (long) allocate.invoke(unsafe, size);
        for (long v = 0; !stop; v++) set.invoke(unsafe, address, size, (byte) (v % 100 + 1));
        free.invoke(unsafe, address);
    }

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 2;
        Thread filler = new Thread(() -> {
            try {
                fillMemory();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, "filler");
        filler.start();
        long end = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < end) {
            ManagementFactory.getThreadMXBean().dumpAllThreads(false, false);
            Thread.sleep(100);
        }
        stop = true;
        filler.join();
        System.out.println("done");
    }
}
