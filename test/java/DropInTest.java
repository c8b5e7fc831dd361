import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

/**
 * libprof in async-profiler's place: what its users' scripts and integrations rely on. On the helpers of
 * IntegrationTest. Usage (from ctest): java DropInTest <test> <java_home> <libprof.so> <classes> <work dir>
 */
public class DropInTest extends IntegrationTest {
    public static void main(String[] args) throws Exception {
        runMain(args, test -> {
            switch (test) {
                case "two_copies" -> twoCopies();
                case "cpu_token" -> cpuToken();
                case "metrics_before_start" -> metricsBeforeStart();
                case "context_switches" -> contextSwitches();
                default -> throw new IllegalArgumentException("unknown test " + test);
            }
        });
    }

    /** The collapsed profile 'file' (in the work directory) of a workload run under 'options', which must
     * finish and print its truth. */
    static Map<String, Long> profile(String options, String file, String... mainAndArgs) throws Exception {
        Path out = work.resolve(file);
        Run run = runJava(options + ",file=" + out, mainAndArgs);
        check(run.exit() == 0 && run.out().contains("TRUTH"), options + ": the workload failed: " + run.err());
        return readCollapsed(out);
    }

    /** Two more copies of the library, under other names, load into a JVM that profiles with the first (as
     * two agents, or an attach with another copy, do): the library's static TLS must leave room for them. */
    static void twoCopies() throws Exception {
        Path first = work.resolve("copy1.so"), second = work.resolve("copy2.so");
        Files.copy(Path.of(agent), first, StandardCopyOption.REPLACE_EXISTING);
        Files.copy(Path.of(agent), second, StandardCopyOption.REPLACE_EXISTING);
        Path out = work.resolve("copies.collapsed");
        Run run = runJava("start,event=cpu,file=" + out, "LoadCopies", first.toString(), second.toString());
        check(run.exit() == 0 && run.out().contains("LOADED " + first) && run.out().contains("LOADED " + second),
                "the copies did not load beside the agent: exit " + run.exit() + ", " + run.out() + run.err());
        check(Files.exists(out), "the agent's profile is missing after the copies were loaded");
    }

    /** async-profiler's bare 'cpu' token starts a CPU profile (here with allocations beside it: a text
     * format holds the first event, cpu). */
    static void cpuToken() throws Exception {
        long burn = sumContaining(profile("start,cpu,alloc", "cpu.collapsed", "Burn7525", "1.5"), "Burn7525.burnA");
        System.out.println("cpu_token: " + burn + " CPU samples in burnA");
        check(burn >= 50, "start,cpu: " + burn + " CPU samples in Burn7525.burnA over 1.5 s");
    }

    /** metrics (and status) before any session, as a monitoring agent asks at start-up: counters at zero, and
     * the JVM runs on. */
    static void metricsBeforeStart() throws Exception {
        Path metrics = work.resolve("metrics.txt");
        Run run = runJava("metrics,file=" + metrics, "Burn7525", "0.2");
        check(run.exit() == 0 && run.out().contains("TRUTH"), "the JVM did not survive metrics before a start: exit "
                + run.exit() + ", " + run.err());
        String text = Files.readString(metrics);
        check(text.contains("libprof_running 0") && text.contains("libprof_samples_total 0"), "metrics before a start: " + text);
    }

    /** -e context-switches without an interval samples every second switch, as async-profiler's does: the 500
     * sleeps of SleepLoop.nap (one or two switches each: measured 477-499 samples) show (with one sample per
     * 1000 switches, the profile was empty). */
    static void contextSwitches() throws Exception {
        long naps = sumContaining(profile("start,event=context-switches", "switches.collapsed", "SleepLoop", "500"),
                "SleepLoop.nap");
        System.out.println("context_switches: " + naps + " samples under SleepLoop.nap (500 sleeps)");
        check(naps >= 150 && naps <= 600, "event=context-switches: " + naps + " samples under SleepLoop.nap for 500 sleeps");
    }
}
