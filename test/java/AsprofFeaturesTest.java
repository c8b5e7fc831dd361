import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Features async-profiler's users rely on, checked on what libprof writes (the JDK's jfr tool reads the
 * recordings): allocation stacks with their native frames; all with an instrumented method. On the helpers of IntegrationTest. Usage (from ctest):
 *   java AsprofFeaturesTest <test> <java_home> <libprof.so> <classes> <work dir>
 */
public class AsprofFeaturesTest extends IntegrationTest {
    public static void main(String[] args) throws Exception {
        runMain(args, test -> {
            switch (test) {
                case "alloc_mixed_fp" -> allocMixed("fp");
                case "alloc_mixed_vm" -> allocMixed("vm");
                case "all_with_method" -> allWithMethod();
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
}
