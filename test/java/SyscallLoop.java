import java.io.FileOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Spends its CPU in system calls: one-byte writes to /dev/null through an unbuffered FileOutputStream,
 * so most of each iteration runs in the kernel (entry, vfs_write, the null device). Prints
 *   TRUTH threadCpuNs=<n>
 * Usage: java SyscallLoop [cpu seconds=1.5]
 */
public class SyscallLoop {
    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    static void writeLoop(FileOutputStream out, long cpuNs) throws IOException {
        long end = THREADS.getCurrentThreadCpuTime() + cpuNs;
        while (THREADS.getCurrentThreadCpuTime() < end) {
            for (int i = 0; i < 1000; i++) out.write(i);
        }
    }

    public static void main(String[] args) throws IOException {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 1.5;
        long start = THREADS.getCurrentThreadCpuTime();
        try (FileOutputStream out = new FileOutputStream("/dev/null")) {
            writeLoop(out, (long) (seconds * 1e9));
        }
        System.out.printf("TRUTH threadCpuNs=%d%n", THREADS.getCurrentThreadCpuTime() - start);
    }
}
