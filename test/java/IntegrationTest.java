import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Integration tests: each starts a real JVM with the agent on a workload from test/java and asserts on the
 * profile it writes. Usage (from ctest):
 *   java IntegrationTest <test> <java_home of the target JVM> <libprof.so> <workload classpath> <work dir>
 */
public class IntegrationTest {
    static String javaHome, agent, classes;
    static Path work;

    static final Set<String> FAILURE_MARKERS = Set.of("[no_class_load]", "[GC_active]", "[unknown_not_Java]",
            "[not_walkable_not_Java]", "[unknown_Java]", "[not_walkable_Java]", "[unknown_state]", "[thread_exit]",
            "[deopt]", "[safepoint]");

    record Run(int exit, String out, String err) {}

    /** One test of a driver, by name. */
    interface TestBody {
        void run(String test) throws Exception;
    }

    /** Reads the arguments every driver shares, runs the named test, prints ctest's summary line. */
    static void runMain(String[] args, TestBody body) throws Exception {
        String test = args[0];
        javaHome = args[1];
        agent = args[2];
        classes = args[3];
        work = Path.of(args[4]);
        Files.createDirectories(work);
        try {
            body.run(test);
            System.out.println("1 passed, 0 failed");
        } catch (AssertionError e) {
            System.out.println("FAIL: " + e.getMessage());
            System.out.println("0 passed, 1 failed");
            System.exit(1);
        }
    }

    public static void main(String[] args) throws Exception {
        runMain(args, test -> {
            switch (test) {
                case "shares_ctimer" -> shares("ctimer");
                case "shares_itimer" -> shares("itimer");
                case "total_ctimer" -> total("ctimer");
                case "total_itimer" -> total("itimer");
                case "threads" -> threads();
                case "bad_options" -> badOptions();
                case "exit_while_profiling" -> exitWhileProfiling();
                case "text_report" -> textReport();
                case "naming_and_filters" -> namingAndFilters();
                case "timeout" -> timeout();
                case "long_interval_exit" -> longIntervalExit();
                case "loop_covers_run" -> loopCoversRun();
                case "loop_dir_gone" -> loopDirGone();
                case "attach_load" -> attachLoad();
                case "app_owns_sigprof" -> appOwnsSigprof();
                case "stress" -> stress(Double.parseDouble(System.getProperty("stress.seconds", "1.5")),
                        Boolean.getBoolean("stress.full"));
                case "exit_paths" -> exitPaths();
                case "native_chain_fp" -> nativeChain("fp", "fp", 90);
                case "native_chain_nofp_fp_mode" -> nativeChain("nofp", "fp", 0);
                case "native_chain_nofp_dwarf" -> nativeChain("nofp", "dwarf", 90);
                case "native_chain_nofp_default" -> nativeChain("nofp", "default", 95);
                case "deflate_into_zlib" -> deflateIntoZlib();
                case "jvm_threads" -> jvmThreads();
                case "shares_perf" -> sharesPerf("");
                case "shares_sigtrap" -> sharesPerf(",features=sigtrap");
                case "total_perf" -> total("cpu-clock");
                case "perf_fallback" -> perfFallback();
                case "kernel_frames" -> kernelFrames("");
                case "kernel_frames_sigtrap" -> kernelFrames(",features=sigtrap");
                case "alluser" -> allUser();
                case "perf_thread_churn" -> perfThreadChurn();
                case "perf_fd_limit" -> perfFdLimit();
                case "perf_kernel_refused" -> perfKernelRefused();
                case "perf_page_faults" -> perfPageFaults();
                case "perf_slow_handler" -> perfSlowHandler("");
                case "perf_slow_handler_sigtrap" -> perfSlowHandler(",features=sigtrap");
                default -> throw new IllegalArgumentException("unknown test " + test);
            }
        });
    }

    // ---- helpers ------------------------------------------------------------------------------------

    static void check(boolean condition, String message) {
        if (!condition) throw new AssertionError(message);
    }

    static Run runJava(String agentOptions, String... mainAndArgs) throws IOException, InterruptedException {
        return runJavaWithEnv(Map.of(), agentOptions, mainAndArgs);
    }

    static Run runJavaWithEnv(Map<String, String> env, String agentOptions, String... mainAndArgs)
            throws IOException, InterruptedException {
        return runJavaVia(List.of(), env, agentOptions, mainAndArgs);
    }

    /** Runs java through 'wrapper' (a command that executes its arguments, such as prlimit). */
    static Run runJavaVia(List<String> wrapper, Map<String, String> env, String agentOptions, String... mainAndArgs)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(wrapper);
        cmd.add(javaHome + "/bin/java");
        if (agentOptions != null) cmd.add("-agentpath:" + agent + "=" + agentOptions);
        cmd.add("-cp");
        cmd.add(classes);
        cmd.addAll(List.of(mainAndArgs));
        Path out = Files.createTempFile(work, "stdout", ".txt"), err = Files.createTempFile(work, "stderr", ".txt");
        ProcessBuilder builder = new ProcessBuilder(cmd).directory(work.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile());
        builder.environment().putAll(env);
        Process p = builder.start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("JVM did not finish in 180 s: " + cmd);
        }
        Run run = new Run(p.exitValue(), Files.readString(out), Files.readString(err));
        noCrashReports();
        System.out.println("$ " + (env.isEmpty() ? "" : env + " ") + String.join(" ", cmd) + "\n  exit " + run.exit() + "\n  stderr: "
                + run.err().strip().replace("\n", "\n          "));
        return run;
    }

    /** The profiled JVM must never crash: a HotSpot crash report in the work directory fails the test. */
    static void noCrashReports() throws IOException {
        try (var dir = Files.list(work)) {
            var reports = dir.filter(f -> f.getFileName().toString().startsWith("hs_err_pid")).toList();
            check(reports.isEmpty(), "the JVM crashed: " + reports);
        }
    }

    /** Stack -> count; fails on malformed lines and on a stack that appears on two lines. */
    static Map<String, Long> readCollapsed(Path file) throws IOException {
        check(Files.exists(file), "no profile written at " + file);
        String text = Files.readString(file, StandardCharsets.UTF_8);
        check(text.isEmpty() || text.endsWith("\n"), "profile does not end with a newline: truncated?");
        Map<String, Long> stacks = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty()) continue;
            int space = line.lastIndexOf(' ');
            check(space > 0, "malformed collapsed line: " + line);
            String stack = line.substring(0, space);
            long count = Long.parseLong(line.substring(space + 1));
            check(count > 0, "non-positive count: " + line);
            check(stacks.put(stack, count) == null, "stack on two lines: " + stack);
        }
        check(!stacks.isEmpty(), "empty profile " + file);
        return stacks;
    }

    static long sum(Map<String, Long> stacks) {
        return stacks.values().stream().mapToLong(Long::longValue).sum();
    }

    static long sumContaining(Map<String, Long> stacks, String frame) {
        long n = 0;
        for (var e : stacks.entrySet()) {
            if (List.of(e.getKey().split(";")).contains(frame)) n += e.getValue();
        }
        return n;
    }

    static long failureSamples(Map<String, Long> stacks) {
        long n = 0;
        for (var e : stacks.entrySet()) {
            for (String f : e.getKey().split(";")) {
                if (FAILURE_MARKERS.contains(f)) {
                    n += e.getValue();
                    break;
                }
            }
        }
        return n;
    }

    static double truth(String stdout, String key) {
        Matcher m = Pattern.compile(key + "=([0-9.]+)").matcher(stdout);
        check(m.find(), "workload did not report " + key + ": " + stdout);
        return Double.parseDouble(m.group(1));
    }

    // ---- tests --------------------------------------------------------------------------------------

    /** 75/25 CPU split: the profile's shares match the truth the workload measured, within 5 points. */
    static void shares(String engine) throws Exception {
        Path file = work.resolve("shares-" + engine + ".collapsed");
        Run run = runJava("start,event=" + engine + ",interval=1ms,loglevel=info,file=" + file, "Burn7525", "4");
        check(run.exit() == 0, "workload failed: " + run.err());
        check(run.err().contains("using the " + engine + " engine"), "engine choice not logged: " + run.err());
        Map<String, Long> stacks = readCollapsed(file);
        long a = sumContaining(stacks, "Burn7525.burnA"), b = sumContaining(stacks, "Burn7525.burnB");
        long total = sum(stacks), failed = failureSamples(stacks);
        double share = (double) a / (a + b), truth = truth(run.out(), "burnA");
        System.out.printf("  %s: burnA %d, burnB %d, all %d samples; share %.4f vs truth %.4f; failures %d (%.2f%%)%n",
                engine, a, b, total, share, truth, failed, 100.0 * failed / total);
        check(a + b > 600, "too few samples in the workload: " + (a + b));
        check(Math.abs(share - truth) <= 0.05, String.format("burnA share %.4f differs from truth %.4f", share, truth));
        check(failed * 100 < total, "failure markers on " + failed + " of " + total + " samples");
    }

    /** With 'total', the weights add up to the CPU time used. */
    static void total(String engine) throws Exception {
        Path file = work.resolve("total-" + engine + ".collapsed");
        Run run = runJava("start,event=" + engine + ",interval=1ms,total,file=" + file, "Burn7525", "4");
        check(run.exit() == 0, "workload failed: " + run.err());
        Map<String, Long> stacks = readCollapsed(file);
        long burn = sumContaining(stacks, "Burn7525.main"), all = sum(stacks);
        double threadCpu = truth(run.out(), "threadCpuNs"), processCpu = truth(run.out(), "processCpuNs");
        System.out.printf("  %s: burn thread weight %.3f s (its CPU %.3f s); all weights %.3f s (process CPU %.3f s)%n",
                engine, burn / 1e9, threadCpu / 1e9, all / 1e9, processCpu / 1e9);
        check(burn >= 3e9 && burn <= 5e9, "4 s of burn weighs " + burn / 1e9 + " s, expected 3..5 s");
        check(Math.abs(all - processCpu) <= 0.25 * processCpu,
                String.format("weights %.3f s vs process CPU %.3f s: more than 25%% apart", all / 1e9, processCpu / 1e9));
    }

    /** 'threads': one root frame per thread, with the thread's Java name, above that thread's own work. */
    static void threads() throws Exception {
        Path file = work.resolve("threads.collapsed");
        Run run = runJava("start,event=cpu,interval=1ms,threads,file=" + file, "NamedThreads", "1.5");
        check(run.exit() == 0, "workload failed: " + run.err());
        Map<String, Long> stacks = readCollapsed(file);
        for (String name : List.of("alpha", "beta", "gamma")) {
            long own = 0, misplaced = 0;
            for (var e : stacks.entrySet()) {
                boolean under = e.getKey().matches("\\[" + name + "-worker tid=\\d+\\];.*");
                boolean work = e.getKey().contains("NamedThreads." + name + "Work");
                if (under && work) own += e.getValue();
                if (work && !under) misplaced += e.getValue();
            }
            System.out.printf("  %s-worker: %d samples under its own root, %d elsewhere%n", name, own, misplaced);
            check(own > 200, name + "Work has too few samples under [" + name + "-worker tid=N]: " + own);
            check(misplaced == 0, name + "Work appears under another thread: " + misplaced);
        }
        for (String stack : stacks.keySet()) {
            check(stack.startsWith("["), "stack without a thread root frame: " + stack);
        }
    }

    /** A bad option stops the JVM at start-up with a message naming the bad value. */
    static void badOptions() throws Exception {
        String[][] cases = {{"start,event=foo", "foo"}, {"start,interval=fast", "fast"}, {"start,bogus", "bogus"},
                            {"start,file=out%x.txt", "%x"}, {"start,jstackdepth=-1", "-1"}};
        for (String[] c : cases) {
            Run run = runJava(c[0], "Burn7525", "0.1");
            check(run.exit() != 0, "JVM started despite " + c[0]);
            check(run.err().contains(c[1]), "message for " + c[0] + " does not name '" + c[1] + "': " + run.err());
            check(!run.out().contains("TRUTH"), "the application ran despite " + c[0]);
        }
    }

    /** System.exit while profiling: the profile is complete and the application's exit code is kept. */
    static void exitWhileProfiling() throws Exception {
        Path file = work.resolve("exit.collapsed");
        Run run = runJava("start,event=cpu,interval=1ms,file=" + file, "ExitWhileProfiling");
        check(run.exit() == 3, "exit code " + run.exit() + ", expected the application's 3");
        Map<String, Long> stacks = readCollapsed(file);
        long burn = sumContaining(stacks, "ExitWhileProfiling.burnUntilExit");
        System.out.println("  burnUntilExit samples: " + burn);
        check(burn > 150, "burnUntilExit has only " + burn + " samples");
        try (var dir = Files.list(work)) {
            check(dir.noneMatch(p -> p.getFileName().toString().contains(".tmp-")), "temporary file left behind");
        }
    }

    /** The text report: header, drops, hottest traces, flat profile. */
    static void textReport() throws Exception {
        Path file = work.resolve("report.txt");
        Run run = runJava("start,event=ctimer,interval=2ms,file=" + file, "Burn7525", "1.5");
        check(run.exit() == 0, "workload failed: " + run.err());
        String text = Files.readString(file);
        for (String expected : List.of("Engine         : ctimer (event=ctimer)", "Interval       : 2000000 ns",
                "--- Execution profile ---\nTotal samples       : ", "Dropped samples: ", "Failed walks   : ", "Burn7525.burnA", "self (leaf frame)")) {
            check(text.contains(expected), "text report lacks '" + expected + "'");
        }
        Matcher m = Pattern.compile("--- (\\d+) samples \\(([0-9.]+)%\\)").matcher(text);
        check(m.find(), "no trace section");
        double firstShare = Double.parseDouble(m.group(2));
        check(firstShare > 40, "the hottest trace has only " + firstShare + "%");
    }

    /** dot, sig and include/exclude change names and filter stacks. */
    static void namingAndFilters() throws Exception {
        Path file = work.resolve("names.collapsed");
        Run run = runJava("start,event=cpu,interval=1ms,dot,sig,include=*burnA*,file=" + file, "Burn7525", "1");
        check(run.exit() == 0, "workload failed: " + run.err());
        Map<String, Long> stacks = readCollapsed(file);
        for (String stack : stacks.keySet()) {
            check(stack.contains("Burn7525.burnA(J)J"), "include=*burnA* kept " + stack);
            // Java frames (with sig: name(args)ret) must use dots; VM stubs keep their own names ("I2C/C2I
            // adapters": the walker names a sample that lands in an adapter by its code blob).
            for (String frame : stack.split(";")) {
                check(!frame.contains("(") || !frame.contains("/"), "dot left a '/' in " + frame + " of " + stack);
            }
        }
        Path excluded = work.resolve("excluded.collapsed");
        run = runJava("start,event=cpu,interval=1ms,simple,exclude=*burnA,file=" + excluded, "Burn7525", "1");
        stacks = readCollapsed(excluded);
        check(sumContaining(stacks, "Burn7525.burnA") == 0, "exclude=*burnA kept burnA");
        check(sumContaining(stacks, "Burn7525.burnB") > 0, "exclude=*burnA dropped burnB too");
    }

    /** Loading into a running JVM (Agent_OnAttach): start, status, refusals, stop; every load reuses one instance. */
    static void attachLoad() throws Exception {
        List<String> cmd = List.of(javaHome + "/bin/java", "-cp", classes, "Burn7525", "8");
        Path out = work.resolve("target.out");
        Process target = new ProcessBuilder(cmd).directory(work.toFile()).redirectOutput(out.toFile())
                .redirectErrorStream(true).start();
        try {
            Thread.sleep(700);
            var vm = com.sun.tools.attach.VirtualMachine.attach(String.valueOf(target.pid()));
            try {
                vm.loadAgentPath(agent, "start,event=cpu,interval=1ms");
                // Poll status until enough samples: a busy machine gives the target less CPU per second.
                Path status = work.resolve("status.txt");
                String text = "";
                long samples = 0, deadline = System.nanoTime() + 20_000_000_000L;
                while (samples < 200 && System.nanoTime() < deadline) {
                    Thread.sleep(250);
                    vm.loadAgentPath(agent, "status,file=" + status);
                    text = Files.readString(status);
                    Matcher m = Pattern.compile("samples: (\\d+)").matcher(text);
                    check(m.find(), "status without a sample count: " + text);
                    samples = Long.parseLong(m.group(1));
                }
                System.out.print("  status:\n" + text);
                // event=cpu: perf where the kernel allows it, else ctimer.
                check(text.contains("state: running") && (text.contains("engine: perf") || text.contains("engine: ctimer")),
                        "status: " + text);
                check(refused(vm, "start"), "a second start while running was accepted");
                Path profile = work.resolve("attach.collapsed");
                vm.loadAgentPath(agent, "stop,file=" + profile);
                Map<String, Long> stacks = readCollapsed(profile);
                long a = sumContaining(stacks, "Burn7525.burnA"), b = sumContaining(stacks, "Burn7525.burnB");
                System.out.printf("  attached profile: burnA %d, burnB %d of %d samples%n", a, b, sum(stacks));
                check(a + b >= 150 && a > b, "the attached profile misses the workload: " + stacks);
                // Like asprof: a stop after the session ended writes its profile again, in the format asked for.
                Path again = work.resolve("again.collapsed"), againText = work.resolve("again.txt");
                vm.loadAgentPath(agent, "stop,file=" + again);
                check(readCollapsed(again).equals(stacks), "a second stop did not write the same profile again");
                vm.loadAgentPath(agent, "dump,file=" + againText);
                check(Files.readString(againText).contains("Total samples       : " + sum(stacks)),
                        "a dump after the stop did not write the same profile as text: " + Files.readString(againText));
                check(refused(vm, "event=nonsense,start"), "a bad option was accepted on attach");
            } finally {
                vm.detach();
            }
            check(target.waitFor(60, TimeUnit.SECONDS), "target did not finish");
            check(target.exitValue() == 0, "target exited " + target.exitValue() + ": " + Files.readString(out));
            check(Files.readString(out).contains("TRUTH"), "target did not complete its work");
            noCrashReports();
        } finally {
            target.destroyForcibly();
        }
    }

    /**
     * An application with its own SIGPROF handler, profiled by attaching: the profiler takes another
     * signal, the application's handler sees exactly the signals it raised itself, and the profile is right.
     */
    static void appOwnsSigprof() throws Exception {
        String lib = Path.of(agent).getParent().resolve("libsigprof_app.so").toString();
        Path out = work.resolve("app.out");
        Process target = new ProcessBuilder(javaHome + "/bin/java", "-cp", classes, "SigprofApp", lib, "4")
                .directory(work.toFile()).redirectOutput(out.toFile()).redirectErrorStream(true).start();
        try {
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!Files.readString(out).contains("READY") && System.nanoTime() < deadline) Thread.sleep(50);
            var vm = com.sun.tools.attach.VirtualMachine.attach(String.valueOf(target.pid()));
            Path profile = work.resolve("sigprof.collapsed");
            Path log = work.resolve("agent.log");
            try {
                // F_SETSIG delivery, which the application's SIGPROF concerns (SIGTRAP delivery uses no other signal).
                vm.loadAgentPath(agent, "start,event=cpu,interval=1ms,features=nosigtrap,log=" + log);
                Thread.sleep(2000);
                vm.loadAgentPath(agent, "stop,file=" + profile + ",log=" + log);
            } finally {
                vm.detach();
            }
            check(target.waitFor(60, TimeUnit.SECONDS), "target did not finish");
            String output = Files.readString(out);
            System.out.print("  " + output.replace("\n", "\n  ") + "\n  agent log: " + Files.readString(log));
            Matcher m = Pattern.compile("raised=(\\d+) received=(\\d+)").matcher(output);
            check(m.find(), "the application did not finish: " + output);
            check(m.group(1).equals(m.group(2)), "the application's SIGPROF handler saw other signals: " + m.group());
            check(Files.readString(log).contains("SIGPROF is handled by the application"), "signal choice not logged");
            // Real-time signals queue instead of merging: the events stay one-shot (docs/dev/engines.md).
            check(Files.readString(log).contains("one-shot, re-armed by each handler"), "not one-shot with a real-time signal");
            long burn = sumContaining(readCollapsed(profile), "SigprofApp.burn");
            System.out.println("  SigprofApp.burn samples: " + burn);
            check(burn > 30, "the profiler took too few samples with its own signal: " + burn);
            noCrashReports();
        } finally {
            target.destroyForcibly();
        }
    }

    /**
     * Every stress scenario under every engine and stack mode at 1 ms: no crash, no hang, a valid profile
     * with the scenario's own frames; the deep recursion is marked [truncated] (jstackdepth=2048/2040).
     */
    /**
     * Every scenario under each engine (default stack mode) and each stack mode (default engine); the short
     * form in the test run takes three combinations that still cover every engine and two stack modes.
     * Besides output validity: descriptors and RSS between the warmed-up point and the end must not grow
     * (thread churn creates ~20K threads in 60 s: a per-thread leak shows).
     */
    static void stress(double seconds, boolean full) throws Exception {
        List<String[]> combos = full
                ? List.of(new String[] {"cpu", "default"}, new String[] {"ctimer", "default"},
                        new String[] {"itimer", "default"}, new String[] {"cpu", "fp"}, new String[] {"cpu", "dwarf"},
                        new String[] {"cpu", "no"}, new String[] {"cpu,features=sigtrap", "default"})
                : List.of(new String[] {"cpu", "default"}, new String[] {"ctimer", "fp"}, new String[] {"itimer", "no"},
                        new String[] {"cpu,features=sigtrap", "default"});
        for (String scenario : List.of("threads", "gc", "recursion", "classes", "deopt")) {
            for (String[] combo : combos) {
                String engine = combo[0], cstack = combo[1];
                Path file = work.resolve("stress-" + scenario + "-" + engine.replace(",features=", "-") + "-" + cstack + ".collapsed");
                List<String> cmd = new ArrayList<>(List.of(javaHome + "/bin/java", "-Xmx64m",
                        "-agentpath:" + agent + "=start,event=" + engine + ",interval=1ms,jstackdepth=2048/2040"
                                + (cstack.equals("default") ? "" : ",cstack=" + cstack) + ",file=" + file,
                        "-cp", classes, "Stress", scenario, String.valueOf(seconds)));
                Path out = work.resolve("stress.out");
                Process p = new ProcessBuilder(cmd).directory(work.toFile()).redirectOutput(out.toFile())
                        .redirectErrorStream(true).start();
                check(p.waitFor((long) (seconds * 20 + 60), TimeUnit.SECONDS), "hung: " + scenario + " " + engine);
                String output = Files.readString(out);
                check(p.exitValue() == 0 && output.contains("STRESS " + scenario + " done"),
                        scenario + "/" + engine + "/" + cstack + " failed (exit " + p.exitValue() + "): " + output);
                noCrashReports();
                Map<String, Long> stacks = readCollapsed(file);
                long total = sum(stacks), failed = failureSamples(stacks);
                long own = stacks.entrySet().stream().filter(e -> e.getKey().contains("Stress."))
                        .mapToLong(Map.Entry::getValue).sum();
                long truncated = sumContaining(stacks, "[truncated]");
                Matcher res = Pattern.compile("STRESS resources fds (-?\\d+) (\\d+) rss (-?\\d+) (\\d+)").matcher(output);
                check(res.find(), "no resource line: " + output);
                long fds0 = Long.parseLong(res.group(1)), fds1 = Long.parseLong(res.group(2));
                long rss0 = Long.parseLong(res.group(3)), rss1 = Long.parseLong(res.group(4));
                Matcher done = Pattern.compile("STRESS \\S+ done (\\d+)").matcher(output);
                String started = scenario.equals("threads") && done.find() ? ", " + done.group(1) + " threads" : "";
                Matcher hidden = Pattern.compile("STRESS hidden classes defined (\\d+)").matcher(output);
                long classes = hidden.find() ? Long.parseLong(hidden.group(1)) : 0;
                if (classes > 0) started = ", " + classes + " hidden classes";
                System.out.printf("  %-9s %-6s cstack=%-7s: %5d samples, %5d in Stress, %4d failed (%.1f%%),"
                        + " %d truncated; fds %d -> %d, RSS %d -> %d kB%s%n", scenario, engine, cstack,
                        total, own, failed, 100.0 * failed / total, truncated, fds0, fds1, rss0, rss1, started);
                check(own > 0, scenario + ": no sample in the workload's own frames");
                if (scenario.equals("recursion")) check(truncated * 2 > own, "deep stacks not marked [truncated]");
                if (fds0 >= 0) {
                    // Slack for descriptors the JVM opens lazily (jar entries, /proc reads by the workload).
                    check(fds1 <= fds0 + 8, scenario + "/" + engine + "/" + cstack + ": descriptors grew " + fds0 + " -> " + fds1);
                    // Class churn: HotSpot never frees the jmethodIDs of unloaded classes, and the agent creates them
                    // for every class (AsyncGetCallTrace names frames only by existing ones): measured 115-135
                    // bytes per hidden class on JDK 17 and 25; allowed 200 on top of the 48 MB.
                    long allowedKb = 48 * 1024 + classes * 200 / 1024;
                    check(rss1 - rss0 <= allowedKb, scenario + "/" + engine + "/" + cstack + ": RSS grew "
                            + (rss1 - rss0) + " kB (allowed " + allowedKb + " kB)");
                }
            }
        }
    }

    /** The JVM leaving by System.exit, an uncaught exception, SIGTERM and SIGINT: a complete profile each time. */
    static void exitPaths() throws Exception {
        for (String how : List.of("uncaught", "SIGTERM", "SIGINT")) {
            for (String format : List.of("collapsed", "txt")) {
                Path file = work.resolve("exit-" + how + "." + format);
                List<String> cmd = List.of(javaHome + "/bin/java",
                        "-agentpath:" + agent + "=start,event=cpu,interval=1ms,file=" + file, "-cp", classes,
                        how.equals("uncaught") ? "Stress" : "Burn7525", how.equals("uncaught") ? "nonsense" : "30",
                        "1");
                Process p = new ProcessBuilder(cmd).directory(work.toFile()).redirectErrorStream(true)
                        .redirectOutput(work.resolve("exit.out").toFile()).start();
                if (!how.equals("uncaught")) {
                    Thread.sleep(1500);
                    new ProcessBuilder("kill", "-" + how.substring(3), String.valueOf(p.pid())).start().waitFor();
                }
                check(p.waitFor(60, TimeUnit.SECONDS), how + ": the JVM did not exit");
                noCrashReports();
                if (format.equals("collapsed")) {
                    long samples = sum(readCollapsed(file));
                    System.out.println("  " + how + ": exit " + p.exitValue() + ", " + samples + " samples");
                } else {
                    String text = Files.readString(file);
                    check(text.contains("Total samples       : ") && text.contains("self (leaf frame)"),
                            how + ": incomplete text report");
                }
            }
        }
    }

    static boolean refused(com.sun.tools.attach.VirtualMachine vm, String options) throws Exception {
        try {
            vm.loadAgentPath(agent, options);
            return false;
        } catch (com.sun.tools.attach.AgentInitializationException e) {
            return true;
        }
    }

    static final String CHAIN = "NativeChain.spin;Java_NativeChain_spin;chain_a;chain_b;chain_c";

    /**
     * A JNI call chain (test/native/jni/chain.c, built with and without frame pointers) under the Java
     * native method. When the mode can walk the build, >= 90% of the phase's samples show the whole chain in
     * order right above the Java method; when it cannot, the Java frames stay right and no frame is garbage.
     */
    static void nativeChain(String build, String cstack, int fullChainPercent) throws Exception {
        Path file = work.resolve("chain-" + build + "-" + cstack + ".collapsed");
        String lib = Path.of(agent).getParent().resolve("libchain_" + build + ".so").toString();
        String mode = cstack.equals("default") ? "" : ",cstack=" + cstack;   // default: no cstack option at all
        Run run = runJava("start,event=cpu,interval=1ms" + mode + ",file=" + file, "NativeChain", lib, "2");
        check(run.exit() == 0, "workload failed: " + run.err());
        Map<String, Long> stacks = readCollapsed(file);
        long phase = 0, full = 0, javaRight = 0, garbage = 0;
        for (var e : stacks.entrySet()) {
            String stack = e.getKey();
            if (!stack.contains("NativeChain.spin")) continue;
            phase += e.getValue();
            if (stack.contains(CHAIN)) full += e.getValue();
            // cstack=vm puts the thread's native root frames (start_thread ... JavaCalls::call_helper) first
            String java = "NativeChain.main;NativeChain.run;NativeChain.spin";
            if (stack.startsWith(java) || stack.contains("JavaCalls::call_helper;" + java)) javaRight += e.getValue();
            // Between the Java native method and the spinning code only the chain may appear. From chain_c, or
            // the clock it reads, leafwards are real callees (the clock, the kernel): not checked.
            String nativePart = stack.substring(stack.indexOf("NativeChain.spin") + "NativeChain.spin".length());
            for (String frame : nativePart.split(";")) {
                if (frame.isEmpty()) continue;
                if (frame.equals("chain_c") || frame.equals("thread_cpu_ns") || frame.startsWith("clock_gettime")) break;
                boolean known = frame.equals("Java_NativeChain_spin") || frame.startsWith("chain_");
                if (!known) {
                    garbage += e.getValue();
                    System.out.println("  unexpected frame '" + frame + "' in " + stack);
                    break;
                }
            }
        }
        System.out.printf("  %s build, cstack=%s: %d phase samples, %d with the full chain (%.1f%%), %d with right Java"
                + " frames, %d with unexpected frames%n", build, cstack, phase, full, 100.0 * full / phase, javaRight,
                garbage);
        check(phase > 300, "too few samples in the native phase: " + phase);
        check(javaRight * 100 >= phase * 99, "Java frames wrong in " + (phase - javaRight) + " samples");
        check(garbage * 100 <= phase, "unexpected frames in " + garbage + " samples");
        check(full * 100 >= phase * fullChainPercent, "full chain in only " + full + " of " + phase);
    }

    /** Java -> java.util.zip.Deflater -> JNI -> zlib: the default mode shows zlib's deflate under the JNI entry. */
    static void deflateIntoZlib() throws Exception {
        Path file = work.resolve("deflate.collapsed");
        Run run = runJava("start,event=cpu,interval=1ms,file=" + file, "DeflateLoop", "2");
        check(run.exit() == 0, "workload failed: " + run.err());
        Map<String, Long> stacks = readCollapsed(file);
        long phase = 0, withZlib = 0;
        for (var e : stacks.entrySet()) {
            if (!e.getKey().contains("java/util/zip/Deflater.deflateBytesBytes")) continue;
            phase += e.getValue();
            if (e.getKey().contains("Deflater.deflateBytesBytes;Java_java_util_zip_Deflater_deflateBytesBytes;deflate"))
                withZlib += e.getValue();
        }
        System.out.printf("  %d samples in Deflater.deflateBytesBytes, %d through zlib's deflate (%.1f%%)%n", phase,
                withZlib, 100.0 * withZlib / phase);
        check(phase > 300, "too few samples in deflate: " + phase);
        check(withZlib * 100 >= phase * 90, "zlib's deflate missing under the JNI entry");
    }

    /** JVM-internal threads get native stacks with demangled HotSpot frames down to the thread's root. */
    static void jvmThreads() throws Exception {
        Path file = work.resolve("jvm-threads.collapsed");
        Run run = runJava("start,event=cpu,interval=1ms,threads,file=" + file, "Stress", "gc", "2");
        check(run.exit() == 0, "workload failed: " + run.err());
        Map<String, Long> stacks = readCollapsed(file);
        long compiler = 0, gc = 0, rooted = 0, internal = 0;
        for (var e : stacks.entrySet()) {
            String k = e.getKey();
            boolean isCompiler = k.startsWith("[C1 Compiler") || k.startsWith("[C2 Compiler");
            boolean isGc = k.startsWith("[GC Thread") || k.startsWith("[G1 ");
            if (!isCompiler && !isGc) continue;
            internal += e.getValue();
            if (isCompiler && k.contains("CompileBroker::compiler_thread_loop")) compiler += e.getValue();
            if (isGc && k.contains("::")) gc += e.getValue();
            if (k.contains(";start_thread;") || k.contains("thread_native_entry")) rooted += e.getValue();
        }
        System.out.printf("  JVM-internal thread samples %d: compiler loop %d, GC with C++ frames %d, reaching the"
                + " thread root %d%n", internal, compiler, gc, rooted);
        check(compiler > 0, "no compiler thread stack with CompileBroker::compiler_thread_loop");
        check(gc > 0, "no GC thread stack with demangled HotSpot frames");
        check(rooted * 10 >= internal * 9, "JVM-internal stacks do not reach the thread root");
    }

    /** timeout=N stops and writes the profile after N seconds while the application keeps running. */
    static void timeout() throws Exception {
        Path file = work.resolve("timeout.txt");
        Run run = runJava("start,event=cpu,interval=1ms,timeout=1,file=" + file, "Burn7525", "3");
        check(run.exit() == 0, "workload failed: " + run.err());
        Matcher m = Pattern.compile("Duration       : ([0-9.]+) s").matcher(Files.readString(file));
        check(m.find(), "no duration in the report");
        double duration = Double.parseDouble(m.group(1));
        System.out.println("  profiled for " + duration + " s");
        check(duration >= 0.9 && duration <= 1.6, "timeout=1 profiled for " + duration + " s");
        check(run.out().contains("TRUTH"), "the application did not finish after the timeout");

        /* async-profiler's time of day: stop at the next HH:MM:SS (3 s ahead when the JVM is started; whole
         * seconds, so the session lasts 2-3 s less the JVM's start-up). */
        String at = java.time.LocalTime.now().plusSeconds(3).truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                .format(java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss"));
        Files.deleteIfExists(file);
        run = runJava("start,event=cpu,interval=1ms,timeout=" + at + ",loglevel=info,file=" + file, "Burn7525", "6");
        check(run.exit() == 0, "workload failed: " + run.err());
        m = Pattern.compile("Duration       : ([0-9.]+) s").matcher(Files.readString(file));
        check(m.find(), "timeout=" + at + ": no duration in the report");
        duration = Double.parseDouble(m.group(1));
        System.out.println("  timeout=" + at + ": profiled for " + duration + " s");
        check(duration >= 0.5 && duration <= 3.6, "timeout=" + at + " profiled for " + duration + " s");
        check(run.err().contains("reached: stopping"), "timeout=" + at + ": no stop logged: " + run.err());
    }

    /** A long interval must not hold the JVM's exit: the agent's background threads (the perf engine's watch,
     *  four intervals; the wall engine's timer, one; loop='s period thread) are stopped at once, not at the end of
     *  their sleep. A 1 s workload exits in a few seconds where the bug held it for a whole sleep (40 s for cpu at
     *  interval=10s): the bound says "no hang", it is not a timing goal. */
    static void longIntervalExit() throws Exception {
        for (String options : List.of("event=cpu,interval=10s", "event=wall,interval=30s",
                "event=cpu,interval=10s,wall=30s,loop=60s")) {
            Path file = work.resolve("long-interval.txt");
            long t0 = System.nanoTime();
            Run run = runJava("start," + options + ",file=" + file, "Burn7525", "1");
            double seconds = (System.nanoTime() - t0) / 1e9;
            System.out.printf("  %s: the JVM ran %.1f s%n", options, seconds);
            check(run.exit() == 0, "workload failed: " + run.err());
            check(run.out().contains("TRUTH"), options + ": the workload did not finish");
            check(Files.readString(file).contains("Duration"), options + ": no report written at exit");
            check(seconds < 8, options + ": the JVM took " + seconds + " s to run a 1 s workload and exit");
        }
    }

    /** loop=1s over 4 s of WallWorkload, in collapsed and JFR files: the periods' files together hold
     *  halfsleeper's whole time (wall samples every 20 ms, sleeping or spinning, against the time the thread
     *  measured itself), as one profile of the run would. Ending a period must not leave time unsampled: a
     *  restart between periods lost the time spent naming and writing each (0.1-0.3 s a period, over a second
     *  for the first with many methods to name): 9-16% of this run. */
    static void loopCoversRun() throws Exception {
        for (String format : List.of("collapsed", "jfr")) {
            Path dir = Files.createDirectories(work.resolve("loop-cover-" + format));
            try (var old = Files.list(dir)) {
                for (Path f : old.toList()) Files.delete(f);
            }
            Run run = runJava("start,event=wall,interval=20ms,loop=1s,file=" + dir + "/p-%n." + format,
                    "WallWorkload", "4");
            check(run.exit() == 0, "workload failed: " + run.err());
            List<Path> files;
            try (var listed = Files.list(dir)) {
                files = listed.sorted().toList();
            }
            long samples = 0;
            if (format.equals("jfr")) {
                // JFR chunks follow each other in one file: the periods' recordings read at once.
                Path all = work.resolve("loop-cover-all.jfr");
                try (var out = Files.newOutputStream(all)) {
                    for (Path f : files) Files.copy(f, out);
                }
                String print = JfrTest.jfr("print", "--events", "profiler.WallClockSample", all.toString());
                Matcher m = Pattern.compile("sampledThread = \"halfsleeper\"").matcher(print);
                while (m.find()) samples++;
            } else {
                for (Path f : files) samples += sumContaining(readCollapsed(f), "WallWorkload.halfSleeper");
            }
            double sampled = samples * 0.020, truth = truth(run.out(), "halfsleeper_ns") / 1e9;
            System.out.printf("  %s, %d files: halfsleeper sampled for %.2f s of its %.2f s (%.0f%%)%n", format,
                    files.size(), sampled, truth, 100 * sampled / truth);
            check(files.size() >= 4, "4 s at loop=1s: at least 4 files, found " + files.size());
            // The truth allows a late round or two.
            check(Math.abs(sampled - truth) <= 0.06 * truth, String.format(
                    "%s: the periods cover %.2f s of halfsleeper's %.2f s: more than 6%% apart", format, sampled, truth));
        }

        /* async-profiler's time of day: loop=*:*:SS ends a period each minute at second SS (3 s ahead when the
         * JVM is started): a first period of 2-3 s less the JVM's start-up, then the rest of the 5 s run. */
        Path dir = Files.createDirectories(work.resolve("loop-clock"));
        try (var old = Files.list(dir)) {
            for (Path f : old.toList()) Files.delete(f);
        }
        int second = java.time.LocalTime.now().plusSeconds(3).getSecond();
        String loop = String.format("*:*:%02d", second);
        Run run = runJava("start,event=cpu,interval=1ms,loop=" + loop + ",file=" + dir + "/p-%n.txt", "Burn7525", "5");
        check(run.exit() == 0, "loop=" + loop + ": workload failed: " + run.err());
        List<Path> files;
        try (var listed = Files.list(dir)) {
            files = listed.sorted().toList();
        }
        check(files.size() == 2, "loop=" + loop + " over a 5 s run: 2 files expected, found " + files);
        Matcher m = Pattern.compile("Duration       : ([0-9.]+) s").matcher(Files.readString(files.get(0)));
        check(m.find(), "loop=" + loop + ": no duration in the first period's report");
        double first = Double.parseDouble(m.group(1));
        System.out.printf("  loop=%s: first period %.2f s%n", loop, first);
        check(first >= 0.5 && first <= 3.6, "loop=" + loop + ": the first period lasted " + first + " s");
    }

    /** loop= when a period's file cannot be written (its directory moved away for 1.5 s, LoopDirGone): that
     *  period is lost with an error naming the file, the JVM and its output are unharmed, the periods after the
     *  directory is back are written (a JFR loop, whose next recording could not be created, starts again), and
     *  the period ends raise no false "signal blocked" warning. */
    static void loopDirGone() throws Exception {
        for (String format : List.of("collapsed", "jfr")) {
            Path dir = work.resolve("loop-gone-" + format), away = work.resolve("loop-gone-" + format + ".away");
            for (Path d : List.of(dir, away)) {
                if (Files.isDirectory(d)) {
                    try (var old = Files.list(d)) {
                        for (Path f : old.toList()) Files.delete(f);
                    }
                    Files.delete(d);
                }
            }
            Files.createDirectories(dir);
            // collapsed files are written at a period's end, JFR recordings moved into place at theirs.
            String first = format.equals("jfr") ? "p-1.jfr" : "p-0.collapsed";
            Run run = runJava("start,event=cpu,interval=10ms,loop=1s,file=" + dir + "/p-%n." + format, "LoopDirGone",
                    dir.toString(), first);
            check(run.exit() == 0 && run.out().contains("done"), "workload failed or lost its output: " + run.out() + run.err());
            check(run.err().contains("cannot") && run.err().contains(dir + "/p-"), "no error naming the lost period's file: "
                    + run.err());
            check(!run.err().contains("samples for"), "a false warning of missing samples: " + run.err());
            List<Integer> written = new ArrayList<>();
            try (var listed = Files.list(dir)) {
                for (Path f : listed.toList()) {
                    Matcher m = Pattern.compile("p-(\\d+)\\." + format).matcher(f.getFileName().toString());
                    if (m.matches()) written.add(Integer.parseInt(m.group(1)));
                    // Anything else must be a recording the agent reported keeping under its temporary name.
                    else check(run.err().contains(f.getFileName().toString()),
                            format + ": a file left in the loop's directory and not reported: " + f.getFileName());
                }
            }
            Collections.sort(written);
            int gap = -1;
            for (int i = 0; i < written.size() && gap < 0; i++) if (written.get(i) != i) gap = i;
            System.out.printf("  %s: periods written %s%n", format, written);
            check(gap > 0, format + ": no period lost while the directory was away: " + written);
            List<Integer> after = written.subList(gap, written.size());
            check(after.size() >= 2, format + ": fewer than 2 periods written after the directory came back: " + written);
            for (int n : after) {
                Path f = dir.resolve("p-" + n + "." + format);
                long spins = format.equals("jfr")
                        ? Pattern.compile("LoopDirGone\\.spin").matcher(JfrTest.jfr("print", "--events",
                                "jdk.ExecutionSample", f.toString())).results().count()
                        : sumContaining(readCollapsed(f), "LoopDirGone.spin");
                check(spins > 0, f + ": no sample of the spinning thread");
            }
        }
    }

    // ---- the perf_events engine ---------------------------------------------------------------------

    /** Samples whose stack holds a frame ending in 'suffix'. */
    static long sumWithSuffix(Map<String, Long> stacks, String suffix) {
        long n = 0;
        for (var e : stacks.entrySet()) {
            if (List.of(e.getKey().split(";")).stream().anyMatch(f -> f.endsWith(suffix))) n += e.getValue();
        }
        return n;
    }

    /** event=cpu picks perf when the kernel allows it: right shares at 1 ms, and a true 1 ms period (about
     *  1000 samples per CPU-second, where the tick-bound ctimer gives the kernel's HZ). */
    /** 'features': "" (F_SETSIG delivery, the default) or ",features=sigtrap" (SIGTRAP's where the kernel allows
     *  it), checked in the log. */
    static void sharesPerf(String features) throws Exception {
        Path file = work.resolve("shares-perf.collapsed");
        Run run = runJava("start,event=cpu,interval=1ms,loglevel=info,file=" + file + features, "Burn7525", "4");
        check(run.exit() == 0, "workload failed: " + run.err());
        checkDelivery(run, features);
        check(run.err().contains("event=cpu: using the perf engine"), "perf not chosen for event=cpu: " + run.err());
        Map<String, Long> stacks = readCollapsed(file);
        long a = sumContaining(stacks, "Burn7525.burnA"), b = sumContaining(stacks, "Burn7525.burnB");
        long main = sumContaining(stacks, "Burn7525.main"), total = sum(stacks), failed = failureSamples(stacks);
        double share = (double) a / (a + b), truth = truth(run.out(), "burnA");
        double rate = main / (truth(run.out(), "threadCpuNs") / 1e9);
        System.out.printf("  perf: burnA %d, burnB %d, all %d samples; share %.4f vs truth %.4f; %.0f samples per "
                + "CPU-second of the workload thread; failures %d%n", a, b, total, share, truth, rate, failed);
        check(Math.abs(share - truth) <= 0.05, String.format("burnA share %.4f differs from truth %.4f", share, truth));
        check(rate >= 700 && rate <= 1300, String.format("%.0f samples per CPU-second at interval=1ms", rate));
        check(failed * 100 < total, "failure markers on " + failed + " of " + total + " samples");
        // Threads the JVM never reports (JIT compilers, GC workers) are armed from /proc/self/task at start.
        // JVM-internal threads show their native stacks (or a marker when they cannot be walked).
        long nonJava = stacks.entrySet().stream()
                .filter(e -> e.getKey().contains("[non_Java_thread]") || e.getKey().contains("thread_native_entry"))
                .mapToLong(Map.Entry::getValue).sum();
        System.out.println("  samples of non-Java threads: " + nonJava);
        check(nonJava > 0, "no samples of JVM-internal threads");
    }

    /** perf_event_open refused (test-only switch): event=cpu falls back to ctimer and says why; event=cpu-clock,
     *  which only perf can serve, refuses to start with the reason. */
    static void perfFallback() throws Exception {
        Map<String, String> deny = Map.of("LIBPROF_TEST_DENY_PERF", "1");
        Path file = work.resolve("fallback.collapsed");
        Run run = runJavaWithEnv(deny, "start,event=cpu,interval=1ms,file=" + file, "Burn7525", "1");
        check(run.exit() == 0, "workload failed: " + run.err());
        // By default the application's stderr gets one warning line: the reason and the engine chosen.
        List<String> lines = run.err().lines().filter(l -> l.startsWith("[libprof]")).toList();
        check(lines.size() == 1 && lines.get(0).startsWith("[libprof] WARN: event=cpu: perf engine unavailable: "
                + "perf_event_open refused") && lines.get(0).contains("LIBPROF_TEST_DENY_PERF")
                && lines.get(0).endsWith("; using the ctimer engine"), "not one warning naming the reason: " + run.err());
        Map<String, Long> stacks = readCollapsed(file);
        long burn = sumContaining(stacks, "Burn7525.main");
        check(burn > 150, "the ctimer fallback profiled only " + burn + " samples of the workload");
        check(sumWithSuffix(stacks, "_[k]") == 0 && !String.join("", stacks.keySet()).contains("[kernel"),
                "kernel frames without perf");
        run = runJavaWithEnv(deny, "start,event=cpu-clock,file=" + work.resolve("none.collapsed"), "Burn7525", "0.1");
        check(run.exit() != 0, "event=cpu-clock started without perf_events");
        check(run.err().contains("cpu-clock") && run.err().contains("perf_event_open refused"),
                "the refusal does not say why: " + run.err());
    }

    /** Whether this kernel offers features=sigtrap: Linux 6.15 or later (engine_perf.c, sigtrap_refusal). */
    static boolean sigtrapKernel() {
        Matcher v = Pattern.compile("^(\\d+)\\.(\\d+)").matcher(System.getProperty("os.version"));
        return v.find() && Integer.parseInt(v.group(1)) * 1000 + Integer.parseInt(v.group(2)) >= 6015;
    }

    /** The perf engine's signal as the log says it: F_SETSIG's by default, SIGTRAP with features=sigtrap on Linux
     *  6.15 or later (before, features=sigtrap is refused with a warning). */
    static void checkDelivery(Run run, String features) {
        if (features.contains("features=sigtrap") && !sigtrapKernel())
            check(run.err().contains("features=sigtrap not used: needs Linux 6.15"), "no refusal on " +
                    System.getProperty("os.version") + ": " + run.err());
        boolean sigtrap = sigtrapKernel() && features.contains("features=sigtrap");
        check(run.err().contains(sigtrap ? "SIGTRAP from the event (sigtrap)" : "by F_SETSIG"),
                "the perf engine's signal is not " + (sigtrap ? "SIGTRAP" : "F_SETSIG's") + ": " + run.err());
    }

    /** A workload living in system calls shows kernel frames, annotated _[k], leaf-side of its Java frames. */
    static void kernelFrames(String features) throws Exception {
        Path file = work.resolve("kernel.collapsed");
        Run run = runJava("start,event=cpu,interval=1ms,ann,loglevel=info,file=" + file + features, "SyscallLoop", "1.5");
        checkDelivery(run, features);
        check(run.exit() == 0, "workload failed: " + run.err());
        check(run.err().contains("using the perf engine"), "perf not chosen: " + run.err());
        Map<String, Long> stacks = readCollapsed(file);
        long loop = 0, withKernel = 0;
        for (var e : stacks.entrySet()) {
            List<String> frames = List.of(e.getKey().split(";"));
            int firstKernel = -1;
            for (int i = 0; i < frames.size(); i++) {
                boolean kernel = frames.get(i).endsWith("_[k]");
                if (kernel && firstKernel < 0) firstKernel = i;
                check(kernel || firstKernel < 0, "a frame above the kernel frames: " + e.getKey());
            }
            if (!frames.contains("SyscallLoop.writeLoop_[j]")) continue;
            loop += e.getValue();
            if (firstKernel >= 0) withKernel += e.getValue();
        }
        System.out.printf("  writeLoop: %d samples, %d with kernel frames (%.1f%%)%n", loop, withKernel,
                100.0 * withKernel / Math.max(1, loop));
        check(loop > 300, "too few samples in writeLoop: " + loop);
        check(withKernel * 100 >= 30 * loop, "kernel frames on only " + withKernel + " of " + loop + " samples");
    }

    /** alluser: no kernel frames, the workload still profiled. */
    static void allUser() throws Exception {
        Path file = work.resolve("alluser.collapsed");
        Run run = runJava("start,event=cpu,interval=1ms,ann,alluser,loglevel=info,file=" + file, "SyscallLoop", "1.5");
        check(run.exit() == 0, "workload failed: " + run.err());
        check(run.err().contains("user space only"), "alluser not reported: " + run.err());
        Map<String, Long> stacks = readCollapsed(file);
        long loop = sumContaining(stacks, "SyscallLoop.writeLoop_[j]"), kernel = sumWithSuffix(stacks, "_[k]");
        System.out.printf("  alluser: writeLoop %d samples, %d with kernel frames%n", loop, kernel);
        check(loop > 150, "too few samples in writeLoop: " + loop);
        check(kernel == 0, kernel + " samples with kernel frames despite alluser");
    }

    /** 500 threads started and ended while profiling with perf: they are sampled, and every descriptor the
     *  engine opened for them is closed again. */
    static void perfThreadChurn() throws Exception {
        Path file = work.resolve("churn.collapsed");
        Run run = runJava("start,event=cpu,interval=1ms,loglevel=info,file=" + file, "ThreadChurn", "500", "50");
        check(run.exit() == 0, "workload failed: " + run.err());
        check(run.err().contains("using the perf engine"), "perf not chosen: " + run.err());
        Matcher m = Pattern.compile("FDS before=(\\d+) peak=(\\d+) after=(\\d+)").matcher(run.out());
        check(m.find(), "no descriptor counts: " + run.out());
        int before = Integer.parseInt(m.group(1)), after = Integer.parseInt(m.group(3));
        Map<String, Long> stacks = readCollapsed(file);
        long work = sumContaining(stacks, "ThreadChurn.work");
        System.out.printf("  descriptors before %d, peak %s, after %d; work samples %d%n", before, m.group(2), after, work);
        check(after - before <= 3, "descriptors grew from " + before + " to " + after + " over 500 threads");
        check(work > 200, "the short threads were barely sampled: " + work);
    }

    /** A low descriptor limit: the engine leaves threads unsampled rather than take the application's
     *  descriptors, says so, and counts them; the application never runs out. */
    static void perfFdLimit() throws Exception {
        Path file = work.resolve("fdlimit.collapsed");
        // The JVM raises its soft limit to the hard one unless told not to.
        Run run = runJavaVia(List.of("prlimit", "--nofile=80:80"), Map.of(),
                "start,event=cpu,interval=1ms,file=" + file, "-XX:-MaxFDLimit", "ThreadChurn", "200", "50");
        check(run.exit() == 0, "workload failed: " + run.err());
        Matcher m = Pattern.compile("FDS before=(\\d+) peak=(\\d+) after=(\\d+)").matcher(run.out());
        check(m.find(), "no descriptor counts: " + run.out());
        int before = Integer.parseInt(m.group(1)), peak = Integer.parseInt(m.group(2)), after = Integer.parseInt(m.group(3));
        Matcher skipped = Pattern.compile("(\\d+) not sampled for the descriptor limit").matcher(run.err());
        check(skipped.find(), "no count of threads left unsampled: " + run.err());
        System.out.printf("  limit 80: descriptors before %d, peak %d, after %d; %s threads not sampled%n", before, peak,
                after, skipped.group(1));
        check(run.err().contains("WARN: perf: thread") && Long.parseLong(skipped.group(1)) > 0,
                "the descriptor limit was not reported: " + run.err());
        check(peak <= 60, "the process came within " + (80 - peak) + " descriptors of its limit");
        check(after - before <= 3, "descriptors grew from " + before + " to " + after);
        check(sumContaining(readCollapsed(file), "ThreadChurn.work") > 0, "no thread was sampled at all");
    }

    /** A kernel that allows user-space sampling only (perf_event_paranoid=2, simulated by the test-only switch):
     *  perf is still chosen, says so, and records no kernel frames. */
    static void perfKernelRefused() throws Exception {
        Path file = work.resolve("nokernel.collapsed");
        Run run = runJavaWithEnv(Map.of("LIBPROF_TEST_DENY_PERF", "kernel"), "start,event=cpu,interval=1ms,ann,loglevel=info,file=" + file,
                "SyscallLoop", "1");
        check(run.exit() == 0, "workload failed: " + run.err());
        check(run.err().contains("event=cpu: using the perf engine"), "perf not chosen: " + run.err());
        check(run.err().contains("kernel frames not allowed here"), "the refusal of kernel frames is not logged: " + run.err());
        Map<String, Long> stacks = readCollapsed(file);
        check(sumContaining(stacks, "SyscallLoop.writeLoop_[j]") > 100, "too few samples in writeLoop");
        check(sumWithSuffix(stacks, "_[k]") == 0, "kernel frames although the kernel refused them");
    }

    /** A counted perf event: event=page-faults samples every 100th fault, each sample weighs 100 events, and
     *  the faults are found where the workload zeroes fresh memory. */
    static void perfPageFaults() throws Exception {
        Path file = work.resolve("faults.txt");
        Run run = runJava("start,event=page-faults,interval=100,total,file=" + file, "FaultLoop", "400");
        check(run.exit() == 0, "workload failed: " + run.err());
        String text = Files.readString(file);
        check(text.contains("Engine         : perf (event=page-faults)"), "engine line: " + text);
        check(text.contains("Interval       : 100 events"), "the interval is not a count of events: " + text);
        Matcher samples = Pattern.compile("Total samples       : (\\d+)").matcher(text);
        Matcher weight = Pattern.compile("Total weight   : (\\d+) events").matcher(text);
        check(samples.find() && weight.find(), "no sample count or weight in events: " + text);
        long n = Long.parseLong(samples.group(1)), w = Long.parseLong(weight.group(1));
        Matcher top = Pattern.compile("--- (\\d+) events \\(([0-9.]+)%\\), \\d+ samples\n((?:  \\[.*\n)+)").matcher(text);
        check(top.find(), "no trace section: " + text);
        System.out.printf("  page-faults: %d samples weighing %d events; hottest trace %s%% of the events%n", n, w, top.group(2));
        check(n >= 100, "only " + n + " samples of page faults");
        check(w == 100 * n, "each sample should weigh 100 events: " + w + " for " + n);
        check(top.group(3).contains("FaultLoop.allocate") && Double.parseDouble(top.group(2)) > 50,
                "the hottest trace is not the allocation loop: " + top.group(0));
    }

    /** A time event counts on by itself (no re-arming per sample), until a handler outlasts the period: then its
     *  thread turns one-shot, so the next period starts only when the handler is done. With every handler made to
     *  take 1.5 ms at interval=1ms (test-only switch), a thread left counting on would run its handler back to
     *  back and its Java code almost never (the workload would not finish); one-shot gives it 1 ms of its own
     *  per 1.5 ms handler: about 400 samples per CPU-second of the thread, handler included. A thread whose
     *  handlers are fast again counts on again. */
    static void perfSlowHandler(String features) throws Exception {
        Path fast = work.resolve("fast.collapsed"), slow = work.resolve("slow.collapsed");
        Run normal = runJava("start,event=cpu,interval=1ms,loglevel=info,file=" + fast + features, "Burn7525", "1");
        check(normal.exit() == 0, "workload failed: " + normal.err());
        checkDelivery(normal, features);
        check(normal.err().contains("counting on (one-shot where a handler outlasts a period)"),
                "the arming mode is not logged: " + normal.err());
        Run run = runJavaWithEnv(Map.of("LIBPROF_TEST_SLOW_HANDLER", "1500"),
                "start,event=cpu,interval=1ms,loglevel=info,file=" + slow + features, "Burn7525", "2");
        check(run.exit() == 0, "workload failed: " + run.err());
        Matcher turned = Pattern.compile("perf: (\\d+) turns of a thread to one-shot.*?(\\d+) returns to counting on")
                .matcher(run.err());
        check(turned.find() && Integer.parseInt(turned.group(1)) >= 1, "no thread turned one-shot: " + run.err());
        check(turned.group(2).equals("0"), "a thread whose handlers are all slow returned to counting on: " + run.err());
        long main = sumContaining(readCollapsed(slow), "Burn7525.main");
        double rate = main / (truth(run.out(), "threadCpuNs") / 1e9);
        long mainFast = sumContaining(readCollapsed(fast), "Burn7525.main");
        double rateFast = mainFast / (truth(normal.out(), "threadCpuNs") / 1e9);
        System.out.printf("  %s turns to one-shot; workload thread: %.0f samples per CPU-second with 1.5 ms "
                + "handlers (one-shot: ~400), %.0f with normal ones (~1000)%n", turned.group(1), rate, rateFast);
        check(rate >= 250 && rate <= 550, String.format("%.0f samples per CPU-second with 1.5 ms handlers", rate));
        check(rateFast >= 700 && rateFast <= 1300, String.format("%.0f samples per CPU-second", rateFast));

        // Only each thread's first 5 handlers slow: the workload thread turns one-shot, then has fast handlers,
        // and after 32 of them in a row counts on again. Counting on, its handlers re-arm nothing: the re-arms
        // by handlers stay far below its ~2000 samples (one-shot for good, they would be about as many).
        Path once = work.resolve("once.collapsed");
        Run recovered = runJavaWithEnv(Map.of("LIBPROF_TEST_SLOW_HANDLER", "1500,5"),
                "start,event=cpu,interval=1ms,loglevel=info,file=" + once, "Burn7525", "2");
        check(recovered.exit() == 0, "workload failed: " + recovered.err());
        Matcher back = Pattern.compile("perf: (\\d+) turns of a thread to one-shot.*?(\\d+) returns to counting on.*?"
                + "(\\d+) re-arms by handlers").matcher(recovered.err());
        check(back.find() && Integer.parseInt(back.group(1)) >= 1 && Integer.parseInt(back.group(2)) >= 1,
                "no thread turned one-shot and back after 5 slow handlers each: " + recovered.err());
        long mainOnce = sumContaining(readCollapsed(once), "Burn7525.main");
        double rateOnce = mainOnce / (truth(recovered.out(), "threadCpuNs") / 1e9);
        long rearms = Long.parseLong(back.group(3));
        System.out.printf("  each thread's first 5 handlers slow: %s turns to one-shot, %s returns to counting on, %d "
                + "re-arms by handlers; workload thread: %d samples, %.0f per CPU-second%n", back.group(1), back.group(2),
                rearms, mainOnce, rateOnce);
        check(rateOnce >= 700 && rateOnce <= 1300, String.format("%.0f samples per CPU-second after 5 slow handlers", rateOnce));
        check(rearms < mainOnce / 4, rearms + " re-arms by handlers for " + mainOnce + " samples of the workload thread: "
                + "it did not count on again");
    }
}
