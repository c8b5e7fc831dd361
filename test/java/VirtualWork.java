import java.lang.reflect.Method;

/*
 * Virtual threads spinning in Java code and yielding now and then, so their frames are frozen into their
 * continuation and thawed back (lazily: the lowest thawed frame returns to the continuation's return
 * barrier). JDK 21+ (virtual threads are started through reflection: the test classes target Java 17).
 * Arguments: seconds to run, number of virtual threads.
 */
public class VirtualWork {
    static volatile int sink;

    static int spin(int x) {
        for (int i = 0; i < 2000; i++) x = x * 31 + i;
        return x;
    }

    static void work(long end) {
        int s = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 50; i++) s = spin(s);
            Thread.yield();
        }
        sink = s;
    }

    public static void main(String[] args) throws Exception {
        long end = System.nanoTime() + (long) (Double.parseDouble(args[0]) * 1e9);
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        Method start = Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class);
        Thread[] threads = new Thread[Integer.parseInt(args[1])];
        for (int i = 0; i < threads.length; i++) threads[i] = (Thread) start.invoke(builder, (Runnable) () -> work(end));
        for (Thread t : threads) t.join();
        System.out.println("done");
    }
}
