import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Features async-profiler's users rely on, checked on what libprof writes (the JDK's jfr tool reads the
 * recordings): allocation stacks with their native frames; all with an instrumented method; ratelimit=; proc=. On the helpers of IntegrationTest. Usage (from ctest):
 *   java AsprofFeaturesTest <test> <java_home> <libprof.so> <classes> <work dir>
 */
public class AsprofFeaturesTest extends IntegrationTest {
    public static void main(String[] args) throws Exception {
        runMain(args, test -> {
            switch (test) {
                case "alloc_mixed_fp" -> allocMixed("fp");
                case "alloc_mixed_vm" -> allocMixed("vm");
                case "all_with_method" -> allWithMethod();
                case "ratelimit" -> rateLimit();
                case "proc" -> proc();
                case "alloc_second_copy" -> allocSecondCopy();
                default -> throw new IllegalArgumentException("unknown test " + test);
            }
        });
    }

    /** Samples of the stacks in which the frames of 'path' ("a;b") follow each other. */
    static long sumPath(Map<String, Long> stacks, String path) {
        long n = 0;
        for (var e : stacks.entrySet()) {
            if ((";" + e.getKey() + ";").contains(";" + path + ";")) n += e.getValue();
        }
        return n;
    }

    /** Allocation stacks are mixed like CPU ones: every sample of the main thread's 2000 arrays (alloc=1,
     * no TLAB) has the Java frame that allocated right under its class and the launcher's native frames at
     * its root; the JVM allocating for itself at start-up shows under JNI_CreateJavaVM; the JVM's own
     * allocation path (the sampler's posting, the allocator) is in no stack. */
    static void allocMixed(String cstack) throws Exception {
        Path out = work.resolve("alloc-" + cstack + ".collapsed");
        Run run = runJava("start,event=alloc,alloc=1,cstack=" + cstack + ",file=" + out, "-XX:-UseTLAB",
                "AllocLockWorkload", "startup", "2000");
        check(run.exit() == 0 && run.out().contains("TRUTH"), "workload failed: " + run.err());
        Map<String, Long> stacks = readCollapsed(out);
        long site = sumPath(stacks, "AllocLockWorkload.startup;AllocLockWorkload.startupSite;int[]");
        long mixedSite = sumPath(stacks, "jni_CallStaticVoidMethod;jni_invoke_static;JavaCalls::call_helper;"
                + "AllocLockWorkload.main;AllocLockWorkload.startup;AllocLockWorkload.startupSite;int[]");
        long startup = 0, allocator = 0, markers = failureSamples(stacks);
        for (var e : stacks.entrySet()) {
            List<String> frames = List.of(e.getKey().split(";"));
            if (frames.get(0).equals("start_thread") || frames.get(0).equals("clone3") || frames.get(0).equals("clone"))
                if (frames.contains("JNI_CreateJavaVM")) startup += e.getValue();
            for (String f : frames)
                if (f.startsWith("MemAllocator::") || f.startsWith("JvmtiExport::")) allocator += e.getValue();
        }
        System.out.println("cstack=" + cstack + ": " + site + " samples at the site (truth 2000), " + mixedSite
                + " of them under the launcher's native frames; " + startup + " under JNI_CreateJavaVM from the thread's root; "
                + allocator + " with the allocator's frames; " + markers + " with a failure marker");
        check(site >= 1900 && site <= 2100, "cstack=" + cstack + ": " + site + " samples of the 2000 arrays");
        /* Stitching modes (fp) walk the native frames above the Java ones only, as for CPU samples. */
        if (cstack.equals("vm"))
            check(mixedSite == site, "cstack=vm: " + (site - mixedSite) + " samples of the site lack the native root");
        check(markers == 0, "cstack=" + cstack + ": " + markers + " samples end in a failure marker");
        check(startup > 0, "cstack=" + cstack + ": no allocation under JNI_CreateJavaVM");
        check(allocator == 0, "cstack=" + cstack + ": the allocator's own frames are in " + allocator + " samples");
    }

    /** The count of 'event' in the output of `jfr summary`. */
    static long events(String summary, String event) {
        var m = Pattern.compile("(?m)^\\s*" + Pattern.quote(event) + "\\s+(\\d+)").matcher(summary);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    /** start,all,event=<method>: the method's calls are the execution samples (every call, interval 1, and no
     * CPU sample besides them), and every other event of all is recorded beside them. */
    static void allWithMethod() throws Exception {
        Path rec = work.resolve("all-method.jfr");
        Run run = runJava("start,all,event=AllWithMethod.counted,alloc=262143,file=" + rec, "AllWithMethod");
        check(run.exit() == 0 && run.out().contains("TRUTH calls=500"), "the workload failed: " + run.err());
        String summary = JfrTest.jfr("summary", rec.toString());
        long samples = events(summary, "jdk.ExecutionSample");
        String print = JfrTest.jfr("print", "--stack-depth", "2", "--events", "jdk.ExecutionSample", rec.toString());
        long atMethod = Pattern.compile("AllWithMethod\\.counted\\(").matcher(print).results().count();
        System.out.println("all,event=method: " + samples + " execution samples, " + atMethod
                + " in AllWithMethod.counted (truth: 500 calls)");
        check(atMethod == samples, "all,event=method: " + (samples - atMethod) + " execution samples outside the method");
        check(samples >= 490 && samples <= 500, "all,event=method: " + samples + " samples of 500 calls");
        for (String event : List.of("profiler.WallClockSample", "jdk.ObjectAllocationInNewTLAB", "profiler.LiveObject",
                "jdk.JavaMonitorEnter", "profiler.Malloc"))
            check(events(summary, event) > 0, "all,event=method: no " + event + " in the recording: " + summary);
    }

    /** ratelimit=cpu:10;alloc:100 on a flood of both (a thread allocating as fast as it can, sampled every KiB,
     * and CPU samples every ms): each category's events stay within its budget, a second's limit at start and
     * once more each second (with at most one second's carried over), and reach at least the first second's
     * budget (the refills that follow come from a thread that may be late under load). The same run without the
     * limit records more than the limit could let through (so the limit is what cuts), even under load (a
     * thread sampled every ms gets some 60 samples a second then). */
    static void rateLimit() throws Exception {
        Path free = work.resolve("unlimited.jfr"), limited = work.resolve("limited.jfr");
        String options = "start,event=cpu,interval=1ms,alloc=1k,file=";
        Run run = runJava(options + free, "AllocLockWorkload", "alloc", "2");
        check(run.exit() == 0 && run.out().contains("TRUTH"), "the workload failed: " + run.err());
        String summary = JfrTest.jfr("summary", free.toString());
        long cpuFree = events(summary, "jdk.ExecutionSample"), allocFree = events(summary, "jdk.ObjectAllocationInNewTLAB")
                + events(summary, "jdk.ObjectAllocationOutsideTLAB");
        long began = System.nanoTime();
        run = runJava(options + limited + ",ratelimit=cpu:10;alloc:100", "AllocLockWorkload", "alloc", "2");
        double seconds = (System.nanoTime() - began) / 1e9;
        check(run.exit() == 0 && run.out().contains("TRUTH"), "the workload failed: " + run.err());
        summary = JfrTest.jfr("summary", limited.toString());
        long cpu = events(summary, "jdk.ExecutionSample"), alloc = events(summary, "jdk.ObjectAllocationInNewTLAB")
                + events(summary, "jdk.ObjectAllocationOutsideTLAB");
        long refills = (long) Math.ceil(seconds);
        System.out.printf("ratelimit: cpu %d (without: %d), alloc %d (without: %d) in a %.1f s run%n", cpu, cpuFree,
                alloc, allocFree, seconds);
        check(cpuFree > 10 * (refills + 2) && allocFree > 100 * (refills + 2),
                "the flood is too thin to show a limit: cpu " + cpuFree + ", alloc " + allocFree);
        check(cpu <= 10 * (refills + 2) && cpu >= 10, "ratelimit cpu:10: " + cpu + " samples in " + seconds + " s");
        check(alloc <= 100 * (refills + 2) && alloc >= 100, "ratelimit alloc:100: " + alloc + " samples in " + seconds + " s");
    }

    /** A field of one event block of `jfr print` ("  name = value"), as text. */
    static String field(String block, String name) {
        var m = Pattern.compile("(?m)^\\s*" + Pattern.quote(name) + " = (.*)$").matcher(block);
        check(m.find(), "no field " + name + " in " + block);
        return m.group(1).strip();
    }

    /** proc=1: the JVM's own process (told by its command line, which names its recording), which burns one
     * thread for 1.5 s of CPU and measures its CPU time itself, is in the recording once a round after the
     * first (at least one, at most one a second it ran), with a CPU time that grows and never exceeds what it
     * measured, a CPU rate it can reach, its threads and memory; without a JFR output proc is refused. */
    static void proc() throws Exception {
        Path rec = work.resolve("proc.jfr");
        long began = System.nanoTime();
        Run run = runJava("start,proc=1,file=" + rec, "Burn7525", "1.5");
        double seconds = (System.nanoTime() - began) / 1e9;   /* 1.5 s of CPU: longer under load */
        check(run.exit() == 0 && run.out().contains("TRUTH"), "the workload failed: " + run.err());
        double processCpu = truth(run.out(), "processCpuNs") / 1e9;
        String print = JfrTest.jfr("print", "--events", "profiler.ProcessSample", rec.toString());
        List<String> own = new ArrayList<>();
        for (String block : print.split("profiler.ProcessSample \\{"))
            if (block.contains("cmdLine = ") && field(block, "cmdLine").contains(rec.toString())) own.add(block);
        System.out.println("proc: " + own.size() + " samples of the JVM's process in " + seconds + " s (truth: CPU "
                + processCpu + " s)");
        check(own.size() >= 1 && own.size() <= Math.ceil(seconds), "proc=1: " + own.size() + " samples of a " + seconds
                + " s process");
        double last = 0;
        int cpus = Runtime.getRuntime().availableProcessors();
        for (String block : own) {
            double cpu = Double.parseDouble(field(block, "cpuUser")) + Double.parseDouble(field(block, "cpuSystem"));
            double rate = Double.parseDouble(field(block, "cpuPercent").replace("%", "")) / 100;
            System.out.println("  cpu " + cpu + " s, rate " + rate + ", threads " + field(block, "threads") + ", rss "
                    + field(block, "vmRss"));
            check(cpu >= last && cpu <= processCpu + 0.05, "proc: CPU time " + cpu + " s (before " + last
                    + ", the process measured " + processCpu + ")");
            check(rate >= 0.05 && rate <= cpus + 0.1, "proc: a CPU rate of " + rate + " on " + cpus + " CPUs");
            check(Integer.parseInt(field(block, "threads")) >= 2, "proc: threads " + field(block, "threads"));
            check(!field(block, "vmRss").startsWith("0 "), "proc: no resident memory");
            last = cpu;
        }
        run = runJava("start,proc=1,file=" + work.resolve("proc.collapsed"), "Burn7525", "0.1");
        check(run.exit() != 0 && run.err().contains("Process sampling requires JFR output format"),
                "proc without JFR output was not refused: " + run.err());
    }

    /** jprof -d 2 -e alloc -o collapsed -f 'out' [--libpath 'lib'] 'pid': its output. */
    static String jprofAlloc(long pid, Path out, String lib) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(CompatTest.jprof(), "-d", "2", "-e", "alloc", "-o", "collapsed", "-f",
                out.toString()));
        if (lib != null) cmd.addAll(List.of("--libpath", lib));
        cmd.add(String.valueOf(pid));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes());
        check(p.waitFor(60, TimeUnit.SECONDS), "jprof did not return");
        check(p.exitValue() == 0, "jprof " + cmd + " failed: " + said);
        return said;
    }

    /** Allocation profiling by a second copy of the library attached after the first's session ended: the JVM
     * gives allocation sampling to one JVMTI agent at a time, so the first must give it back when it stops. Both
     * sessions see the workload's byte[] allocations. */
    static void allocSecondCopy() throws Exception {
        Path copy = work.resolve("libprof-copy.so");
        Files.copy(Path.of(agent), copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Process jvm = new ProcessBuilder(javaHome + "/bin/java", "-cp", classes, "AllocLockWorkload", "alloc", "20")
                .directory(work.toFile()).redirectOutput(work.resolve("workload.out").toFile())
                .redirectError(work.resolve("workload.err").toFile()).start();
        try {
            Path first = work.resolve("first.collapsed"), second = work.resolve("second.collapsed");
            jprofAlloc(jvm.pid(), first, null);
            jprofAlloc(jvm.pid(), second, copy.toString());
            long a = sumContaining(readCollapsed(first), "byte[]"), b = sumContaining(readCollapsed(second), "byte[]");
            System.out.println("alloc: " + a + " byte[] samples by the first copy, " + b + " by the second");
            check(a > 0 && b > 0, "alloc by a second copy of the library: " + a + " then " + b + " byte[] samples");
        } finally {
            jvm.destroy();
            jvm.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
