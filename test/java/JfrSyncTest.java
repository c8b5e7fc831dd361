import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * jfrsync (the JDK's recording and ours in one file) and the sampling windows (begin=/end=, ttsp), checked
 * with the jfr tool of the JDK under test. Usage (from ctest):
 *   java JfrSyncTest <test> <java_home> <libprof.so> <workload classpath> <work dir> <libwindow_markers.so>
 *        <libwindow_loop.so>
 */
public class JfrSyncTest {
    static String markersLib, loopLib;

    public static void main(String[] args) throws Exception {
        markersLib = args[5];
        loopLib = args[6];
        IntegrationTest.runMain(args, test -> {
            switch (test) {
                case "jfrsync" -> jfrsync();
                case "jfrsync_bad_settings" -> badSettings();
                case "window" -> window(false);
                case "window_nostop" -> window(true);
                case "ttsp" -> ttsp();
                default -> throw new IllegalArgumentException("unknown test " + test);
            }
        });
    }

    static void check(boolean condition, String message) {
        IntegrationTest.check(condition, message);
    }

    /** The start and end times of each 'event' in `jfr print --json` output (end = start without a duration). */
    static List<Instant[]> times(String json, String event) {
        Matcher m = Pattern.compile("\"type\": \"" + Pattern.quote(event) + "\",\\s*\"values\": \\{\\s*"
                + "\"startTime\": \"([^\"]+)\"(?:,\\s*\"duration\": \"([^\"]+)\")?").matcher(json);
        List<Instant[]> out = new ArrayList<>();
        while (m.find()) {
            Instant start = Instant.parse(m.group(1));
            out.add(new Instant[] {start, m.group(2) == null ? start : start.plus(Duration.parse(m.group(2)))});
        }
        return out;
    }

    /**
     * The JDK's events (garbage collections, CPU load, its system description) and ours (CPU samples with the
     * hot method) in one recording that jfr summary and jfr print read whole; our samples on the JDK's time
     * line (the hot method's between its first and last garbage collection, give or take a second); no file of
     * ours left.
     */
    static void jfrsync() throws Exception {
        Path file = IntegrationTest.work.resolve("sync.jfr");
        Files.deleteIfExists(file);
        var run = IntegrationTest.runJava("start,event=cpu,interval=1ms,jfrsync,file=" + file, "SyncWorkload", "0.5");
        check(run.exit() == 0, "the workload failed: " + run.err());
        String summary = JfrTest.jfr("summary", file.toString());
        check(JfrTest.summaryChunks(summary) >= 2, "fewer than two chunks (ours and the JDK's):\n" + summary);
        check(JfrTest.summaryCount(summary, "jdk.GarbageCollection") >= 3, "no garbage collections:\n" + summary);
        check(JfrTest.summaryCount(summary, "jdk.CPULoad") >= 1, "no CPU load:\n" + summary);
        check(JfrTest.summaryCount(summary, "jdk.JVMInformation") >= 1, "no JVM information:\n" + summary);
        long count = JfrTest.summaryCount(summary, "jdk.ExecutionSample");
        String json = JfrTest.jfr("print", "--json", file.toString());   // every event of both recorders, without an error
        List<JfrTest.Sample> samples = JfrTest.samples(file);
        check(samples.size() == count && count >= 100, "jfr print shows " + samples.size() + " samples, summary " + count);
        // The JDK's recorder starting makes the JIT compilers busy: the spinning thread's samples are the known truth.
        long spinner = samples.stream().filter(s -> s.thread().startsWith("\"sync-spinner\"")).count();
        long hot = samples.stream().filter(s -> s.has("SyncWorkload.hotSpin")).count();
        check(hot >= 50 && hot * 10 >= spinner * 9, hot + " samples in SyncWorkload.hotSpin, " + spinner + " of the spinning thread");
        List<Instant[]> gcs = times(json, "jdk.GarbageCollection"), ours = times(json, "jdk.ExecutionSample");
        Instant first = gcs.stream().map(t -> t[0]).min(Instant::compareTo).orElseThrow().minusSeconds(1);
        Instant last = gcs.stream().map(t -> t[0]).max(Instant::compareTo).orElseThrow().plusSeconds(1);
        check(ours.size() == count && gcs.size() >= 3, "jfr print --json shows " + ours.size() + " samples, " + gcs.size() + " collections");
        // The workload collects before the spinning thread starts and after it ends (both prints list the
        // samples in file order): each hotSpin sample lies between, whatever the other threads did earlier or later.
        long off = java.util.stream.IntStream.range(0, ours.size()).filter(i -> samples.get(i).has("SyncWorkload.hotSpin"))
                .filter(i -> ours.get(i)[0].isBefore(first) || ours.get(i)[0].isAfter(last)).count();
        check(off == 0, off + " of our hotSpin samples lie outside the JDK's garbage collections' time span " + first + " .. " + last);
        System.out.printf("  %d samples (%d in hotSpin), %d garbage collections, on one time line%n", count, hot, gcs.size());
        try (var dir = Files.list(IntegrationTest.work)) {
            List<Path> left = dir.filter(p -> p.getFileName().toString().contains(".tmp-")).toList();
            check(left.isEmpty(), "files left behind: " + left);
        }
    }

    /** Settings the JDK does not know: said with the name, the JVM runs on, nothing is written. */
    static void badSettings() throws Exception {
        Path file = IntegrationTest.work.resolve("bad.jfr");
        Files.deleteIfExists(file);
        var run = IntegrationTest.runJava("start,event=cpu,jfrsync=no-such-settings,file=" + file, "SyncWorkload", "0.3");
        check(run.exit() == 0, "the workload failed: " + run.err());
        check(run.err().contains("jfrsync=no-such-settings: neither a configuration"), "no clear message: " + run.err());
        check(!Files.exists(file), "a recording was written");
    }

    /** Collapsed stacks of WindowWorkload under begin=window_marker_begin,end=window_marker_end. */
    static void window(boolean nostop) throws Exception {
        Path file = IntegrationTest.work.resolve(nostop ? "nostop.collapsed" : "window.collapsed");
        var run = IntegrationTest.runJavaWithEnv(Map.of("LD_PRELOAD", markersLib),
                "start,event=cpu,interval=1ms,begin=window_marker_begin,end=window_marker_end," +
                (nostop ? "nostop," : "") + "file=" + file, "WindowWorkload", loopLib, "15");
        check(run.exit() == 0, "the workload failed: " + run.err());
        long inside = 0, outside = 0;
        for (String line : Files.readAllLines(file)) {
            int space = line.lastIndexOf(' ');
            if (space < 0 || line.startsWith("[dropped")) continue;
            long n = Long.parseLong(line.substring(space + 1));
            if (line.contains("spin_inside_window")) inside += n;
            if (line.contains("spin_outside_window")) outside += n;
        }
        System.out.printf("  inside the window %d samples, outside %d%n", inside, outside);
        // 750 ms of CPU inside the window, sampled every 1 ms of CPU: about 750, whatever the machine's load.
        check(inside >= 100, "too few samples inside the window: " + inside + " (about 750 expected)");
        if (nostop) check(outside * 2 > inside, "nostop: the samples outside the window are missing: " + outside);
        else check(outside * 20 < inside, "samples outside the window: " + outside + " (inside " + inside + ")");
    }

    /**
     * ttsp: samples only while the VM synchronises a safepoint, each inside a profiler.Window (10 ms either
     * side, the windows being spans of samples), most of them in the thread that holds the safepoint up.
     */
    static void ttsp() throws Exception {
        Path file = IntegrationTest.work.resolve("ttsp.jfr");
        var run = IntegrationTest.runJava("start,event=cpu,interval=1ms,ttsp,loglevel=info,file=" + file,
                "SafepointWorkload", "2");
        check(run.exit() == 0, "the workload failed: " + run.err());
        check(run.err().contains("outside_window="), "no sample was left out: " + run.err());
        List<JfrTest.Sample> samples = JfrTest.samples(file);
        long filler = samples.stream().filter(s -> s.has("SafepointWorkload.fillMemory")).count();
        String json = JfrTest.jfr("print", "--json", "--events", "profiler.Window,jdk.ExecutionSample", file.toString());
        List<Instant[]> windows = times(json, "profiler.Window"), at = times(json, "jdk.ExecutionSample");
        long outside = at.stream().filter(t -> windows.stream().noneMatch(w ->
                !t[0].isBefore(w[0].minusMillis(10)) && !t[0].isAfter(w[1].plusMillis(10)))).count();
        System.out.printf("  %d samples, %d in fillMemory, %d windows, %d outside them%n", samples.size(), filler,
                windows.size(), outside);
        check(!windows.isEmpty() && filler >= 3, "no time to safepoint recorded in fillMemory");
        check(outside == 0, outside + " samples outside every window");
    }
}
