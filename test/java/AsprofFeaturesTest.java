import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Features async-profiler's users rely on, checked on what libprof writes: allocation stacks with their
 * native frames. On the helpers of IntegrationTest. Usage (from ctest):
 *   java AsprofFeaturesTest <test> <java_home> <libprof.so> <classes> <work dir>
 */
public class AsprofFeaturesTest extends IntegrationTest {
    public static void main(String[] args) throws Exception {
        runMain(args, test -> {
            switch (test) {
                case "alloc_mixed_fp" -> allocMixed("fp");
                case "alloc_mixed_vm" -> allocMixed("vm");
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
}
