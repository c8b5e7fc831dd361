import java.nio.file.Path;
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
}
