/**
 * Burns 1.2 s of CPU in burnUntilExit, then calls System.exit(3) from inside it while the
 * profiler is still running: the profile must still be written, complete.
 */
public class ExitWhileProfiling {
    static volatile long sink;

    static void burnUntilExit() {
        // Thread CPU time, not wall time: the sample count must not depend on how busy the machine is.
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long end = threads.getCurrentThreadCpuTime() + 1_200_000_000L;
        long x = 3;
        while (threads.getCurrentThreadCpuTime() < end) {
            for (int i = 0; i < 10000; i++) x = x * 31 + i;
            sink += x;
        }
        System.exit(3);
    }

    public static void main(String[] args) {
        burnUntilExit();
    }
}
