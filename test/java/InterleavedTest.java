import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Integration tests of interleaved Java/native stacks (cstack=vm), on the helpers of IntegrationTest.
 * Usage (from ctest): java InterleavedTest <test> <java_home> <libprof.so> <workload classpath> <work dir>
 */
public class InterleavedTest extends IntegrationTest {
    /** The callback path, root to leaf, that every callback sample must show in this order. */
    static final List<String> CALLBACK_PATH = List.of("Interleaved.main", "Interleaved.nativeCallback",
            "Java_Interleaved_nativeCallback", "callback_call_java", "jni_CallStaticVoidMethod",
            "JavaCalls::call_helper", "Interleaved.javaLeaf");
    static final List<String> BURN_PATH = List.of("Interleaved.main", "Interleaved.nativeCallback",
            "Java_Interleaved_nativeCallback", "callback_burn");
    /** Frames of the main thread's native root, below the launcher's call into Interleaved.main. */
    static final List<String> MAIN_ROOT = List.of("start_thread", "JavaMain", "jni_CallStaticVoidMethod",
            "JavaCalls::call_helper", "Interleaved.main");

    public static void main(String[] args) throws Exception {
        runMain(args, test -> {
            switch (test) {
                case "callback_vm" -> callback("default");
                case "callback_stitching" -> callback("dwarf");
                case "stress_vm" -> stress(Double.parseDouble(System.getProperty("stress.seconds", "1")));
                default -> throw new IllegalArgumentException("unknown test " + test);
            }
        });
    }

    /** True when 'frames' holds 'path' in order, and nothing but native frames between its Java frames
     * Interleaved.nativeCallback and Interleaved.javaLeaf (the native segment of the callback). */
    static boolean inOrder(List<String> frames, List<String> path) {
        int at = -1;
        for (String want : path) {
            int found = -1;
            for (int i = at + 1; i < frames.size(); i++) {
                if (frames.get(i).equals(want)) {
                    found = i;
                    break;
                }
            }
            if (found < 0) return false;
            at = found;
        }
        return true;
    }

    /** The cstack the agent said it uses, from its start-up message. */
    static String modeInUse(Run run) {
        Matcher m = Pattern.compile("profiling started: .*cstack=(\\w+)").matcher(run.err());
        check(m.find(), "no start-up message naming the stack mode: " + run.err());
        return m.group(1);
    }

    /** Samples the vm walker had to stitch instead, from the agent's closing message. */
    static long stitchedSamples(Run run) {
        long n = 0;
        Matcher m = Pattern.compile("stitched:(\\w+)=(\\d+)").matcher(run.err());
        while (m.find()) n += Long.parseLong(m.group(2));
        return n;
    }

    /**
     * Java -> JNI -> C -> CallStaticVoidMethod -> Java. In the default mode (vm): >= 90% of the samples in
     * the Java leaf show the four segments in order with the native frames between, >= 90% of the samples
     * in the C code their whole path, and >= 90% of the main thread's samples reach the thread's root.
     * Stitching (cstack=dwarf) shows the callback without the native segment between, as documented.
     */
    static void callback(String cstack) throws Exception {
        Path file = work.resolve("callback-" + cstack + ".collapsed");
        String lib = Path.of(agent).getParent().resolve("libcallback.so").toString();
        String mode = cstack.equals("default") ? "" : ",cstack=" + cstack;
        Run run = runJava("start,event=cpu,interval=1ms,loglevel=info" + mode + ",file=" + file, "Interleaved", lib, "2");
        check(run.exit() == 0, "workload failed: " + run.err());
        boolean vm = cstack.equals("default");
        check(modeInUse(run).equals(vm ? "vm" : cstack), "mode in use: " + modeInUse(run));
        Map<String, Long> stacks = readCollapsed(file);
        long leaf = 0, leafPath = 0, burn = 0, burnPath = 0, main = 0, rooted = 0, stitchedShape = 0;
        for (var e : stacks.entrySet()) {
            List<String> frames = Arrays.asList(e.getKey().split(";"));
            long n = e.getValue();
            if (frames.contains("Interleaved.main")) {
                main += n;
                if (inOrder(frames, MAIN_ROOT)) rooted += n;
            }
            if (frames.contains("Interleaved.javaLeaf")) {
                leaf += n;
                if (inOrder(frames, CALLBACK_PATH)) leafPath += n;
                if (e.getKey().contains("Interleaved.nativeCallback;Interleaved.javaLeaf")) stitchedShape += n;
            }
            if (frames.contains("callback_burn")) {
                burn += n;
                if (inOrder(frames, BURN_PATH)) burnPath += n;
            }
        }
        long total = sum(stacks), failed = failureSamples(stacks), stitched = stitchedSamples(run);
        System.out.printf("  cstack=%s: %d samples; Java leaf %d, full path %d (%.1f%%); C %d, full path %d (%.1f%%);"
                + " main thread %d, reaching the root %d (%.1f%%); failure markers %d (%.2f%%); stitched %d (%.2f%%)%n",
                cstack, total, leaf, leafPath, 100.0 * leafPath / Math.max(1, leaf), burn, burnPath,
                100.0 * burnPath / Math.max(1, burn), main, rooted, 100.0 * rooted / Math.max(1, main), failed,
                100.0 * failed / total, stitched, 100.0 * stitched / total);
        check(leaf > 150 && burn > 150, "too few samples in the workload: leaf " + leaf + ", C " + burn);
        check(burnPath * 100 >= burn * 90, "C samples with their whole path: only " + burnPath + " of " + burn);
        if (vm) {
            check(leafPath * 100 >= leaf * 90, "callback samples with the four segments: only " + leafPath + " of " + leaf);
            check(rooted * 100 >= main * 90, "main thread samples reaching the root: only " + rooted + " of " + main);
            check(stitched * 100 <= total * 5, "stitched instead: " + stitched + " of " + total);
        } else {
            check(stitchedShape * 100 >= leaf * 90, "stitching lost its documented shape: " + stitchedShape + " of " + leaf);
            check(leafPath == 0, "stitching cannot show the native segment between Java segments");
        }
        check(failed * 100 <= total * 5, "failure markers on " + failed + " of " + total + " samples");
    }

    /**
     * The stress scenarios (test/java/Stress.java) in the default mode at 1 ms, with the perf engine: no crash,
     * no hang, the scenario's own frames, and at most 1% of samples with failure markers or stitched (with the
     * allowance for sampling noise of onePercentBound).
     */
    static void stress(double seconds) throws Exception {
        for (String scenario : List.of("threads", "gc", "recursion", "classes", "deopt")) {
            Path file = work.resolve("stress-vm-" + scenario + ".collapsed");
            List<String> cmd = new ArrayList<>(List.of(javaHome + "/bin/java", "-Xmx64m",
                    "-agentpath:" + agent + "=start,event=cpu,interval=1ms,loglevel=info,file=" + file, "-cp", classes, "Stress",
                    scenario, String.valueOf(seconds)));
            Path out = work.resolve("stress-vm.out");
            Process p = new ProcessBuilder(cmd).directory(work.toFile()).redirectOutput(out.toFile())
                    .redirectErrorStream(true).start();
            check(p.waitFor((long) (seconds * 20 + 60), TimeUnit.SECONDS), "hung: " + scenario);
            String output = Files.readString(out);
            check(p.exitValue() == 0 && output.contains("STRESS " + scenario + " done"),
                    scenario + " failed (exit " + p.exitValue() + "): " + output);
            noCrashReports();
            Run run = new Run(p.exitValue(), "", output);
            check(modeInUse(run).equals("vm"), scenario + ": mode in use " + modeInUse(run));
            Map<String, Long> stacks = readCollapsed(file);
            long total = sum(stacks), failed = failureSamples(stacks), stitched = stitchedSamples(run);
            long own = stacks.entrySet().stream().filter(e -> e.getKey().contains("Stress."))
                    .mapToLong(Map.Entry::getValue).sum();
            long rooted = stacks.entrySet().stream().filter(e -> e.getKey().contains("Stress.main")
                    && e.getKey().contains("start_thread;")).mapToLong(Map.Entry::getValue).sum();
            System.out.printf("  %-9s cstack=vm: %5d samples, %5d in Stress (%d from the root), %4d failed (%.2f%%),"
                    + " %d stitched (%.2f%%)%n", scenario, total, own, rooted, failed, 100.0 * failed / total, stitched,
                    100.0 * stitched / total);
            check(own > 0, scenario + ": no sample in the workload's own frames");
            check(failed <= onePercentBound(total), scenario + ": failure markers on " + failed + " of " + total);
            check(stitched <= onePercentBound(total), scenario + ": stitched " + stitched + " of " + total);
        }
    }

    /**
     * The most samples out of 'total' that a rate of 1% explains: 1% plus three standard deviations of the
     * count. A short run on a loaded machine takes a few hundred samples, where 3 of 240 (1.25%) is noise
     * around a 1% rate rather than a higher one; over thousands of samples the bound approaches 1%.
     */
    static long onePercentBound(long total) {
        double expected = total / 100.0;
        return (long) Math.floor(expected + 3 * Math.sqrt(expected * 0.99));
    }
}
