import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The perf engine's CPU options, against threads pinned to known CPUs (PinnedBurners: burnOnCpu0 runs only on
 * CPU 0, burnOnCpu1 only on CPU 1): target-cpu=N counts only what ran on CPU N, record-cpu puts the CPU each
 * sample was taken on at the root of its stack ([CPU-N]; in JFR the frame CPU-N, read by the JDK's jfr tool),
 * and where perf events are refused both say so instead of recording something else; hardware events (cycles)
 * sample where the CPU's counters are exposed and are refused, saying so, where not; jprof --fdtransfer hands the
 * JVM events opened by its privileged helper (kernel frames where the JVM may have none). On the helpers of
 * IntegrationTest. Usage (from ctest): java PerfCpuTest <test> <java_home> <libprof.so> <classes> <work dir>
 */
public class PerfCpuTest extends IntegrationTest {
    public static void main(String[] args) throws Exception {
        runMain(args, test -> {
            if (Runtime.getRuntime().availableProcessors() < 2) {
                System.out.println("SKIP: one CPU only, nothing to tell apart");
                return;
            }
            switch (test) {
                case "target_cpu" -> targetCpu();
                case "record_cpu" -> recordCpu();
                case "record_cpu_jfr" -> recordCpuJfr();
                case "refused" -> refused();
                case "hardware" -> hardware();
                case "fdtransfer" -> fdtransfer();
                case "native_function" -> nativeFunction();
                default -> throw new IllegalArgumentException("unknown test " + test);
            }
        });
    }

    static final long INTERVAL_NS = 10_000_000L;
    /** The samples of 10 ms each burner's CPU time stands for in the last run (PinnedBurners' BURNED lines). */
    static final long[] expected = new long[2];

    static Run burn(String options) throws Exception {
        Run run = runJava("start," + options, "PinnedBurners", "1.5");
        check(run.exit() == 0 && run.out().contains("PINNED"), options + ": the workload failed: " + run.err());
        Matcher m = Pattern.compile("BURNED (\\d) (\\d+)").matcher(run.out());
        while (m.find()) expected[Integer.parseInt(m.group(1))] = Long.parseLong(m.group(2)) / INTERVAL_NS;
        System.out.println("burners' CPU time in samples of 10 ms: " + expected[0] + ", " + expected[1]);
        /* Too little CPU to tell anything (a machine loaded beyond reason): the test cannot judge. */
        check(expected[0] >= 5 && expected[1] >= 5, "the burners got too little CPU: " + run.out());
        return run;
    }

    static Map<String, Long> profile(String options, String file) throws Exception {
        Path out = work.resolve(file);
        burn(options + ",file=" + out);
        return readCollapsed(out);
    }

    /** At least half the samples the burner's own CPU time stands for (a sample whose signal was merged or came
     * late is lost, never one too many). */
    static void checkSampled(String what, int cpu, long samples) {
        check(samples >= expected[cpu] / 2, what + ": burner " + cpu + " has " + samples + " samples, its CPU time "
                + "stands for " + expected[cpu]);
    }

    /** target-cpu=N: the burner pinned to CPU N is sampled, the one pinned to the other CPU never is. */
    static void targetCpu() throws Exception {
        for (int cpu = 0; cpu < 2; cpu++) {
            Map<String, Long> stacks = profile("event=cpu,interval=10ms,target-cpu=" + cpu, "cpu" + cpu + ".collapsed");
            long here = sumContaining(stacks, "PinnedBurners.burnOnCpu" + cpu);
            long there = sumContaining(stacks, "PinnedBurners.burnOnCpu" + (1 - cpu));
            System.out.println("target-cpu=" + cpu + ": " + here + " samples of the burner on it, " + there
                    + " of the other");
            checkSampled("target-cpu=" + cpu, cpu, here);
            check(there == 0, "target-cpu=" + cpu + ": the burner pinned to the other CPU has " + there + " samples");
        }
    }

    /** record-cpu: every sample of a burner is under the [CPU-N] of the CPU it is pinned to; with alluser too. */
    static void recordCpu() throws Exception {
        for (String options : new String[] {"event=cpu,interval=10ms,record-cpu", "event=cpu-clock,interval=10ms,record-cpu,alluser"}) {
            Map<String, Long> stacks = profile(options, "record.collapsed");
            long[] right = new long[2], wrong = new long[2];
            for (var e : stacks.entrySet()) {
                String root = e.getKey().split(";")[0];
                check(root.matches("\\[CPU-\\d+\\]"), options + ": a stack without its CPU at the root: " + e.getKey());
                for (int cpu = 0; cpu < 2; cpu++) {
                    if (!e.getKey().contains("PinnedBurners.burnOnCpu" + cpu)) continue;
                    if (root.equals("[CPU-" + cpu + "]")) right[cpu] += e.getValue();
                    else wrong[cpu] += e.getValue();
                }
            }
            System.out.println(options + ": burner 0: " + right[0] + " on CPU 0, " + wrong[0] + " elsewhere; burner 1: "
                    + right[1] + " on CPU 1, " + wrong[1] + " elsewhere");
            for (int cpu = 0; cpu < 2; cpu++) {
                checkSampled(options, cpu, right[cpu]);
                check(wrong[cpu] == 0, options + ": burner " + cpu + " has " + wrong[cpu] + " samples on another CPU");
            }
        }
    }

    /** record-cpu in a recording: each CPU sample's outermost frame is CPU-N, N the burner's CPU; the wall samples
     * beside them have none (only the perf engine knows a sample's CPU). */
    static void recordCpuJfr() throws Exception {
        Path rec = work.resolve("record.jfr");
        burn("event=cpu,interval=10ms,wall=50ms,record-cpu,file=" + rec);
        String print = JfrTest.jfr("print", "--stack-depth", "200", "--events", "jdk.ExecutionSample", rec.toString());
        long[] right = new long[2], wrong = new long[2];
        long samples = 0, withoutCpu = 0;
        for (String event : print.split("(?m)^jdk\\.ExecutionSample")) {
            if (!event.contains("stackTrace = [")) continue;
            samples++;
            /* jfr print: one frame a line, the outermost last before the closing bracket; a native frame ".name()" */
            String[] frames = event.substring(event.indexOf("stackTrace = [") + 14, event.lastIndexOf("]")).strip().split("\n");
            String outermost = frames[frames.length - 1].strip();
            Matcher m = Pattern.compile("^\\.CPU-(\\d+)\\(\\)$").matcher(outermost);
            boolean truncated = outermost.equals("...");
            if (!m.find()) {
                if (!truncated) withoutCpu++;
                continue;
            }
            int at = Integer.parseInt(m.group(1));
            for (int cpu = 0; cpu < 2; cpu++) {
                if (!event.contains("PinnedBurners.burnOnCpu" + cpu)) continue;
                if (at == cpu) right[cpu]++;
                else wrong[cpu]++;
            }
        }
        String wall = JfrTest.jfr("print", "--stack-depth", "200", "--events", "profiler.WallClockSample", rec.toString());
        System.out.println("jfr: " + samples + " CPU samples (" + withoutCpu + " without a CPU frame); burner 0: "
                + right[0] + " on CPU 0, " + wrong[0] + " elsewhere; burner 1: " + right[1] + " on CPU 1, " + wrong[1]
                + " elsewhere; wall samples with a CPU frame: " + (wall.contains("CPU-") ? "some" : "none"));
        check(withoutCpu == 0, withoutCpu + " CPU samples without a CPU frame");
        for (int cpu = 0; cpu < 2; cpu++) {
            checkSampled("jfr", cpu, right[cpu]);
            check(wrong[cpu] == 0, "burner " + cpu + " has " + wrong[cpu] + " samples on another CPU");
        }
        check(wall.contains("PinnedBurners") && !wall.contains("CPU-"), "wall samples: none, or with a CPU frame");
    }

    /** Where perf events are refused (simulated), event=cpu with target-cpu or record-cpu does not fall back to a
     * timer that cannot do what was asked: the JVM refuses to start, saying why; a timer engine named outright is
     * refused the same. */
    static void refused() throws Exception {
        Map<String, String> deny = Map.of("LIBPROF_TEST_DENY_PERF", "1");
        for (String option : new String[] {"target-cpu=0", "record-cpu"}) {
            Run run = runJavaWithEnv(deny, "start,event=cpu," + option + ",file=" + work.resolve("x.collapsed"),
                    "PinnedBurners", "0.1");
            check(run.exit() != 0 && !run.out().contains("PINNED"), option + " without perf: the JVM ran");
            String name = option.replace("=0", "");
            check(run.err().contains("Perf events unavailable") && run.err().contains(name)
                    && run.err().contains("LIBPROF_TEST_DENY_PERF"), option + " without perf: " + run.err());
            run = runJava("start,event=ctimer," + option + ",file=" + work.resolve("x.collapsed"), "PinnedBurners", "0.1");
            check(run.exit() != 0 && run.err().contains("'" + name + "' needs a perf event")
                    && run.err().contains("ctimer"), option + " with ctimer: " + run.err());
        }
    }

    /** cycles: where the kernel lists a CPU PMU (/sys/bus/event_source/devices/cpu, or a hybrid CPU's cpu_core),
     * samples of the burners; where it lists none (most virtual machines), the JVM refuses to start, saying so. */
    static void hardware() throws Exception {
        boolean pmu = Files.exists(Path.of("/sys/bus/event_source/devices/cpu"))
                || Files.exists(Path.of("/sys/bus/event_source/devices/cpu_core"));
        Path out = work.resolve("cycles.collapsed");
        Run run = runJava("start,event=cycles,file=" + out, "PinnedBurners", "1");
        System.out.println("CPU PMU listed by the kernel: " + pmu);
        if (pmu) {
            check(run.exit() == 0, "event=cycles with a PMU: " + run.err());
            Map<String, Long> stacks = readCollapsed(out);
            check(sumContaining(stacks, "PinnedBurners.spin") > 0, "event=cycles: no sample of the burners");
        } else {
            check(run.exit() != 0 && !run.out().contains("PINNED"), "event=cycles without a PMU: the JVM ran");
            check(run.err().contains("event=cycles: Perf events unavailable") && run.err().contains("no hardware counter"),
                    "event=cycles without a PMU: " + run.err());
        }
    }

    /** A JVM that may not sample the kernel (simulated: LIBPROF_TEST_DENY_PERF=kernel refuses its own kernel
     * events as kernel.perf_event_paranoid=2 does) gets no kernel frames from jprof, and gets them with
     * jprof --fdtransfer, whose helper opens the events; the helper is gone when jprof is done. A helper that
     * cannot be reached is said, and the JVM opens its events itself. */
    static void fdtransfer() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(javaHome + "/bin/java", "-cp", classes, "SyscallLoop", "30"));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(work.toFile())
                .redirectOutput(work.resolve("loop.out").toFile()).redirectError(work.resolve("loop.err").toFile());
        pb.environment().put("LIBPROF_TEST_DENY_PERF", "kernel");
        Process jvm = pb.start();
        try {
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (!CompatTest.dispatcherRuns(jvm.pid()) && System.nanoTime() < deadline) Thread.sleep(10);
            long[] kernel = new long[2];
            for (int round = 0; round < 2; round++) {
                boolean helper = round == 1;
                Path out = work.resolve("fd" + round + ".collapsed");
                List<String> jprof = new ArrayList<>(List.of(CompatTest.jprof(), "-d", "1", "-e", "cpu", "-i", "1ms",
                        "-a", "-o", "collapsed", "-f", out.toString(), "-L", "info"));
                if (helper) jprof.add("--fdtransfer");
                jprof.add(String.valueOf(jvm.pid()));
                Process attach = new ProcessBuilder(jprof).redirectErrorStream(true).start();
                String said = new String(attach.getInputStream().readAllBytes());
                check(attach.waitFor(60, TimeUnit.SECONDS), "jprof did not return");
                check(attach.exitValue() == 0, String.join(" ", jprof) + ": " + said);
                Map<String, Long> stacks = readCollapsed(out);
                for (var e : stacks.entrySet()) if (e.getKey().contains("_[k]")) kernel[round] += e.getValue();
                System.out.println((helper ? "with" : "without") + " --fdtransfer: " + kernel[round] + " of "
                        + sum(stacks) + " samples with kernel frames");
                check(said.contains(helper ? "opened by jprof's helper" : "kernel frames not allowed here"),
                        (helper ? "with" : "without") + " --fdtransfer, the agent did not say how it sampled: " + said);
                check(helper ? !helperRunning() : true, "the helper is still running after jprof -d ended");
            }
            check(kernel[0] == 0, "without --fdtransfer, kernel frames where the JVM may have none: " + kernel[0]);
            /* SyscallLoop spends most of its CPU in write(2): many of its samples are taken in the kernel */
            check(kernel[1] > 0, "with --fdtransfer, no kernel frames");
        } finally {
            jvm.destroy();
            jvm.waitFor(10, TimeUnit.SECONDS);
        }
        Path out = work.resolve("unreachable.collapsed");
        Run run = runJava("start,event=cpu,fdtransfer=libprof-fdtransfer-nobody-here,file=" + out, "SyscallLoop", "0.5");
        check(run.exit() == 0 && run.err().contains("cannot reach jprof's helper")
                && run.err().contains("opening perf events in the JVM itself"), "an unreachable helper: " + run.err());
        check(sum(readCollapsed(out)) > 0, "an unreachable helper: no profile");
    }

    /** Whether a process of jprof's --fdtransfer is alive (a helper's command line is its jprof's). */
    static boolean helperRunning() throws Exception {
        long deadline = System.nanoTime() + 5_000_000_000L;
        do {
            boolean found = false;
            for (ProcessHandle p : ProcessHandle.allProcesses().toList()) {
                String line = p.info().commandLine().orElse("");
                if (line.contains("jprof") && line.contains("--fdtransfer") && p.pid() != ProcessHandle.current().pid())
                    found = true;
            }
            if (!found) return false;
            Thread.sleep(50);
        } while (System.nanoTime() < deadline);
        return true;
    }

    /** event=G1CollectedHeap::humongous_obj_allocate: every call of the function, with its stack. Humongous
     * allocates 200 arrays that each need it, from allocateBig, and two million small ones that never do, from
     * allocateSmall: at least 200 samples (a call retried after a collection counts again), every one with the
     * function as its leaf, none in allocateSmall. The same with a uprobe where a hardware breakpoint is refused
     * (simulated: LIBPROF_TEST_DENY_PERF=breakpoint), where the kernel offers uprobes. */
    static void nativeFunction() throws Exception {
        boolean uprobes = Files.exists(Path.of("/sys/bus/event_source/devices/uprobe/type"));
        for (String deny : uprobes ? new String[] {"0", "breakpoint"} : new String[] {"0"}) {
            countCalls(Map.of("LIBPROF_TEST_DENY_PERF", deny),
                    deny.equals("0") ? "perf: event breakpoint" : "using a uprobe on the function instead");
        }
        Run typo = runJava("start,event=G1CollectedHeap::no_such_function,file=" + work.resolve("x.collapsed"),
                "Humongous", "1");
        check(typo.exit() != 0 && typo.err().contains("no such function"), "a function that does not exist: " + typo.err());
    }

    static void countCalls(Map<String, String> env, String choice) throws Exception {
        String function = "G1CollectedHeap::humongous_obj_allocate";
        Path out = work.resolve("humongous.collapsed");
        Run run = runJavaWithEnv(env, "start,event=" + function + ",loglevel=info,file=" + out, "-XX:+UseG1GC",
                "-XX:G1HeapRegionSize=1M", "-Xmx256m", "Humongous", "200");
        check(run.exit() == 0 && run.out().contains("ALLOCATED 200"), "the workload failed: " + run.err());
        check(run.err().contains(choice), "the engine's choice not said ('" + choice + "'): " + run.err());
        Map<String, Long> stacks = readCollapsed(out);
        long big = 0, small = 0, notLeaf = 0;
        for (var e : stacks.entrySet()) {
            String[] frames = e.getKey().split(";");
            if (!frames[frames.length - 1].equals(function)) notLeaf += e.getValue();
            if (e.getKey().contains("Humongous.allocateBig")) big += e.getValue();
            if (e.getKey().contains("Humongous.allocateSmall")) small += e.getValue();
        }
        System.out.println(function + ": " + sum(stacks) + " calls, " + big + " in allocateBig, " + small
                + " in allocateSmall, " + notLeaf + " with another leaf");
        check(big >= 200 && big <= 600, big + " calls in allocateBig, where 200 arrays needed one each");
        check(small == 0 && notLeaf == 0, small + " calls in allocateSmall, " + notLeaf + " stacks not ending in it");
    }
}
