import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Integration tests of the JFR recordings the agent writes, checked with the `jfr` tool of the same JDK
 * that ran the workload. Usage (from ctest, as IntegrationTest):
 *   java JfrTest <test> <java_home of the target JVM> <libprof.so> <workload classpath> <work dir>
 */
public class JfrTest {
    /** One jdk.ExecutionSample as `jfr print` shows it: the thread line and the frames, leaf first. */
    record Sample(String thread, List<String> frames) {
        boolean has(String framePrefix) {
            return frames.stream().anyMatch(f -> f.startsWith(framePrefix));
        }
        int index(String framePrefix) {
            for (int i = 0; i < frames.size(); i++) if (frames.get(i).startsWith(framePrefix)) return i;
            return -1;
        }
    }

    public static void main(String[] args) throws Exception {
        IntegrationTest.runMain(args, test -> {
            switch (test) {
                case "stacks" -> stacks();
                case "chunks_by_size" -> chunksBySize();
                case "chunks_by_time" -> chunksByTime();
                case "exit" -> exitPaths();
                case "attach_dump" -> attachAndDump();
                case "jfropts" -> jfrOpts();
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

    // ---- the jfr tool --------------------------------------------------------------------------------

    /** Runs the JDK's jfr tool; it must succeed and print no exception. */
    static String jfr(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(IntegrationTest.javaHome + "/bin/jfr"));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(work(), "jfr", ".out");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        check(p.waitFor(120, TimeUnit.SECONDS), "jfr did not finish: " + cmd);
        String text = Files.readString(out);
        Files.delete(out);
        check(p.exitValue() == 0, String.join(" ", cmd) + " failed (exit " + p.exitValue() + "): " + head(text));
        // Frames may name exception classes: only the tool's own failure reports count.
        check(!text.contains("unexpected internal error") && !Pattern.compile("(?m)^[\\w.$]+(Exception|Error): ").matcher(text).find(),
                String.join(" ", cmd) + ": " + head(text));
        return text;
    }

    static String head(String text) {
        return text.length() > 3000 ? text.substring(0, 3000) + "..." : text;
    }

    static long summaryCount(String summary, String event) {
        Matcher m = Pattern.compile("(?m)^\\s*" + Pattern.quote(event) + "\\s+(\\d+)\\s+\\d+\\s*$").matcher(summary);
        check(m.find(), "jfr summary lists no " + event + ":\n" + summary);
        return Long.parseLong(m.group(1));
    }

    static int summaryChunks(String summary) {
        Matcher m = Pattern.compile("Chunks: (\\d+)").matcher(summary);
        check(m.find(), "jfr summary without a chunk count:\n" + summary);
        return Integer.parseInt(m.group(1));
    }

    static List<Sample> samples(Path file) throws Exception {
        String text = jfr("print", "--events", "jdk.ExecutionSample", "--stack-depth", "64", file.toString());
        List<Sample> samples = new ArrayList<>();
        for (String block : text.split("jdk.ExecutionSample \\{")) {
            Matcher thread = Pattern.compile("sampledThread = (.*)").matcher(block);
            if (!thread.find()) continue;
            List<String> frames = new ArrayList<>();
            int open = block.indexOf("stackTrace = [");
            if (open >= 0) {
                for (String line : block.substring(open).split("\n")) {
                    String f = line.strip();
                    if (f.isEmpty() || f.startsWith("stackTrace") || f.equals("]") || f.equals("}")) continue;
                    frames.add(f);
                }
            }
            samples.add(new Sample(thread.group(1), frames));
        }
        return samples;
    }

    /** The agent's "JFR recording written to ... (N samples, C chunks)" line: {N, C}. */
    static long[] logged(IntegrationTest.Run run) {
        Matcher m = Pattern.compile("JFR recording written to .* \\((\\d+) samples, (\\d+) chunks\\)").matcher(run.err());
        check(m.find(), "the agent did not report the recording: " + run.err());
        return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
    }

    /** The file is a complete recording: summary and print read every event the agent says it wrote. */
    static List<Sample> validRecording(Path file, long expectedSamples, long expectedChunks) throws Exception {
        check(Files.exists(file), "no recording at " + file);
        String summary = jfr("summary", file.toString());
        long count = summaryCount(summary, "jdk.ExecutionSample");
        int chunks = summaryChunks(summary);
        System.out.printf("  %s: %d chunks, %d samples%n", file.getFileName(), chunks, count);
        if (expectedSamples >= 0) check(count == expectedSamples, "jfr summary counts " + count + " samples, the agent wrote " + expectedSamples);
        if (expectedChunks >= 0) check(chunks == expectedChunks, "jfr summary counts " + chunks + " chunks, the agent wrote " + expectedChunks);
        List<Sample> samples = samples(file);
        check(samples.size() == count, "jfr print shows " + samples.size() + " samples, jfr summary " + count);
        check(samples.stream().allMatch(s -> !s.frames().isEmpty()), "a sample without frames");
        return samples;
    }

    static void noTemporaryFiles() throws Exception {
        try (var dir = Files.list(work())) {
            List<Path> left = dir.filter(p -> p.getFileName().toString().contains(".tmp-")).toList();
            check(left.isEmpty(), "temporary files left behind: " + left);
        }
    }

    // ---- tests ---------------------------------------------------------------------------------------

    /** async-profiler's jfropts bits: 9 leaves out the OS/JVM information and CPU load events, 4 (events
     *  libprof never writes) changes nothing; the samples are there either way. */
    static void jfrOpts() throws Exception {
        for (String bits : new String[] {"9", "4"}) {
            Path file = work().resolve("jfropts-" + bits + ".jfr");
            var run = IntegrationTest.runJava("start,event=cpu,interval=1ms,loglevel=info,jfropts=" + bits + ",file=" + file,
                    "JfrWorkload", "2");
            check(run.exit() == 0, "workload failed: " + run.err());
            long[] logged = logged(run);
            validRecording(file, logged[0], logged[1]);
            String summary = jfr("summary", file.toString());
            boolean left = bits.equals("9");
            for (String event : new String[] {"jdk.CPULoad", "jdk.OSInformation", "jdk.JVMInformation"}) {
                boolean listed = Pattern.compile("(?m)^\\s*" + Pattern.quote(event) + "\\s+[1-9]").matcher(summary).find();
                System.out.printf("  jfropts=%s: %s %s%n", bits, event, listed ? "present" : "absent");
                check(listed != left, "jfropts=" + bits + ": " + event + (listed ? " written" : " missing"));
            }
        }
    }


    /**
     * Java frames with their line numbers, native frames under the JNI entry, thread names, the settings:
     * one JVM running JfrWorkload (a thread on one hot line, the main thread in zlib). Its trace tables are
     * made small (256 slots), so the recording moves between the two tables several times: every stack
     * must still be the right one.
     */
    static void stacks() throws Exception {
        Path file = work().resolve("stacks.jfr");
        var run = IntegrationTest.runJavaWithEnv(java.util.Map.of("LIBPROF_TEST_TRACE_SLOTS", "256"),
                "start,event=cpu,interval=1ms,loglevel=debug,file=" + file, "JfrWorkload", "2");
        check(run.exit() == 0, "workload failed: " + run.err());
        long switches = run.err().lines().filter(l -> l.contains("samples go to table")).count();
        System.out.println("  trace table switches: " + switches);
        check(switches >= 2, "the small trace tables were switched only " + switches + " times");
        Matcher line = Pattern.compile("SPIN_LINE (\\d+)").matcher(run.out());
        check(line.find(), "the workload did not print its hot line: " + run.out());
        String hot = "JfrWorkload.spin(long) line: " + line.group(1);
        long[] logged = logged(run);
        List<Sample> samples = validRecording(file, logged[0], logged[1]);

        long spin = 0, onHotLine = 0, spinnerNamed = 0;
        for (Sample s : samples) {
            if (!s.has("JfrWorkload.spin(long)")) continue;
            spin++;
            if (s.has(hot)) onHotLine++;
            if (s.thread().matches("\"jfr-spinner\" \\(javaThreadId = [1-9]\\d*\\)")) spinnerNamed++;
        }
        System.out.printf("  spin: %d samples, %d on '%s', %d named jfr-spinner%n", spin, onHotLine, hot, spinnerNamed);
        check(spin > 300, "too few samples in JfrWorkload.spin: " + spin);
        check(onHotLine * 100 >= spin * 90, "the hot line is on only " + onHotLine + " of " + spin + " samples");
        check(spinnerNamed == spin, "samples of spin on another thread than jfr-spinner: " + (spin - spinnerNamed));

        // Leaf first: zlib's deflate, then the JNI entry, then the Java native method and its callers.
        long deflate = 0, throughZlib = 0;
        for (Sample s : samples) {
            int java = s.index("java.util.zip.Deflater.deflateBytesBytes(");
            if (java < 0) continue;
            deflate++;
            int jni = s.index(".Java_java_util_zip_Deflater_deflateBytesBytes()");
            int zlib = s.index(".deflate()");
            if (jni == java - 1 && zlib >= 0 && zlib < jni && s.has("JfrWorkload.main(String[]) line: ")
                    && s.thread().startsWith("\"main\"")) throughZlib++;
        }
        System.out.printf("  Deflater.deflateBytesBytes: %d samples, %d through zlib's deflate under the JNI entry%n",
                deflate, throughZlib);
        check(deflate > 300, "too few samples in Deflater.deflateBytesBytes: " + deflate);
        check(throughZlib * 100 >= deflate * 90, "zlib's deflate under the JNI entry in only " + throughZlib + " of " + deflate);

        String settings = jfr("print", "--events", "jdk.ActiveSetting", file.toString());
        // cstack is the mode in use: vm where the JVM describes what the walker needs, else dwarf (values are regexes).
        for (String[] setting : new String[][] {{"event", "cpu"}, {"interval", "1000000"}, {"period", "1 ms"},
                {"cstack", "(vm|dwarf)"}, {"jstackdepth", "2048"}, {"chunksize", "104857600"}}) {
            check(Pattern.compile("name = \"" + setting[0] + "\"\\s+value = \"" + setting[1] + "\"").matcher(settings).find(),
                    "jdk.ActiveSetting lacks " + setting[0] + "=" + setting[1] + ":\n" + head(settings));
        }
        String info = jfr("print", "--events", "jdk.ActiveRecording,jdk.JVMInformation,jdk.OSInformation", file.toString());
        check(info.contains("destination = \"" + file + "\"") && info.contains("jvmName = ") && info.contains("osVersion = "),
                "recording, JVM or OS information missing:\n" + head(info));
        noTemporaryFiles();
    }

    /** A small chunksize: several chunks, each complete, together holding every sample. */
    static void chunksBySize() throws Exception {
        Path file = work().resolve("by-size.jfr");
        var run = IntegrationTest.runJava("start,event=cpu,interval=1ms,chunksize=16k,loglevel=info,file=" + file, "Burn7525", "2");
        check(run.exit() == 0, "workload failed: " + run.err());
        long[] logged = logged(run);
        check(logged[1] >= 3, "chunksize=16k gave only " + logged[1] + " chunks");
        List<Sample> samples = validRecording(file, logged[0], logged[1]);
        long a = samples.stream().filter(s -> s.has("Burn7525.burnA(long)")).count();
        long b = samples.stream().filter(s -> s.has("Burn7525.burnB(long)")).count();
        System.out.printf("  burnA %d, burnB %d of %d samples%n", a, b, samples.size());
        check(a > b && b > 0 && a + b >= samples.size() / 2, "the workload's stacks are wrong across chunks");
        if (featureVersion() >= 21) {
            // A method is one object across chunks (same key), so the JDK's own view counts it on one line.
            // The view counts leaf frames: the workload's leaf, spin, is in every chunk (burnA, its caller,
            // is a leaf only now and then, depending on where the samples land).
            String view = jfr("view", "hot-methods", file.toString());
            long lines = view.lines().filter(l -> l.startsWith("Burn7525.spin(")).count();
            check(lines == 1, "jfr view hot-methods lists Burn7525.spin on " + lines + " lines:\n" + head(view));
        }
    }

    /** The target JDK's feature version, from its release file. */
    static int featureVersion() throws Exception {
        Matcher m = Pattern.compile("JAVA_VERSION=\"(\\d+)").matcher(
                Files.readString(Path.of(IntegrationTest.javaHome, "release")));
        check(m.find(), "no JAVA_VERSION in " + IntegrationTest.javaHome + "/release");
        return Integer.parseInt(m.group(1));
    }

    /** chunktime=1s over more than three seconds: a chunk per second or so, every one readable. */
    static void chunksByTime() throws Exception {
        Path file = work().resolve("by-time.jfr");
        var run = IntegrationTest.runJava("start,event=cpu,interval=1ms,chunktime=1s,loglevel=info,file=" + file, "Burn7525", "3.5");
        check(run.exit() == 0, "workload failed: " + run.err());
        long[] logged = logged(run);
        // The workload burns 3.5 s of CPU, so at least that much wall time passes.
        check(logged[1] >= 3, "chunktime=1s over 3.5 s gave only " + logged[1] + " chunks");
        List<Sample> samples = validRecording(file, logged[0], logged[1]);
        check(samples.stream().filter(s -> s.has("Burn7525.burnA(long)")).count() > 1000,
                "too few burnA samples across the chunks");
    }

    /** System.exit and SIGTERM while recording: a complete recording each time, no temporary file left. */
    static void exitPaths() throws Exception {
        Path exit = work().resolve("exit.jfr");
        var run = IntegrationTest.runJava("start,event=cpu,interval=1ms,loglevel=info,file=" + exit, "ExitWhileProfiling");
        check(run.exit() == 3, "exit code " + run.exit() + ", expected the application's 3");
        long[] logged = logged(run);
        long burn = validRecording(exit, logged[0], logged[1]).stream()
                .filter(s -> s.has("ExitWhileProfiling.burnUntilExit()")).count();
        System.out.println("  System.exit: burnUntilExit samples: " + burn);
        check(burn > 150, "burnUntilExit has only " + burn + " samples");

        Path term = work().resolve("sigterm.jfr"), termOut = work().resolve("sigterm.out");
        Process p = new ProcessBuilder(IntegrationTest.javaHome + "/bin/java",
                "-agentpath:" + IntegrationTest.agent + "=start,event=cpu,interval=1ms,file=" + term, "-cp",
                IntegrationTest.classes, "JfrWorkload", "30").directory(work().toFile()).redirectErrorStream(true)
                .redirectOutput(termOut.toFile()).start();
        // Killed once the workload runs (a loaded machine may take seconds to get there), then a second on.
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!Files.readString(termOut).contains("SPIN_LINE") && System.nanoTime() < deadline) Thread.sleep(100);
        Thread.sleep(1000);
        new ProcessBuilder("kill", "-TERM", String.valueOf(p.pid())).start().waitFor();
        check(p.waitFor(60, TimeUnit.SECONDS), "SIGTERM: the JVM did not exit");
        IntegrationTest.noCrashReports();
        long spin = validRecording(term, -1, -1).stream().filter(s -> s.has("JfrWorkload.spin(long)")).count();
        System.out.println("  SIGTERM: spin samples: " + spin);
        check(spin > 0, "the recording cut by SIGTERM has no workload samples");
        noTemporaryFiles();
    }

    /** Polls the agent's status until it has taken 'samples' samples (or 60 s passed); returns the count. */
    static long awaitSamples(com.sun.tools.attach.VirtualMachine vm, long samples) throws Exception {
        Path status = work().resolve("status.txt");
        long taken = 0, deadline = System.nanoTime() + 60_000_000_000L;
        while (taken < samples && System.nanoTime() < deadline) {
            Thread.sleep(250);
            vm.loadAgentPath(IntegrationTest.agent, "status,file=" + status);
            Matcher m = Pattern.compile("samples: (\\d+)").matcher(Files.readString(status));
            check(m.find(), "status without a sample count");
            taken = Long.parseLong(m.group(1));
        }
        return taken;
    }

    /**
     * Loaded into a running JVM with the `jfr` option and a file without the .jfr extension: a dump gives a
     * valid recording of the samples so far while recording goes on; stop completes the whole recording.
     */
    static void attachAndDump() throws Exception {
        Process target = new ProcessBuilder(IntegrationTest.javaHome + "/bin/java", "-cp", IntegrationTest.classes,
                "Burn7525", "8").directory(work().toFile()).redirectErrorStream(true)
                .redirectOutput(work().resolve("target.out").toFile()).start();
        try {
            Thread.sleep(700);
            var vm = com.sun.tools.attach.VirtualMachine.attach(String.valueOf(target.pid()));
            Path data = work().resolve("attached.data"), dump = work().resolve("dump.jfr");
            try {
                vm.loadAgentPath(IntegrationTest.agent, "start,jfr,event=cpu,interval=1ms,file=" + data);
                long atDump = awaitSamples(vm, 300);   // by count: a busy machine gives the target little CPU
                vm.loadAgentPath(IntegrationTest.agent, "dump,file=" + dump);
                awaitSamples(vm, atDump + 200);
                vm.loadAgentPath(IntegrationTest.agent, "stop");
            } finally {
                vm.detach();
            }
            List<Sample> dumped = validRecording(dump, -1, -1);
            check(Files.exists(data), "no recording at " + data);
            Path whole = work().resolve("attached.jfr");   // the jfr tool reads only files named .jfr
            Files.copy(data, whole, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            List<Sample> all = validRecording(whole, -1, -1);
            long dumpedBurn = dumped.stream().filter(s -> s.has("Burn7525.burnA(long)")).count();
            long allBurn = all.stream().filter(s -> s.has("Burn7525.burnA(long)")).count();
            System.out.printf("  dump: %d samples (%d burnA); whole recording: %d samples (%d burnA)%n", dumped.size(),
                    dumpedBurn, all.size(), allBurn);
            check(dumpedBurn > 100, "the dump misses the workload");
            check(all.size() > dumped.size() && allBurn > dumpedBurn, "the recording did not go on after the dump");
            // The target goes on after the stop (its 8 s of CPU may take minutes on a busy machine).
            Thread.sleep(500);
            if (!target.isAlive()) check(target.exitValue() == 0, "the target died: exit " + target.exitValue());
            IntegrationTest.noCrashReports();
            noTemporaryFiles();
        } finally {
            target.destroyForcibly();
        }
    }
}
