import java.lang.management.ManagementFactory;
import java.util.zip.Deflater;

/**
 * For the JFR tests: a thread named "jfr-spinner" spends its CPU on one source line of spin() (the line it
 * prints, measured at run time), while the main thread compresses with java.util.zip.Deflater (native zlib).
 * spin() prints "SPIN_LINE <n>". Usage: java JfrWorkload [cpu seconds per thread=2]
 */
public class JfrWorkload {
    static volatile long sink;

    static long spin(long cpuNs) {
        var threads = ManagementFactory.getThreadMXBean();
        long end = threads.getCurrentThreadCpuTime() + cpuNs, x = 7;
        // The hot loop is two lines below this measurement.
        System.out.println("SPIN_LINE " + (new Throwable().getStackTrace()[0].getLineNumber() + 2));
        while (threads.getCurrentThreadCpuTime() < end) {
            for (int i = 0; i < 200000; i++) x = x * 6364136223846793005L + i ^ (x >>> 29);
        }
        return x;
    }

    public static void main(String[] args) throws Exception {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 2;
        Thread spinner = new Thread(() -> sink += spin((long) (seconds * 1e9)), "jfr-spinner");
        spinner.start();
        var threads = ManagementFactory.getThreadMXBean();
        long end = threads.getCurrentThreadCpuTime() + (long) (seconds * 1e9);
        byte[] data = DeflateLoop.text(), out = new byte[data.length];
        while (threads.getCurrentThreadCpuTime() < end) sink += DeflateLoop.compress(data, out);
        spinner.join();
        System.out.println("done " + (sink != 0));
    }
}
