/**
 * For the ttsp tests: a thread fills native memory with Unsafe.setMemory in calls of a few hundred
 * milliseconds (no safepoint poll inside one), while the main thread asks for a safepoint every 100 ms (a
 * thread dump), so each safepoint waits for the filler: its time to safepoint is spent in fillMemory.
 * Usage: java SafepointWorkload [seconds=2]
 */
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;

public class SafepointWorkload {
    static volatile boolean stop;

    static void fillMemory() throws Exception {
        Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
        f.setAccessible(true);
        sun.misc.Unsafe unsafe = (sun.misc.Unsafe) f.get(null);
        long size = 256L << 20, address = unsafe.allocateMemory(size);
        for (long v = 0; !stop; v++) unsafe.setMemory(address, size, (byte) (v % 100 + 1));
        unsafe.freeMemory(address);
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
