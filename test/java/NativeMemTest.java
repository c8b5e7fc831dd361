import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Native memory and native lock profiling over libnativemem.so (test/native/jni/nativemem.c) and
 * its workload NativeMem.java: exact counts and bytes per call site with the whole chain from Java, leaks
 * found by address, a contended mutex's waiters, and no hook left behind by attach, stop and later sessions.
 * Usage (from ctest): java NativeMemTest <test> <java_home> <libprof.so> <workload classpath> <work dir>
 */
public class NativeMemTest extends IntegrationTest {
    static final List<String> SITE_A = List.of("NativeMem.main", "NativeMem.allocate", "Java_NativeMem_allocate",
            "nativemem_site_a", "malloc_hook");
    static final List<String> SITE_B = List.of("NativeMem.main", "NativeMem.allocate", "Java_NativeMem_allocate",
            "nativemem_site_b", "calloc_hook");
    static final List<String> LEAK_SITE = List.of("NativeMem.main", "NativeMem.leak", "Java_NativeMem_leak",
            "nativemem_leak_site", "malloc_hook");
    static final List<String> LOCK_SITE = List.of("NativeMem.contend", "Java_NativeMem_contend",
            "nativemem_lock_site", "pthread_mutex_lock_hook");

    public static void main(String[] args) throws Exception {
        runMain(args, test -> {
            switch (test) {
                case "sites" -> sites();
                case "leak" -> leak();
                case "lock" -> lock();
                case "attach" -> attach();
                case "jfr" -> jfr();
                case "with_cpu" -> withCpu();
                default -> throw new IllegalArgumentException("unknown test " + test);
            }
        });
    }

    static String library() {
        return Path.of(agent).getParent().resolve("libnativemem.so").toString();
    }

    /** True when the stack is exactly 'path' at its leaf end, after the thread's root frames. */
    static boolean endsWith(String stack, List<String> path) {
        List<String> frames = Arrays.asList(stack.split(";"));
        return frames.size() > path.size() && frames.subList(frames.size() - path.size(), frames.size()).equals(path);
    }

    /** Weight of the stacks that end with 'path'; fails when a stack reaches the path's leaf another way. */
    static long at(Map<String, Long> stacks, List<String> path) {
        long n = 0;
        String site = path.get(path.size() - 2);
        for (var e : stacks.entrySet()) {
            if (!e.getKey().contains(";" + site + ";")) continue;
            check(endsWith(e.getKey(), path), "a stack through " + site + " without its whole chain: " + e.getKey());
            check(e.getKey().startsWith("clone3;start_thread;") || e.getKey().startsWith("start_thread;"),
                    "a stack through " + site + " that does not reach the thread's root: " + e.getKey());
            n += e.getValue();
        }
        return n;
    }

    static Map<String, Long> profile(String name, String options, String... workload) throws Exception {
        Path file = work.resolve(name + ".collapsed");
        String[] args = new String[workload.length + 2];
        args[0] = "NativeMem";
        args[1] = library();
        System.arraycopy(workload, 0, args, 2, workload.length);
        Run run = runJava("start," + options + ",file=" + file, args);
        check(run.exit() == 0 && run.out().contains("done"), "workload failed: " + run.out() + run.err());
        return readCollapsed(file);
    }

    /** Every call at interval 0: 2000 calls at site A (3000 bytes each) and 4000 at site B (500 bytes each),
     * exactly, each with the chain Java -> JNI -> site -> allocation function; with 'total', exactly their bytes. */
    static void sites() throws Exception {
        Map<String, Long> calls = profile("sites", "event=nativemem", "sites", "2000");
        long a = at(calls, SITE_A), b = at(calls, SITE_B);
        System.out.printf("  calls: site A %d, site B %d%n", a, b);
        check(a == 2000 && b == 4000, "calls per site: A " + a + " (want 2000), B " + b + " (want 4000)");
        Map<String, Long> bytes = profile("sites-total", "nativemem=0,total", "sites", "2000");
        a = at(bytes, SITE_A);
        b = at(bytes, SITE_B);
        System.out.printf("  bytes: site A %d, site B %d%n", a, b);
        check(a == 2000L * 3000 && b == 4000L * 500, "bytes per site: A " + a + ", B " + b + " (want 3:1 exactly)");
        // Sampled every 1 MiB: the repeating pattern (3000, 500, 500 bytes) must not lock the samples onto one
        // site; the bytes stay 3:1 and add up to what was allocated, within an interval per thread.
        Map<String, Long> sampled = profile("sites-1m", "nativemem=1m,total", "sites", "1000000");
        a = at(sampled, SITE_A);
        b = at(sampled, SITE_B);
        System.out.printf("  nativemem=1m: bytes A %d, B %d (%.3f:1)%n", a, b, (double) a / Math.max(1, b));
        check(b > 0 && a >= 2.85 * b && a <= 3.15 * b, "sampled bytes not 3:1: A " + a + ", B " + b);
        check(Math.abs(a + b - 4_000_000_000L) <= 2L << 20, "sampled bytes do not add up to 4e9: " + (a + b));
    }

    /** 7 blocks leaked among 6000 allocations freed: the leak profile holds those 7 at their site, and nothing
     * else of the library. */
    static void leak() throws Exception {
        Map<String, Long> leaks = profile("leak", "nativemem,leak", "leak", "7", "2000");
        long leaked = at(leaks, LEAK_SITE);
        long library = leaks.entrySet().stream().filter(e -> e.getKey().contains("Java_NativeMem_"))
                .mapToLong(Map.Entry::getValue).sum();
        System.out.printf("  leaks: %d at the leak site, %d from the library in all%n", leaked, library);
        check(leaked == 7, "leaks at the leak site: " + leaked + " (want 7)");
        check(library == 7, "the library shows " + (library - leaked) + " leaks besides the leak site: " + leaks);
        Map<String, Long> bytes = profile("leak-total", "nativemem,leak,total", "leak", "7", "2000");
        check(at(bytes, LEAK_SITE) == 7L * 777, "leaked bytes: " + at(bytes, LEAK_SITE) + " (want " + 7 * 777 + ")");
    }

    /** Four threads take one native mutex held 1 ms at a time: their waits show at the lock site, by thread,
     * weighted by the time waited. */
    static void lock() throws Exception {
        Map<String, Long> waits = profile("lock", "nativelock=0,threads,total", "lock", "4", "40");
        long ns = 0;
        java.util.Set<String> waiters = new java.util.TreeSet<>();
        for (var e : waits.entrySet()) {
            if (!e.getKey().contains(";nativemem_lock_site;")) continue;
            check(endsWith(e.getKey(), LOCK_SITE), "a wait without its whole chain: " + e.getKey());
            Matcher m = Pattern.compile("\\[(waiter-\\d) tid=\\d+\\]").matcher(e.getKey());
            check(m.find(), "a wait not on a waiter thread: " + e.getKey());
            waiters.add(m.group(1));
            ns += e.getValue();
        }
        System.out.printf("  waits: %.1f ms by %s%n", ns / 1e6, waiters);
        check(waiters.size() >= 2, "waiting threads: " + waiters);
        // 160 acquisitions of a lock held 1 ms each by four threads: some waited at least a full hold.
        check(ns >= 1_000_000, "time waited: " + ns + " ns");
    }

    static String status(com.sun.tools.attach.VirtualMachine vm, String name) throws Exception {
        Path file = work.resolve(name + ".txt");
        vm.loadAgentPath(agent, "status,file=" + file);
        return Files.readString(file);
    }

    static long hookSlots(String status) {
        Matcher m = Pattern.compile("native_hook_slots: (\\d+)").matcher(status);
        check(m.find(), "status without native_hook_slots: " + status);
        return Long.parseLong(m.group(1));
    }

    /** The library's own malloc import slots that do not hold the real malloc, as it reports them. */
    static int libraryHooked(PrintWriter to, BufferedReader from) throws Exception {
        to.println("go");
        to.flush();
        String line = from.readLine();
        check(line != null && line.startsWith("hooked "), "workload answered: " + line);
        return Integer.parseInt(line.substring(7));
    }

    /** Attached into a running JVM: the library loaded before is hooked; stop restores every slot (the
     * library's own view and the agent's count of all objects); a nativelock and a second nativemem session
     * leave none behind either. */
    static void attach() throws Exception {
        List<String> cmd = List.of(javaHome + "/bin/java", "-cp", classes, "NativeMem", library(), "wait");
        Process target = new ProcessBuilder(cmd).directory(work.toFile()).redirectError(work.resolve("target.err").toFile())
                .start();
        try (PrintWriter to = new PrintWriter(target.getOutputStream());
             BufferedReader from = new BufferedReader(new InputStreamReader(target.getInputStream()))) {
            check("ready".equals(from.readLine()), "workload did not start");
            check(libraryHooked(to, from) == 0, "hooked before any session");
            var vm = com.sun.tools.attach.VirtualMachine.attach(String.valueOf(target.pid()));
            try {
                for (String session : List.of("event=nativemem", "nativelock", "nativemem=1k")) {
                    vm.loadAgentPath(agent, "start," + session);
                    int hooked = libraryHooked(to, from);
                    long slots = hookSlots(status(vm, "status-running"));
                    System.out.printf("  %s: library slots hooked %d, all objects %d%n", session, hooked, slots);
                    check(slots > 0, session + ": no import slot hooked");
                    if (session.contains("nativemem")) check(hooked > 0, session + ": the library's malloc not hooked");
                    Path profile = work.resolve("attach.collapsed");
                    Files.deleteIfExists(profile);
                    vm.loadAgentPath(agent, "stop,file=" + profile);
                    if (session.contains("nativemem"))
                        check(at(readCollapsed(profile), SITE_A) > 0, session + ": site A missing from the profile");
                    check(libraryHooked(to, from) == 0, session + ": the library's malloc slots still hooked after stop");
                    check(hookSlots(status(vm, "status-stopped")) == 0, session + ": hooks left after stop");
                }
            } finally {
                vm.detach();
            }
            to.println("quit");
            to.flush();
            check(target.waitFor(60, TimeUnit.SECONDS), "target did not finish");
            check(target.exitValue() == 0, "target exited " + target.exitValue() + ": "
                    + Files.readString(work.resolve("target.err")));
            noCrashReports();
        } finally {
            target.destroyForcibly();
        }
    }

    /** Runs a tool to completion; its standard output. */
    static String tool(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).directory(work.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        check(p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0, "failed: " + cmd + "\n" + out);
        return out;
    }

    static Map<String, Long> converted(Path recording, String name, String... flags) throws Exception {
        Path out = work.resolve(name + ".collapsed");
        List<String> cmd = new java.util.ArrayList<>(List.of(System.getProperty("jfrconv")));
        cmd.addAll(List.of(flags));
        cmd.addAll(List.of("-o", "collapsed", recording.toString(), out.toString()));
        tool(cmd);
        return readCollapsed(out);
    }

    /** Recordings: profiler.Malloc / profiler.Free / profiler.NativeLock events the JDK's jfr reads, and jfrconv
     * --nativemem (exact bytes per site), --nativemem --leak (the 7 leaks and nothing else of the library),
     * --nativelock (the waiters). */
    static void jfr() throws Exception {
        Path mem = work.resolve("nativemem.jfr"), lock = work.resolve("nativelock.jfr");
        Files.deleteIfExists(mem);
        Files.deleteIfExists(lock);
        Run run = runJava("start,nativemem,file=" + mem, "NativeMem", library(), "leak", "7", "2000");
        check(run.exit() == 0, "workload failed: " + run.err());
        String summary = tool(List.of(javaHome + "/bin/jfr", "summary", mem.toString()));
        Matcher malloc = Pattern.compile("profiler\\.Malloc\\s+(\\d+)").matcher(summary);
        Matcher free = Pattern.compile("profiler\\.Free\\s+(\\d+)").matcher(summary);
        check(malloc.find() && free.find(), "jfr summary without the native memory events: " + summary);
        System.out.printf("  jfr summary: %s profiler.Malloc, %s profiler.Free%n", malloc.group(1), free.group(1));
        check(Long.parseLong(malloc.group(1)) >= 6007 && Long.parseLong(free.group(1)) >= 6000,
                "fewer events than the workload's 6007 allocations and 6000 frees: " + summary);
        tool(List.of(javaHome + "/bin/jfr", "print", "--events", "profiler.Malloc", mem.toString()));

        Map<String, Long> bytes = converted(mem, "jfr-bytes", "--nativemem", "--total");
        check(at(bytes, SITE_A) == 2000L * 3000 && at(bytes, SITE_B) == 4000L * 500,
                "bytes per site from the recording: A " + at(bytes, SITE_A) + ", B " + at(bytes, SITE_B));
        // The leaks are the workload's last allocations: --tail 0 keeps them, the whole span as tail drops them.
        Map<String, Long> leaks = converted(mem, "jfr-leaks", "--nativemem", "--leak", "--tail", "0");
        long library = leaks.entrySet().stream().filter(e -> e.getKey().contains("Java_NativeMem_"))
                .mapToLong(Map.Entry::getValue).sum();
        System.out.printf("  jfrconv --leak: %d at the leak site, %d from the library%n", at(leaks, LEAK_SITE), library);
        check(at(leaks, LEAK_SITE) == 7 && library == 7, "leaks from the recording: " + leaks);
        Path young = work.resolve("jfr-leaks-tail.collapsed");
        tool(List.of(System.getProperty("jfrconv"), "--nativemem", "--leak", "--tail", "100%", "-o", "collapsed",
                mem.toString(), young.toString()));
        String kept = Files.readString(young);   // may be empty: every leak was young
        check(!kept.contains("nativemem_leak_site"), "--tail 100% kept leaks made after the recording's first event: "
                + kept);

        run = runJava("start,nativelock=0,file=" + lock, "NativeMem", library(), "lock", "4", "20");
        check(run.exit() == 0, "workload failed: " + run.err());
        tool(List.of(javaHome + "/bin/jfr", "print", "--events", "profiler.NativeLock", lock.toString()));
        Map<String, Long> waits = converted(lock, "jfr-locks", "--nativelock", "--total", "-t");
        long ns = waits.entrySet().stream().filter(e -> e.getKey().contains(";nativemem_lock_site;"))
                .peek(e -> check(endsWith(e.getKey(), LOCK_SITE), "a wait without its chain: " + e.getKey()))
                .mapToLong(Map.Entry::getValue).sum();
        System.out.printf("  jfrconv --nativelock: %.1f ms waited at the lock site%n", ns / 1e6);
        check(ns >= 1_000_000, "time waited at the lock site: " + ns + " ns");
    }

    /** nativemem beside event=cpu (the multi-event session): one recording holds both; jfrconv --nativemem
     * finds every call at both sites, and the CPU samples are there too. */
    static void withCpu() throws Exception {
        Path rec = work.resolve("cpu-nativemem.jfr");
        Files.deleteIfExists(rec);
        Run run = runJava("start,event=cpu,interval=1ms,nativemem,file=" + rec, "NativeMem", library(), "sites", "20000");
        check(run.exit() == 0, "workload failed: " + run.err());
        String summary = tool(List.of(javaHome + "/bin/jfr", "summary", rec.toString()));
        Matcher cpu = Pattern.compile("jdk\\.ExecutionSample\\s+(\\d+)").matcher(summary);
        check(cpu.find() && Long.parseLong(cpu.group(1)) > 0, "no CPU samples beside nativemem: " + summary);
        Map<String, Long> calls = converted(rec, "cpu-nativemem", "--nativemem");
        System.out.printf("  cpu samples %s; calls: site A %d, site B %d%n", cpu.group(1), at(calls, SITE_A),
                at(calls, SITE_B));
        check(at(calls, SITE_A) == 20000 && at(calls, SITE_B) == 40000, "calls per site beside cpu: " + calls.size());
    }
}
