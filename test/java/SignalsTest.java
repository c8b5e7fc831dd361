import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The profiling signal against other parties, on the helpers of IntegrationTest:
 * - foreign_kill_*: SIGPROF sent with kill and tgkill (si_code SI_USER, SI_TKILL) is not a sample;
 * - late_handler_*, late_setitimer_*: the application takes SIGPROF or ITIMER_PROF a second after profiling
 *   started; the profile keeps its rate where the engine can move (perf, ctimer) and says what happened;
 * - seccomp_*: a seccomp filter that kills on process_vm_readv must not kill the profiled JVM.
 * Usage (from ctest): java SignalsTest <test> <java_home> <libprof.so> <workload classpath> <work dir>
 */
public class SignalsTest extends IntegrationTest {
    public static void main(String[] args) throws Exception {
        runMain(args, test -> {
            Matcher m = Pattern.compile("(foreign_kill|late_handler|late_setitimer|late_block|seccomp)_(\\w+)")
                    .matcher(test);
            if (!m.matches()) throw new IllegalArgumentException("unknown test " + test);
            switch (m.group(1)) {
                case "foreign_kill" -> foreignKill(m.group(2));
                case "late_handler" -> {
                    if (m.group(2).startsWith("sigtrap")) lateTrapHandler(m.group(2));
                    else lateHandler(m.group(2));
                }
                case "late_setitimer" -> lateSetitimer(m.group(2));
                case "late_block" -> lateBlock(m.group(2));
                default -> seccomp(m.group(2));
            }
        });
    }

    static String adversaryLib() {
        return Path.of(agent).getParent().resolve("libsigprof_app.so").toString();
    }

    /** Starts SignalAdversary under the agent, runs 'whileRunning' once it printed READY, waits for it. */
    static Run runAdversary(String agentOptions, String mode, String seconds, String itimerUs, String whileRunning)
            throws Exception {
        Path out = Files.createTempFile(work, "stdout", ".txt"), err = Files.createTempFile(work, "stderr", ".txt");
        List<String> cmd = List.of(javaHome + "/bin/java", "-agentpath:" + agent + "=" + agentOptions, "-cp", classes,
                "SignalAdversary", adversaryLib(), mode, seconds, "1", itimerUs);
        Process target = new ProcessBuilder(cmd).directory(work.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        try {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (!Files.readString(out).contains("READY") && target.isAlive() && System.nanoTime() < deadline)
                Thread.sleep(20);
            if (whileRunning != null) {
                Process shell = new ProcessBuilder("bash", "-c", whileRunning.replace("PID", "" + target.pid()))
                        .inheritIO().start();
                check(shell.waitFor(60, TimeUnit.SECONDS) && shell.exitValue() == 0, "could not signal the JVM");
            }
            check(target.waitFor(180, TimeUnit.SECONDS), "the JVM did not finish");
        } finally {
            target.destroyForcibly();
        }
        Run run = new Run(target.exitValue(), Files.readString(out), Files.readString(err));
        noCrashReports();
        System.out.println("$ " + String.join(" ", cmd) + "\n  exit " + run.exit() + "\n  stdout: "
                + run.out().strip().replace("\n", "\n          ") + "\n  stderr: "
                + run.err().strip().replace("\n", "\n          "));
        return run;
    }

    static long number(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        check(m.find(), "no match for " + regex + " in:\n" + text);
        return Long.parseLong(m.group(1));
    }

    /** The event for an engine under test: these tests are about the profiling signal, which the perf engine
     *  uses with F_SETSIG delivery (features=nosigtrap; SIGTRAP's own are the late_handler_sigtrap tests). */
    static String event(String engine) {
        return engine.equals("cpu") ? "cpu,features=nosigtrap" : engine;
    }

    /**
     * features=sigtrap: the perf events signal with SIGTRAP (perf_sigtrap.h). A second into profiling the
     * application takes SIGTRAP, as a native crash reporter would.
     * - Through its own import of sigaction (late_handler_sigtrap): the guard (sigtrap_guard.h) keeps the
     *   handler as the application's action; sigaction reports it back, the events keep SIGTRAP, the handler
     *   receives none of our signals but each of the 100 SIGTRAPs the application raises itself at the end.
     * - Through its own import of System V's sigset (late_handler_sigtrap_sigset): the same.
     * - Past the hook (late_handler_sigtrap_raw, sigaction found with dlsym, as a runtime making the system
     *   call would): the watch notices, every event signals with the profiling signal from then on, and it is
     *   said; a second after taking it the handler receives nothing more (what it got before is printed).
     * Sampling goes on in both.
     */
    static void lateTrapHandler(String variant) throws Exception {
        Path file = work.resolve("late-trap.txt");
        boolean raw = variant.equals("sigtrap_raw");
        Run run = runAdversary("start,loglevel=info,event=cpu,features=sigtrap,interval=10ms,file=" + file,
                "trap" + variant.substring("sigtrap".length()).replace("_", ""), "4", "1000", null);
        check(run.exit() == 0, "workload failed: " + run.err());
        checkDelivery(run, ",features=sigtrap");
        if (!sigtrapKernel()) return;   /* refused, said so: the F_SETSIG path is late_handler_cpu's */
        long samples = textSamples(file), appAt1s = number(run.out(), "app_received_after_1s=(\\d+)"),
                app = number(run.out(), "app_received=(\\d+)"),
                ownTraps = number(run.out(), "app_received_with_raised=(\\d+)");
        double expected = expectedSamples(run);
        System.out.printf("  samples %d (%.0f expected); the application's SIGTRAP handler got %d of ours (%d a second "
                + "after it was installed), %d of its own 100%n", samples, expected, app, appAt1s, ownTraps);
        check(ownTraps == 100, "the application's handler got " + ownTraps + " of the 100 SIGTRAPs it raised");
        check(samples > expected / 2, "the profiler starved: " + samples + " samples, " + expected + " expected");
        String warning = textWarning(file);
        if (raw) {
            check(run.err().contains("SIGTRAP was taken by another handler"), "not warned in the log: " + run.err());
            check(warning.contains("SIGTRAP was taken by another handler") && warning.contains("from now on"),
                    "the header does not say: " + warning);
            check(app == appAt1s, "the application's handler still receives the profiler's SIGTRAPs");
            return;
        }
        check(number(run.err(), "SIGTRAP guard hooks: (\\d+) import slots hooked") > 0, "sigaction not hooked: " + run.err());
        check(app == 0, "the application's handler received " + app + " of the profiler's SIGTRAPs");
        check(!run.err().contains("SIGTRAP was taken") && !warning.contains("SIGTRAP was taken"),
                "the events left SIGTRAP though the guard kept it: " + run.err());
    }

    /**
     * At interval=1s the workload's 3 CPU-seconds give a handful of real samples; the JVM also receives
     * 1000 SIGPROF from tgkill (the workload itself) and up to 1000 from kill (this test). None may become
     * a sample, and the agent says how many it ignored.
     */
    static void foreignKill(String engine) throws Exception {
        Path file = work.resolve("kill-" + engine + ".collapsed");
        // wall samples every thread each round, and repeats idle ones without a signal: one round (at the start).
        String interval = engine.equals("wall") ? "10s" : "1s";
        Run run = runAdversary("start,loglevel=info,event=" + event(engine) + ",interval=" + interval + ",file=" + file,
                "raise", "3", "1000",
                "for i in $(seq 1000); do kill -PROF PID || exit 1; done");
        check(run.exit() == 0, "workload failed: " + run.err());
        long samples = sum(readCollapsed(file));
        System.out.println("  samples " + samples);
        // wall: what its rounds visited (a slow machine makes more of them), and each thread's last sample
        // counted once more at the end.
        long allowed = engine.equals("wall") ? number(run.err(), "(\\d+) visits") + 100 : 100;
        check(samples < allowed, "signals sent with kill/tgkill were counted as samples: " + samples);
        long ignored = number(run.err(), "ignored (\\d+) profiling signals");
        check(ignored >= 1000, "fewer foreign signals ignored than the workload sent itself: " + ignored);
    }

    /** Samples the text report counts, and its Warning line ("" when none). */
    static long textSamples(Path file) throws Exception {
        return number(Files.readString(file), "Total samples +: (\\d+)");
    }

    static String textWarning(Path file) throws Exception {
        Matcher m = Pattern.compile("Warning        : (.*)").matcher(Files.readString(file));
        return m.find() ? m.group(1) : "";
    }

    /** The same from an HTML page's profile data (its subtitle shows the warning). */
    static long htmlSamples(Path file) throws Exception {
        return number(Files.readString(file), "\"samples\":(\\d+)");
    }

    static String htmlWarning(Path file) throws Exception {
        Matcher m = Pattern.compile("\"warning\":\"([^\"]*)\"").matcher(Files.readString(file));
        return m.find() ? m.group(1) : "";
    }

    /** The same from a JFR recording, read by the JDK's jfr tool: the warning is a setting of the sampling event. */
    static long jfrSamples(Path file) throws Exception {
        return JfrTest.summaryCount(JfrTest.jfr("summary", file.toString()), "jdk.ExecutionSample");
    }

    static String jfrWarning(Path file) throws Exception {
        Matcher m = Pattern.compile("name = \"warning\"[^}]*?value = \"([^\"]*)\"")
                .matcher(JfrTest.jfr("print", "--events", "jdk.ActiveSetting", file.toString()));
        return m.find() ? m.group(1) : "";
    }

    /** The samples a 10 ms interval should give for the workload's CPU time. */
    static double expectedSamples(Run run) {
        return number(run.out(), "burn_cpu_ns=(\\d+)") / 10e6;
    }

    /**
     * The application installs its own SIGPROF handler a second into profiling (4 s). perf and ctimer move to
     * another signal: at least half the samples the interval promises, and the application's handler gets
     * none of ours after the move. itimer cannot move: it stops sending the application SIGPROF and says
     * the profile ends there. The header says what happened in every case.
     */
    static void lateHandler(String engine) throws Exception {
        // The HTML page (ctimer) and the JFR recording (cpu) carry the warning too.
        boolean html = engine.equals("ctimer"), jfr = engine.equals("cpu");
        Path file = work.resolve("late-handler-" + engine + (html ? ".html" : jfr ? ".jfr" : ".txt"));
        Run run = runAdversary("start,loglevel=info,event=" + event(engine) + ",interval=10ms,file=" + file, "handler", "4", "1000",
                null);
        check(run.exit() == 0, "workload failed: " + run.err());
        long samples = html ? htmlSamples(file) : jfr ? jfrSamples(file) : textSamples(file),
                appAt1s = number(run.out(), "app_received_after_1s=(\\d+)"), app = number(run.out(), "app_received=(\\d+)");
        String warning = html ? htmlWarning(file) : jfr ? jfrWarning(file) : textWarning(file);
        double expected = expectedSamples(run);
        System.out.printf("  samples %d (%.0f expected), the application's handler got %d (%d a second after "
                + "it was installed); header warning: %s%n", samples, expected, app, appAt1s, warning);
        check(app == appAt1s, "the application's handler still receives the profiler's signals");
        if (!engine.equals("itimer"))
            check(samples > expected / 2, "the profiler starved: " + samples + " samples, " + expected + " expected");
        check(warning.contains("SIGPROF was taken by another handler"), "the header does not say: " + warning);
        check(run.err().contains("SIGPROF was taken by another handler"), "not warned in the log");
        check(warning.contains(engine.equals("itimer") ? "cannot use another signal" : "moved to signal"),
                "the header does not say what became of the samples: " + warning);
    }

    /**
     * The application arms ITIMER_PROF a second into profiling. With the default engine its SIGPROF
     * (si_code SI_KERNEL) reaches our handler and must not be counted: the sample count stays near what the
     * interval gives. The itimer engine's timer is replaced (here by one at 500 ms): the header says so.
     */
    static void lateSetitimer(String engine) throws Exception {
        Path file = work.resolve("late-setitimer-" + engine + ".txt");
        String itimerUs = engine.equals("itimer") ? "500000" : "1000";
        Run run = runAdversary("start,loglevel=info,event=" + event(engine) + ",interval=10ms,file=" + file, "setitimer", "4",
                itimerUs, null);
        check(run.exit() == 0, "workload failed: " + run.err());
        long samples = textSamples(file);
        double expected = expectedSamples(run);
        String warning = textWarning(file);
        System.out.printf("  samples %d (%.0f expected); header warning: %s%n", samples, expected, warning);
        if (engine.equals("itimer")) {
            check(warning.contains("ITIMER_PROF was re-armed by another party"), "the header does not say: " + warning);
            return;
        }
        check(samples > expected / 2, "the profiler starved: " + samples + " samples, " + expected + " expected");
        check(samples < expected * 1.6 + 100, "the application's timer signals were counted: " + samples);
        check(number(run.err(), "ignored (\\d+) profiling signals") > 100, "the application's signals not ignored");
    }

    /**
     * The busy thread blocks SIGPROF a second into profiling: the disposition and the timer stay ours, only
     * the sample rate shows it. The header must say that far fewer samples arrived than the CPU time used
     * should give.
     */
    static void lateBlock(String engine) throws Exception {
        Path file = work.resolve("late-block-" + engine + ".txt");
        Run run = runAdversary("start,loglevel=info,event=" + event(engine) + ",interval=10ms,file=" + file, "block", "5", "1000",
                null);
        check(run.exit() == 0, "workload failed: " + run.err());
        String warning = textWarning(file);
        System.out.printf("  samples %d (%.0f expected); header warning: %s%n", textSamples(file),
                expectedSamples(run), warning);
        check(warning.contains("may be blocked or taken by another party"), "the header does not say: " + warning);
    }

    /**
     * A seccomp filter that kills the process on process_vm_readv (systemd's default action for a denied
     * call). The JVM must finish normally and the profile must have real frames: Java and native
     * interleaved in the default stack mode, native leaf frames under Java frames when stitching, Java
     * frames alone with cstack=no. "bounded" simulates a process where the fault handler cannot be
     * installed: only memory proven mapped is read.
     */
    static void seccomp(String variant) throws Exception {
        String launcher = Path.of(agent).getParent().getParent().resolve("bin/seccomp_launch").toString();
        Process self = new ProcessBuilder(launcher, "--selftest").inheritIO().start();
        check(self.waitFor(30, TimeUnit.SECONDS) && self.exitValue() == 0, "the seccomp filter does not kill");
        String lib = Path.of(agent).getParent().resolve("libcallback.so").toString();
        Path file = work.resolve("seccomp-" + variant + ".collapsed");
        String options = switch (variant) {
            case "dwarf", "fp", "no" -> "event=cpu,cstack=" + variant;
            case "ctimer", "itimer" -> "event=" + variant;
            default -> "event=cpu";
        };
        Map<String, String> env = variant.equals("bounded") ? Map.of("LIBPROF_TEST_SAFE_READ", "nofault") : Map.of();
        Run run = runJavaVia(List.of(launcher), env, "start,loglevel=info," + options + ",interval=1ms,file=" + file, "Interleaved",
                lib, "2");
        check(run.exit() == 0, "the JVM did not finish normally under the seccomp filter: exit " + run.exit());
        Map<String, Long> stacks = readCollapsed(file);
        long leaf = sumContaining(stacks, "Interleaved.javaLeaf"), burn = sumContaining(stacks, "callback_burn");
        long callbackPath = 0, burnUnderJava = 0;
        for (var e : stacks.entrySet()) {
            List<String> frames = List.of(e.getKey().split(";"));
            if (InterleavedTest.inOrder(frames, InterleavedTest.CALLBACK_PATH)) callbackPath += e.getValue();
            if (InterleavedTest.inOrder(frames, List.of("Interleaved.nativeCallback", "callback_burn")))
                burnUnderJava += e.getValue();
        }
        System.out.printf("  javaLeaf %d (full callback path %d), callback_burn %d (under its Java caller %d)%n",
                leaf, callbackPath, burn, burnUnderJava);
        check(leaf > 100, "too few Java samples: " + leaf);
        if (!variant.equals("no"))
            check(burnUnderJava > burn / 2 && burn > 20, "native frames missing under their Java caller");
        if (variant.equals("vm") || variant.equals("ctimer") || variant.equals("itimer"))
            check(callbackPath > leaf / 2, "Java and native frames not interleaved: " + callbackPath + " of " + leaf);
        String mechanism = variant.equals("bounded") ? "bounded" : "fault";
        check(run.err().contains("safe reads: " + mechanism + " (seccomp filter mode"),
                "the filter or the read mechanism not logged: " + run.err());
    }
}
