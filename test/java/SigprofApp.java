import java.lang.management.ManagementFactory;

/**
 * Installs its own SIGPROF handler (test/native/jni/sigprof_app.c), then burns CPU in burn() while raising
 * SIGPROF now and then, and checks its handler saw exactly the signals it raised. Prints
 * "SIGPROF raised=<n> received=<n>". Usage: java SigprofApp /path/to/libsigprof_app.so [cpu seconds=4]
 */
public class SigprofApp {
    static native boolean install();
    static native boolean installTrap(int how);   // used by SignalAdversary: SIGTRAP, counted with SIGPROF
    static native long raiseTrapAndCount(int times);  // used by SignalAdversary
    static native long raiseAndCount(int times);
    static native boolean setItimer(int us);   // used by SignalAdversary
    static native boolean blockProf();         // used by SignalAdversary
    static volatile long sink;

    static void burn(long cpuNs) {
        var threads = ManagementFactory.getThreadMXBean();
        long end = threads.getCurrentThreadCpuTime() + cpuNs;
        long x = 5;
        while (threads.getCurrentThreadCpuTime() < end) {
            for (int i = 0; i < 100000; i++) x = x * 31 + i;
            sink += x;
        }
    }

    public static void main(String[] args) throws Exception {
        System.load(args[0]);
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 4;
        if (!install()) throw new IllegalStateException("cannot install the SIGPROF handler");
        System.out.println("READY");
        long raised = 0, received = 0;
        for (int round = 0; round < 20; round++) {
            burn((long) (seconds * 1e9 / 20));
            received = raiseAndCount(5);
            raised += 5;
        }
        System.out.println("SIGPROF raised=" + raised + " received=" + received);
    }
}
