import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What is left of a JFR recording when things go wrong, read with the JDK's jfr tool and with jfrconv: a
 * JVM killed with SIGKILL (the temporary recording holds only finished chunks), a file cut in the middle
 * of a chunk (jfrconv converts the finished ones and says what it skipped), a disk that fills up while
 * recording (the finished chunks are kept, in a tmpfs of a private mount namespace), and a FIFO given to
 * jfrconv as input (refused at once, not waited on). Usage (from ctest):
 *   java JfrRecoveryTest <test> <java_home of the target JVM> <libprof.so> <jfrconv> <workload classpath> <work dir>
 */
public class JfrRecoveryTest {
    static final int SKIP = 77;
    public static void main(String[] args) throws Exception {
        JfrconvTest.runWithJfrconv(args, test -> {
            switch (test) {
                case "killed" -> killed();
                case "disk_full" -> diskFull();
                case "jfrconv_fifo_input" -> fifoInput();
                default -> throw new IllegalArgumentException("unknown test " + test);
            }
        });
    }

    static void check(boolean condition, String message) {
        IntegrationTest.check(condition, message);
    }

    static Path work() {
        return IntegrationTest.work;
    }

    record Result(int exit, String out) {}

    /** The file of the work directory named prefix...suffix, else 'otherwise'. */
    static Path temporary(String prefix, String suffix, Path otherwise) throws IOException {
        try (var files = Files.list(work())) {
            return files.filter(f -> f.getFileName().toString().startsWith(prefix)
                    && f.getFileName().toString().endsWith(suffix)).findFirst().orElse(otherwise);
        }
    }

    /** Runs a command (stdout and stderr together) that must finish within 'seconds'. */
    static Result run(int seconds, String... cmd) throws IOException, InterruptedException {
        Path out = Files.createTempFile(work(), "out", ".txt");
        Process p = new ProcessBuilder(cmd).directory(work().toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("did not finish in " + seconds + " s: " + String.join(" ", cmd));
        }
        Result r = new Result(p.exitValue(), Files.readString(out));
        Files.delete(out);
        System.out.println("$ " + String.join(" ", cmd) + "\n  exit " + r.exit() + "\n  "
                + r.out().strip().replace("\n", "\n  "));
        return r;
    }

    /** Chunks of a JFR file, from their headers (FLR magic, size at +8), up to the first that does not fit. */
    static List<long[]> chunks(Path file) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file));
        List<long[]> chunks = new ArrayList<>();
        for (long at = 0; at + 68 <= b.limit() && b.getInt((int) at) == 0x464c5200; ) {
            long size = b.getLong((int) at + 8);
            if (size < 68 || at + size > b.limit()) break;
            chunks.add(new long[] {at, size});
            at += size;
        }
        return chunks;
    }

    /** `jfr summary` reads the file: its chunk count and jdk.ExecutionSample count. */
    static long[] summary(Path file) throws Exception {
        Result r = run(120, IntegrationTest.javaHome + "/bin/jfr", "summary", file.toString());
        check(r.exit() == 0, "jfr summary refused " + file + ": " + r.out());
        Matcher chunks = Pattern.compile("Chunks: (\\d+)").matcher(r.out());
        Matcher samples = Pattern.compile("(?m)^\\s*jdk\\.ExecutionSample\\s+(\\d+)").matcher(r.out());
        check(chunks.find() && samples.find(), "jfr summary without chunk or sample counts: " + r.out());
        return new long[] {Long.parseLong(chunks.group(1)), Long.parseLong(samples.group(1))};
    }

    /** Converts to collapsed stacks: jfrconv's output, and the samples in the collapsed file. */
    static long convert(Path input, Path collapsed, String expectWarning) throws Exception {
        Files.deleteIfExists(collapsed);
        Result r = run(120, JfrconvTest.jfrconv, input.toString(), collapsed.toString());
        check(r.exit() == 0, "jfrconv refused " + input + ": " + r.out());
        check(expectWarning == null ? !r.out().contains("warning") : r.out().contains(expectWarning),
                "jfrconv's report on " + input + " (expected " + (expectWarning == null ? "no warning" : expectWarning)
                        + "): " + r.out());
        Map<String, Long> stacks = IntegrationTest.readCollapsed(collapsed);
        check(IntegrationTest.sumContaining(stacks, "Burn7525.burnA") > 0, "no Burn7525.burnA samples in " + collapsed);
        return IntegrationTest.sum(stacks);
    }

    /**
     * SIGKILL after several chunks: the temporary recording ends at its last finished chunk, so the JDK's jfr
     * tool and jfrconv read it as it is; the same file cut in the middle of its last chunk still converts,
     * with a warning naming what was skipped.
     */
    static void killed() throws Exception {
        Path target = work().resolve("killed.jfr");
        List<String> cmd = List.of(IntegrationTest.javaHome + "/bin/java",
                "-agentpath:" + IntegrationTest.agent + "=start,event=cpu,interval=1ms,chunktime=1s,file=" + target,
                "-cp", IntegrationTest.classes, "Burn7525", "60");
        Process p = new ProcessBuilder(cmd).directory(work().toFile()).redirectErrorStream(true)
                .redirectOutput(work().resolve("killed.out").toFile()).start();
        // The temporary names end in an unpredictable part (safe_file): found by their prefix and suffix.
        String prefix = "killed.jfr.tmp-" + p.pid() + "-";
        Path tmp = work().resolve(prefix + "?.jfr"), part = work().resolve(prefix + "?.part");
        int finished = 0;
        for (int i = 0; i < 600 && finished < 3 && p.isAlive(); i++) {
            Thread.sleep(100);
            tmp = temporary(prefix, ".jfr", tmp);
            part = temporary(prefix, ".part", part);
            if (Files.exists(tmp)) finished = chunks(tmp).size();
        }
        check(p.isAlive(), "the JVM ended before it was killed: " + Files.readString(work().resolve("killed.out")));
        p.destroyForcibly();   // SIGKILL
        check(p.waitFor(60, TimeUnit.SECONDS), "the JVM did not die");
        check(finished >= 3, "only " + finished + " chunks were finished in 60 s");
        IntegrationTest.noCrashReports();
        check(Files.exists(tmp), "no temporary recording " + tmp + " after SIGKILL");
        List<long[]> onDisk = chunks(tmp);
        long[] last = onDisk.get(onDisk.size() - 1);
        check(last[0] + last[1] == Files.size(tmp), tmp + " does not end at its last finished chunk");
        System.out.printf("  %s: %d bytes, %d chunks; chunk in progress: %s%n", tmp.getFileName(), Files.size(tmp),
                onDisk.size(), Files.exists(part) ? Files.size(part) + " bytes" : "none");
        long[] sum = summary(tmp);
        check(sum[0] == onDisk.size() && sum[1] > 0, "jfr summary: " + sum[0] + " chunks, " + sum[1] + " samples");
        long whole = convert(tmp, work().resolve("killed.collapsed"), null);
        check(whole == sum[1], "jfrconv converted " + whole + " samples, jfr summary counts " + sum[1]);

        // Cut in the middle of the last chunk: the chunks before it are converted and the rest is named.
        Path cut = work().resolve("cut.jfr");
        byte[] bytes = Files.readAllBytes(tmp);
        int cutAt = (int) (last[0] + last[1] / 2);
        Files.write(cut, java.util.Arrays.copyOf(bytes, cutAt));
        long kept = convert(cut, work().resolve("cut.collapsed"),
                "skipped its last " + (cutAt - last[0]) + " bytes (from offset " + last[0] + ")");
        check(kept > 0 && kept < whole, "the cut file converted to " + kept + " samples of " + whole);
    }

    /**
     * A disk that fills up: a 256 KB tmpfs in a private mount namespace holds the recording, with chunks of
     * at most 8 KB or 1 s. The finished chunks are kept and moved to the target; the agent says what it
     * kept and where; the JVM runs on.
     */
    static void diskFull() throws Exception {
        Path mnt = work().resolve("mnt"), keep = work().resolve("kept");
        Files.createDirectories(mnt);
        Files.createDirectories(keep);
        try (var old = Files.list(keep)) {
            for (Path f : old.toList()) Files.delete(f);
        }
        // 512k: a first chunk holds every method and class of the warm-up in its pools (130-250 KB measured on
        // JDK 25 since the walker names inlined frames), later ones 20-30 KB: the disk fills after a few chunks.
        Result probe = run(60, "unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=512k tmpfs \"$0\"", mnt.toString());
        if (probe.exit() != 0) {
            System.out.println("SKIP: cannot mount a tmpfs in a private mount namespace (needs root and unshare): "
                    + probe.out().strip());
            System.exit(SKIP);
        }
        // The tmpfs lives as long as the namespace: its files are copied out before the namespace ends.
        String script = "mount -t tmpfs -o size=512k tmpfs \"$0\" || exit 90; \"$@\"; rc=$?; cp -a \"$0\"/. \"$KEEP\"/; exit $rc";
        Path target = mnt.resolve("full.jfr");
        var run = IntegrationTest.runJavaVia(List.of("unshare", "-m", "sh", "-c", script, mnt.toString()),
                Map.of("KEEP", keep.toString()),
                "start,event=cpu,interval=1ms,chunksize=8k,chunktime=1s,file=" + target, "Burn7525", "20");
        check(run.exit() == 0, "the JVM failed (exit " + run.exit() + "): " + run.err());
        Matcher stopped = Pattern.compile("No space left on device; recording stopped\\. Kept: the (\\d+) finished chunks? "
                + "\\((\\d+) bytes\\) in " + Pattern.quote(target + ".tmp-")).matcher(run.err());
        check(stopped.find(), "the agent did not say what it kept when the disk filled up: " + run.err());
        int keptChunks = Integer.parseInt(stopped.group(1));
        check(keptChunks >= 2, "only " + keptChunks + " chunks were finished before the disk filled up");
        check(run.err().contains("the JFR recording written to " + target + " is incomplete"),
                "the agent did not report the incomplete recording at " + target + ": " + run.err());
        Path kept = keep.resolve("full.jfr");
        check(Files.exists(kept), "no recording kept at " + target);
        try (var left = Files.list(keep)) {
            List<Path> others = left.filter(f -> !f.equals(kept)).toList();
            check(others.isEmpty(), "files left beside the recording: " + others);
        }
        check(Files.size(kept) == Long.parseLong(stopped.group(2)), "the kept recording has " + Files.size(kept)
                + " bytes, the agent said " + stopped.group(2));
        long[] sum = summary(kept);
        check(sum[0] == keptChunks && sum[1] > 0, "jfr summary: " + sum[0] + " chunks, " + sum[1] + " samples; the agent kept "
                + keptChunks + " chunks");
        convert(kept, work().resolve("full.collapsed"), null);
    }

    /** A FIFO as jfrconv's input: refused at once with what is accepted, instead of waiting for a writer. */
    static void fifoInput() throws Exception {
        Path fifo = work().resolve("in.jfr");
        Files.deleteIfExists(fifo);
        check(run(30, "mkfifo", fifo.toString()).exit() == 0, "mkfifo failed");
        Result r = run(20, JfrconvTest.jfrconv, fifo.toString(), work().resolve("out.html").toString());
        check(r.exit() == 1, "jfrconv on a FIFO exited " + r.exit());
        check(r.out().contains("'" + fifo + "' is a FIFO") && r.out().contains("regular files only"),
                "jfrconv's message does not name the FIFO and what it reads: " + r.out());
        check(!Files.exists(work().resolve("out.html")), "jfrconv wrote an output for an unreadable input");
    }
}
