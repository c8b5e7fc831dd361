import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The profiled JVM against hostile or unlucky neighbours, on the helpers of IntegrationTest:
 * - crash_reporter_<way>: a native crash reporter that treats SIGTRAP as fatal takes SIGTRAP while the default
 *   configuration profiles (way: load, dlopen, dlsym, raw; CrashReporter.java): the JVM completes and writes
 *   its profile.
 * - fifo_other_user: the output's name is a FIFO of another user (nobody) in a shared sticky directory, with
 *   that user reading it: refused with a message, nothing reaches that user, the JVM completes;
 * - fifo_stalled_reader: the output is a FIFO of ours whose reader holds it open and reads nothing: the JVM
 *   still exits within a short bound and says the profile was dropped.
 * - nativemem_deepbind: under nativemem and nativelock, two libraries loaded with RTLD_DEEPBIND beside their own
 *   allocator (DeepBindAlloc.java), one with malloc already bound there when the hooks look at it, one with
 *   every slot still lazy: their allocator families are left whole (and counted), so no pointer of theirs
 *   reaches the C library's realloc or free; the JVM completes and writes its profile.
 * Usage (from ctest): java SafetyTest <test> <java_home> <libprof.so> <workload classpath> <work dir>
 */
public class SafetyTest extends IntegrationTest {
    public static void main(String[] args) throws Exception {
        runMain(args, test -> {
            Matcher m = Pattern.compile("crash_reporter_(load|dlopen|dlsym|raw)").matcher(test);
            if (m.matches()) crashReporter(m.group(1));
            else if (test.equals("fifo_other_user")) fifoOtherUser();
            else if (test.equals("fifo_stalled_reader")) fifoStalledReader();
            else if (test.equals("nativemem_deepbind")) nativememDeepbind();
            else throw new IllegalArgumentException("unknown test " + test);
        });
    }

    static String lib(String name) {
        return Path.of(agent).getParent().resolve(name).toString();
    }

    /** The default event=cpu (the perf engine wherever the kernel allows it) at 1 ms, a crash reporter taking
     *  SIGTRAP half a second in: exit 0, the profile written, samples of the burn after the reporter came. */
    static void crashReporter(String way) throws Exception {
        Path file = work.resolve("crash-reporter-" + way + ".collapsed");
        Run run = runJavaWithEnv(Map.of(), "start,event=cpu,interval=1ms,loglevel=info,file=" + file, "CrashReporter",
                lib("libcrash_reporter.so"), lib("libcrash_reporter_ctor.so"), way, "2");
        check(!run.err().contains("crash_reporter: fatal SIGTRAP"), "the crash reporter received a SIGTRAP of ours: "
                + run.err());
        check(run.exit() == 0 && run.out().contains("TAKEN " + way) && run.out().contains("survived"),
                "the JVM did not complete (exit " + run.exit() + "): " + run.out() + run.err());
        long burn = sumContaining(readCollapsed(file), "CrashReporter.burn");
        double cpuMs = Long.parseLong(run.out().replaceAll("(?s).*survived burn_cpu_ns=(\\d+).*", "$1")) / 1e6;
        System.out.printf("  CrashReporter.burn samples: %d; %.0f ms of CPU burnt after the crash reporter came%n",
                burn, cpuMs);
        // At 1 ms, the burn after the reporter alone is worth cpuMs samples (the half second before adds more).
        check(burn > cpuMs / 2, "too few samples of the workload: " + burn + " for " + cpuMs + " ms of CPU");
    }

    static void sh(String command) throws Exception {
        Process p = new ProcessBuilder("bash", "-c", command).inheritIO().start();
        check(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, "failed: " + command);
    }

    /** A fresh directory under the work directory, world-writable and sticky like /tmp. */
    static Path sharedDir() throws Exception {
        Path shared = work.resolve("shared");
        sh("rm -rf '" + shared + "' && mkdir -m 1777 '" + shared + "'");
        return shared;
    }

    static void fifoOtherUser() throws Exception {
        Path fifo = sharedDir().resolve("profile.collapsed"), got = work.resolve("nobody-read.txt");
        sh("mkfifo -m 666 '" + fifo + "' && chown 65534:65534 '" + fifo + "'");
        Process reader = new ProcessBuilder("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "cat",
                fifo.toString()).redirectOutput(got.toFile()).redirectErrorStream(true).start();
        try {
            Run run = runJava("start,event=cpu,interval=1ms,file=" + fifo, "Burn7525", "1");
            check(run.exit() == 0, "the JVM did not complete: " + run.err());
            check(run.err().contains("is a FIFO of another user (uid 65534"), "not refused with a message: " + run.err());
        } finally {
            reader.destroyForcibly();
            reader.waitFor();
        }
        String read = Files.readString(got);
        check(!read.contains("Burn7525"), "the other user read the profile: " + read.length() + " bytes");
    }

    static void fifoStalledReader() throws Exception {
        Path fifo = work.resolve("stalled.html");
        sh("rm -f '" + fifo + "' && mkfifo -m 600 '" + fifo + "'");
        /* Held open for reading and writing, and never read: a reader that stopped. */
        Process holder = new ProcessBuilder("bash", "-c", "exec sleep 300 <> '" + fifo + "'").start();
        try {
            Thread.sleep(300);
            List<String> cmd = List.of(javaHome + "/bin/java", "-agentpath:" + agent + "=start,event=cpu,interval=1ms,file="
                    + fifo, "-cp", classes, "Burn7525", "1");
            Path err = work.resolve("stalled.err");
            long t0 = System.nanoTime();
            Process jvm = new ProcessBuilder(cmd).directory(work.toFile()).redirectErrorStream(true)
                    .redirectOutput(err.toFile()).start();
            boolean exited = jvm.waitFor(40, TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - t0) / 1e9;
            jvm.destroyForcibly();
            System.out.printf("$ %s%n  %s after %.1f s%n  output: %s%n", String.join(" ", cmd),
                    exited ? "exit " + jvm.exitValue() : "still running", seconds, Files.readString(err).strip());
            check(exited, "the JVM did not exit within 40 s: the stalled reader of " + fifo + " holds it");
            check(Files.readString(err).contains("its reader took nothing for"), "the dropped profile is not said");
        } finally {
            holder.destroyForcibly();
        }
    }

    static void nativememDeepbind() throws Exception {
        Path file = work.resolve("deepbind.collapsed");
        Run run = runJava("start,nativemem,nativelock,loglevel=info,file=" + file, "DeepBindAlloc",
                lib("libdeepbind_alloc.so"), lib("libbump_user_a.so"), lib("libbump_user_b.so"));
        check(run.exit() == 0 && run.out().contains("deepbind ok"), "the JVM did not complete (exit " + run.exit()
                + "): " + run.out() + run.err());
        Matcher left = Pattern.compile("(\\d+) function families left whole in objects loaded since").matcher(run.err());
        long families = 0;
        while (left.find()) families += Long.parseLong(left.group(1));
        System.out.println("  families left whole in objects loaded during the session: " + families);
        // libbump_user_a.so (malloc bound to its allocator) and libbump_user_b.so (its scope defines it) keep theirs.
        check(families >= 2, "the DEEPBIND libraries' allocator families were not counted as left whole: " + run.err());
        check(Files.exists(file) && Files.size(file) > 0, "no profile written");
    }
}
