import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * async-profiler's modes and options as its users spell them, checked on what the recording holds (the JDK's
 * jfr tool reads it). On the helpers of IntegrationTest. Usage (from ctest):
 *   java CompatTest <test> <java_home> <libprof.so> <classes> <work dir>
 */
public class CompatTest extends IntegrationTest {
    public static void main(String[] args) throws Exception {
        runMain(args, test -> {
            switch (test) {
                case "wall_nobatch" -> wallNobatch();
                case "attach_at_startup" -> attachAtStartup();
                case "all_mode" -> allMode();
                default -> throw new IllegalArgumentException("unknown test " + test);
            }
        });
    }

    /** The count of 'event' in the output of `jfr summary`. */
    static long events(String summary, String event) {
        var m = Pattern.compile("(?m)^\\s*" + Pattern.quote(event) + "\\s+(\\d+)").matcher(summary);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    /** A recording of 'options' made of WallWorkload for 'seconds', which must finish. */
    static Path record(String options, String file, String seconds) throws Exception {
        Path out = work.resolve(file);
        Run run = runJava(options + ",file=" + out, "WallWorkload", seconds);
        check(run.exit() == 0, options + ": the workload failed: " + run.err());
        check(!run.err().contains("ignored"), options + ": an option was ignored: " + run.err());
        return out;
    }

    /** nobatch: wall samples as jdk.ExecutionSample in their thread's state, no profiler.WallClockSample. */
    static void wallNobatch() throws Exception {
        Path rec = record("start,event=wall,interval=20ms,nobatch", "nobatch.jfr", "1");
        String summary = JfrTest.jfr("summary", rec.toString());
        check(events(summary, "profiler.WallClockSample") == 0 && events(summary, "jdk.ExecutionSample") > 0,
                "nobatch: wall samples are not jdk.ExecutionSample: " + summary);
        String print = JfrTest.jfr("print", "--stack-depth", "64", "--events", "jdk.ExecutionSample", rec.toString());
        check(print.contains("state = \"STATE_SLEEPING\"") && print.contains("WallWorkload.sleepHalf"),
                "nobatch: no sleeping jdk.ExecutionSample in sleepHalf");
        check(!print.contains("state = \"STATE_DEFAULT\""), "nobatch: a wall sample in the CPU samples' state");
    }

    /** jprof beside the library: <prefix>/lib/libprof.so, <prefix>/bin/jprof. */
    static String jprof() {
        return Path.of(agent).toAbsolutePath().getParent().getParent().resolve("bin/jprof").toString();
    }

    /** Whether the JVM 'pid' runs its signal dispatcher, which starts the attach listener on request. */
    static boolean dispatcherRuns(long pid) throws Exception {
        try (var tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path t : tasks.toList()) {
                try {
                    if (Files.readString(t.resolve("comm")).startsWith("Signal Dispatch")) return true;
                } catch (java.io.IOException gone) {
                    /* the thread ended meanwhile */
                }
            }
        }
        return false;
    }

    /** An attach as soon as the JVM answers one, while it is still starting (a script that runs jprof right after
     * java; -Xint -Xshare:off make the start long): the profile is taken, where the library used to fail for want
     * of a JVMTI environment before the JVM's live phase. Two JVMs, each attached once. */
    static void attachAtStartup() throws Exception {
        for (int round = 0; round < 2; round++) {
            List<String> cmd = new ArrayList<>(List.of(javaHome + "/bin/java", "-Xint", "-Xshare:off", "-cp", classes,
                    "Burn7525", "3"));
            Process jvm = new ProcessBuilder(cmd).directory(work.toFile()).redirectOutput(work.resolve("burn.out").toFile())
                    .redirectError(work.resolve("burn.err").toFile()).start();
            try {
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (!dispatcherRuns(jvm.pid()) && System.nanoTime() < deadline) Thread.sleep(1);
                Path out = work.resolve("startup-" + round + ".collapsed");
                Process attach = new ProcessBuilder(jprof(), "-d", "1", "-o", "collapsed", "-f", out.toString(),
                        String.valueOf(jvm.pid())).redirectErrorStream(true).start();
                String said = new String(attach.getInputStream().readAllBytes());
                check(attach.waitFor(30, TimeUnit.SECONDS), "jprof did not return");
                System.out.println("round " + round + ": jprof exit " + attach.exitValue() + ": " + said.strip());
                check(attach.exitValue() == 0, "an attach while the JVM starts failed: " + said);
                check(sumContaining(readCollapsed(out), "Burn7525.main") > 0, "no sample of Burn7525 after an early attach");
            } finally {
                jvm.destroy();
                jvm.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** all: CPU, wall, allocation with live objects, lock, native memory and native lock events in one recording;
     * an event given beside it keeps its own interval (alloc=). */
    static void allMode() throws Exception {
        Path rec = work.resolve("all.jfr");
        Run run = runJava("start,all,alloc=64k,file=" + rec, "AllEvents", "1.5");
        check(run.exit() == 0 && run.out().contains("TRUTH"), "start,all: the workload failed: " + run.err());
        check(!run.err().contains("ignored"), "start,all: an option was ignored: " + run.err());
        String summary = JfrTest.jfr("summary", rec.toString());
        for (String event : List.of("jdk.ExecutionSample", "profiler.WallClockSample", "jdk.ObjectAllocationInNewTLAB",
                "profiler.LiveObject", "jdk.JavaMonitorEnter", "profiler.Malloc"))
            check(events(summary, event) > 0, "start,all: no " + event + " in the recording: " + summary);
        System.out.println("all: " + events(summary, "jdk.ObjectAllocationInNewTLAB") + " allocation samples, "
                + events(summary, "profiler.Malloc") + " malloc samples");
    }
}
