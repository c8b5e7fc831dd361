import java.nio.file.Path;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The profiled JVM against hostile or unlucky neighbours, on the helpers of IntegrationTest:
 * - crash_reporter_<way>: a native crash reporter that treats SIGTRAP as fatal takes SIGTRAP while the default
 *   configuration profiles (way: load, dlopen, dlsym, raw; CrashReporter.java): the JVM completes and writes
 *   its profile.
 * Usage (from ctest): java SafetyTest <test> <java_home> <libprof.so> <workload classpath> <work dir>
 */
public class SafetyTest extends IntegrationTest {
    public static void main(String[] args) throws Exception {
        runMain(args, test -> {
            Matcher m = Pattern.compile("crash_reporter_(load|dlopen|dlsym|raw)").matcher(test);
            if (m.matches()) crashReporter(m.group(1));
            else throw new IllegalArgumentException("unknown test " + test);
        });
    }

    static String lib(String name) {
        return Path.of(agent).getParent().resolve(name).toString();
    }

    /** The default event=cpu (the perf engine wherever the kernel allows it) at 1 ms, a crash reporter taking
     *  SIGTRAP half a second in: exit 0, the profile written, samples of the burn after the reporter came. */
    static void crashReporter(String way) throws Exception {
        Path file = work.resolve("crash-reporter-" + way + ".collapsed");
        Run run = runJavaWithEnv(Map.of(), "start,event=cpu,interval=1ms,loglevel=info,file=" + file, "CrashReporter",
                lib("libcrash_reporter.so"), lib("libcrash_reporter_ctor.so"), way, "2");
        check(!run.err().contains("crash_reporter: fatal SIGTRAP"), "the crash reporter received a SIGTRAP of ours: "
                + run.err());
        check(run.exit() == 0 && run.out().contains("TAKEN " + way) && run.out().contains("survived"),
                "the JVM did not complete (exit " + run.exit() + "): " + run.out() + run.err());
        long burn = sumContaining(readCollapsed(file), "CrashReporter.burn");
        double cpuMs = Long.parseLong(run.out().replaceAll("(?s).*survived burn_cpu_ns=(\\d+).*", "$1")) / 1e6;
        System.out.printf("  CrashReporter.burn samples: %d; %.0f ms of CPU burnt after the crash reporter came%n",
                burn, cpuMs);
        // At 1 ms, the burn after the reporter alone is worth cpuMs samples (the half second before adds more).
        check(burn > cpuMs / 2, "too few samples of the workload: " + burn + " for " + cpuMs + " ms of CPU");
    }
}
