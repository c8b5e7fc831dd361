/**
 * A workload under a native crash reporter that treats SIGTRAP as fatal (test/native/jni/crash_reporter.c):
 * burns CPU half a second, takes SIGTRAP the way 'how' says (load: System.load of a library whose constructor
 * takes it; dlopen: a native dlopen of that library; dlsym: a sigaction found with dlsym; raw: the rt_sigaction
 * system call), checks it is the reporter's, then burns 'seconds' more and prints "survived burn_cpu_ns=<its thread's CPU time meanwhile>".
 * Usage: java CrashReporter /path/libcrash_reporter.so /path/libcrash_reporter_ctor.so how seconds
 */
public class CrashReporter {
    static native boolean take(int how, String path);
    static native boolean installed();

    static volatile long sink;

    static long burn(double seconds) {
        long end = System.nanoTime() + (long) (seconds * 1e9), n = 0;
        while (System.nanoTime() < end) n += spin(n);
        return n;
    }

    static long spin(long seed) {
        long x = seed;
        for (int i = 0; i < 10_000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        sink = x;
        return 1;
    }

    public static void main(String[] args) {
        System.load(args[0]);
        burn(0.5);
        boolean taken = switch (args[2]) {
            case "load" -> { System.load(args[1]); yield true; }
            case "dlopen" -> take(0, args[1]);
            case "dlsym" -> take(1, null);
            case "raw" -> take(2, null);
            default -> throw new IllegalArgumentException("unknown way " + args[2]);
        };
        if (!taken || !installed()) throw new IllegalStateException("the crash reporter did not take SIGTRAP (" + args[2] + ")");
        System.out.println("TAKEN " + args[2]);
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long cpu = threads.getCurrentThreadCpuTime();
        burn(Double.parseDouble(args[3]));
        System.out.println("survived burn_cpu_ns=" + (threads.getCurrentThreadCpuTime() - cpu));
    }
}
