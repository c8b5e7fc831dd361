import java.lang.management.ManagementFactory;

/**
 * Burns CPU on the main thread while competing for the profiling signal (SigprofApp's natives,
 * test/native/jni/sigprof_app.c):
 * after 'delay' seconds of CPU it takes SIGPROF ("handler": its own sigaction) or SIGTRAP ("trap": its
 * handler counts SIGTRAPs in app_received, and at the end it raises 100 SIGTRAPs of its own, printed as
 * "trap_raised=100 app_received_with_raised=<n>"; "trapraw": the same, set through a sigaction found with dlsym,
 * past any hook of its imports; "trapsigset": through System V's sigset; all load the library just before), takes ITIMER_PROF
 * ("setitimer": setitimer at 1 ms, relying on whoever handles SIGPROF), sends itself SIGPROF ("raise": 1000
 * tgkill), blocks SIGPROF in its thread ("block"), or nothing ("none"). Prints READY when it starts burning, then
 * "burn_cpu_ns=<n> app_received=<n> app_received_after_1s=<n>".
 * Usage: java SignalAdversary /path/to/libsigprof_app.so mode [cpu seconds=4] [delay=1] [setitimer us=1000]
 */
public class SignalAdversary {
    public static void main(String[] args) throws Exception {
        String mode = args[1];
        /* "trap" modes load the library right before taking SIGTRAP, so that its first call of sigaction comes
         * straight after the dlopen (a profiler hooking imports must have hooked the object by then). */
        boolean trap = mode.startsWith("trap");
        if (!trap) System.load(args[0]);
        double seconds = args.length > 2 ? Double.parseDouble(args[2]) : 4;
        double delay = args.length > 3 ? Double.parseDouble(args[3]) : 1;
        int itimerUs = args.length > 4 ? Integer.parseInt(args[4]) : 1000;
        var threads = ManagementFactory.getThreadMXBean();
        System.out.println("READY");
        long start = threads.getCurrentThreadCpuTime();
        SigprofApp.burn((long) (delay * 1e9));
        switch (mode) {
            case "handler" -> check(SigprofApp.install(), "sigaction");
            case "trap", "trapraw", "trapsigset" -> {
                System.load(args[0]);
                check(SigprofApp.installTrap(mode.equals("trap") ? 0 : mode.equals("trapraw") ? 1 : 2), "sigaction(SIGTRAP)");
            }
            case "setitimer" -> check(SigprofApp.setItimer(itimerUs), "setitimer");
            case "raise" -> SigprofApp.raiseAndCount(1000);
            case "block" -> check(SigprofApp.blockProf(), "pthread_sigmask");
            case "none" -> { }
            default -> throw new IllegalArgumentException(mode);
        }
        System.out.println("ADVERSARY " + mode);
        SigprofApp.burn((long) (1e9));
        long afterOneSecond = SigprofApp.raiseAndCount(0);
        SigprofApp.burn((long) ((seconds - delay - 1) * 1e9));
        System.out.println("burn_cpu_ns=" + (threads.getCurrentThreadCpuTime() - start) + " app_received="
                + SigprofApp.raiseAndCount(0) + " app_received_after_1s=" + afterOneSecond);
        if (mode.startsWith("trap")) {
            long before = SigprofApp.raiseAndCount(0);
            System.out.println("trap_raised=100 app_received_with_raised=" + (SigprofApp.raiseTrapAndCount(100) - before));
        }
    }

    static void check(boolean ok, String what) {
        if (!ok) throw new IllegalStateException(what + " failed");
    }
}
