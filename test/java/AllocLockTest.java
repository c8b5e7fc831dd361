import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Integration tests of allocation and lock profiling against known truths from AllocLockWorkload:
 * a 3:1 byte ratio between two allocation sites, 'live' dropping what was freed, a monitor held while another
 * thread waits for a time the waiter measures itself, the JDK's jfr tool reading our events, and the JDK's
 * own recordings of these events converted by jfrconv. Usage (from ctest):
 *   java AllocLockTest <test> <java_home> <libprof.so> <jfrconv> <workload classpath> <work dir>
 */
public class AllocLockTest {
    public static void main(String[] args) throws Exception {
        JfrconvTest.runWithJfrconv(args, test -> {
            switch (test) {
                case "alloc_shares" -> allocShares();
                case "alloc_live" -> allocLive();
                case "alloc_startup" -> allocStartup();
                case "lock_time" -> lockTime();
                case "jfr_events" -> jfrEvents();
                case "jdk_recording" -> jdkRecording();
                case "combined" -> combined();
                case "bad_options" -> badOptions();
                default -> throw new IllegalArgumentException("unknown test " + test);
            }
        });
    }

    static void check(boolean condition, String message) {
        IntegrationTest.check(condition, message);
    }

    static Path work(String name) {
        return IntegrationTest.work.resolve(name);
    }

    /** Samples of the stacks in which the frames of 'path' ("a;b") follow each other. */
    static long sumPath(Map<String, Long> stacks, String path) {
        long n = 0;
        for (var e : stacks.entrySet()) {
            if ((";" + e.getKey() + ";").contains(";" + path + ";")) n += e.getValue();
        }
        return n;
    }

    static IntegrationTest.Run workload(String options, String... args) throws Exception {
        String[] all = new String[args.length + 1];
        all[0] = "AllocLockWorkload";
        System.arraycopy(args, 0, all, 1, args.length);
        IntegrationTest.Run run = IntegrationTest.runJava(options, all);
        check(run.exit() == 0 && run.out().contains("TRUTH"), "workload failed under " + options + ": " + run.err());
        return run;
    }

    static double truth(IntegrationTest.Run run, String key) {
        Matcher m = Pattern.compile(key + "=(\\d+)").matcher(run.out());
        check(m.find(), "no " + key + " in " + run.out());
        return Double.parseDouble(m.group(1));
    }

    /** Shares of the two sites among the stacks ending in byte[] under them, in percent of their sum. */
    static void checkThreeToOne(Map<String, Long> stacks, String what) {
        long site3 = sumPath(stacks, "AllocLockWorkload.site3;byte[]");
        long site1 = sumPath(stacks, "AllocLockWorkload.site1;byte[]");
        check(site1 + site3 > 0, what + ": no byte[] under the two sites: " + stacks);
        double share3 = 100.0 * site3 / (site1 + site3);
        System.out.printf("%s: site3 %d, site1 %d: %.1f%% (truth 75%%)%n", what, site3, site1, share3);
        check(Math.abs(share3 - 75) <= 5, what + ": site3 has " + share3 + "% of the bytes of the two sites, not 75 +- 5");
    }

    /** Two sites allocating 3:1 in bytes: 3:1 within 5 points, in bytes ('total') and in samples. Intervals
     * small enough for thousands of samples: the sampling noise of the share (about 0.8 points) stays far
     * inside the tolerance (at the default 512 KiB, 2 s give some 400 samples and 2 points of noise). */
    static void allocShares() throws Exception {
        Path bytes = work("alloc_total.collapsed"), samples = work("alloc_samples.collapsed");
        workload("start,event=alloc,interval=65536,total,file=" + bytes, "alloc", "2");
        checkThreeToOne(IntegrationTest.readCollapsed(bytes), "bytes (event=alloc,interval=65536,total)");
        workload("start,alloc=16k,file=" + samples, "alloc", "1");
        checkThreeToOne(IntegrationTest.readCollapsed(samples), "samples (alloc=16k)");
    }

    /** A session given at start-up samples the main thread from its first allocation: with every allocation
     * sampled (alloc=1, no TLABs, so each allocation meets the sampler), the main thread's 2,000 small arrays
     * right after start-up (64 KB, far below the JVM's default first sampling distance of 512 KiB) are all in
     * the profile. */
    static void allocStartup() throws Exception {
        Path out = work("startup.collapsed");
        IntegrationTest.Run run = IntegrationTest.runJava("start,event=alloc,alloc=1,file=" + out, "-XX:-UseTLAB",
                "AllocLockWorkload", "startup", "2000");
        check(run.exit() == 0 && run.out().contains("TRUTH"), "workload failed: " + run.err());
        long seen = sumPath(IntegrationTest.readCollapsed(out), "AllocLockWorkload.startupSite;int[]");
        System.out.println("startup: " + seen + " samples of the main thread's 2000 arrays");
        check(seen >= 1900 && seen <= 2100, "startup: " + seen + " samples of the main thread's 2000 allocations");
    }

    /** 'live': the freed site's objects are gone after a GC, the retained site's stay. */
    static void allocLive() throws Exception {
        Path out = work("live.collapsed"), all = work("all.collapsed");
        workload("start,alloc,live,total,file=" + out, "live");
        Map<String, Long> live = IntegrationTest.readCollapsed(out);
        long retained = sumPath(live, "AllocLockWorkload.retainedSite;byte[]");
        long freed = sumPath(live, "AllocLockWorkload.freedSite;byte[]");
        System.out.println("live: retained " + retained + " bytes, freed " + freed);
        check(retained > 100_000_000L, "live: the retained objects (200000 x 1 KB) are missing: " + live);
        check(freed == 0, "live: freed objects are still in the profile: " + freed + " bytes");
        /* the same without live: both sites, about equal */
        workload("start,alloc,total,file=" + all, "live");
        Map<String, Long> both = IntegrationTest.readCollapsed(all);
        long freedAll = sumPath(both, "AllocLockWorkload.freedSite;byte[]");
        check(freedAll > 100_000_000L, "without live the freed site must show its allocation: " + both);

        /* A recording: the objects still reachable at its end as profiler.LiveObject events (async-profiler's),
         * read by the JDK's jfr with their fields and converted back by jfrconv --live. */
        Path jfr = work("live.jfr");
        workload("start,alloc,live,file=" + jfr, "live");
        String summary = jfrTool("summary", jfr.toString());
        long events = eventCount(summary, "profiler.LiveObject");
        /* ... and, as async-profiler's, every allocation sample too, of the freed objects as of the kept ones. */
        long allocations = eventCount(summary, "jdk.ObjectAllocationInNewTLAB");
        String allocPrint = jfrTool("print", "--events", "jdk.ObjectAllocationInNewTLAB", jfr.toString());
        System.out.println("live (jfr): " + allocations + " allocation samples beside the live objects");
        check(allocations > events && allocPrint.contains("AllocLockWorkload.freedSite")
                && allocPrint.contains("AllocLockWorkload.retainedSite"),
                "alloc,live recording: " + allocations + " allocation samples (" + events + " live objects), freedSite "
                + (allocPrint.contains("AllocLockWorkload.freedSite") ? "in them" : "missing"));
        String print = jfrTool("print", "--events", "profiler.LiveObject", jfr.toString());
        check(print.contains("objectClass = byte[]") && print.contains("allocationSize = 1") && print.contains("allocationTime = ")
                && print.contains("AllocLockWorkload.retainedSite"), "jfr print: live objects without class, size, time or stack: "
                + print.substring(0, Math.min(2000, print.length())));
        check(!print.contains("AllocLockWorkload.freedSite"), "jfr print: a freed object is in the recording");
        Map<String, Long> converted = IntegrationTest.readCollapsed(jfrconv("live_from_jfr", "--live", "--total", jfr.toString()));
        long retainedJfr = sumPath(converted, "AllocLockWorkload.retainedSite;byte[]");
        long freedJfr = sumPath(converted, "AllocLockWorkload.freedSite;byte[]");
        System.out.println("live (jfr): " + events + " live objects, retained " + retainedJfr + " bytes, freed " + freedJfr);
        /* 200 MB retained at a 512 KB mean interval: about 390 sampled objects of 1 KB each. */
        check(events >= 100 && retainedJfr >= 100 * 1000L && freedJfr == 0,
                "jfrconv --live: " + events + " events, retained " + retainedJfr + " bytes, freed " + freedJfr + ": " + converted);
        /* Converted without --live or --alloc: nothing, and the warning says which flags read what the recording holds. */
        JfrconvTest.Result plain = JfrconvTest.jfrconv(jfr.toString(), work("live_default.collapsed").toString());
        check(plain.exit() == 0 && plain.err().contains(events + " events that --live converts")
                && plain.err().contains(" events that --alloc converts"),
                "jfrconv without --live does not point to it: " + plain.err());
    }

    /** A monitor held 5 x 200 ms while a waiter blocks on it: the waiter's stack shows the time it measured. */
    static void lockTime() throws Exception {
        Path out = work("lock.collapsed");
        IntegrationTest.Run run = workload("start,event=lock,total,file=" + out, "lock", "5", "200");
        double waited = truth(run, "waited_ns");
        Map<String, Long> stacks = IntegrationTest.readCollapsed(out);
        long seen = sumPath(stacks, "AllocLockWorkload.waiterEnters;AllocLockWorkload$Monitor");
        System.out.printf("lock: %d ns in the profile, %.0f ns measured by the waiter%n", seen, waited);
        check(Math.abs(seen - waited) <= 0.10 * waited, "lock: " + seen + " ns recorded, the waiter measured " + waited);
        /* java.util.concurrent: a ReentrantLock held 5 x 200 ms, the waiter parked on its sync */
        Path parked = work("park.collapsed");
        run = workload("start,event=lock,total,file=" + parked, "park", "5", "200");
        waited = truth(run, "waited_ns");
        stacks = IntegrationTest.readCollapsed(parked);
        long park = IntegrationTest.sumWithSuffix(stacks, "java.util.concurrent.locks.ReentrantLock$NonfairSync");
        long underWaiter = sumPath(stacks, "AllocLockWorkload.waiterParks");
        System.out.printf("park: %d ns in the profile (%d under waiterParks), %.0f ns measured by the waiter%n", park,
                underWaiter, waited);
        check(park == underWaiter && Math.abs(park - waited) <= 0.10 * waited,
                "park: " + park + " ns recorded (" + underWaiter + " under waiterParks), the waiter measured " + waited);
        /* lock=DURATION samples one wait per DURATION of accumulated waiting (async-profiler's): 300 waits of
         * about 2 ms at lock=10ms are about 60 samples, each standing for 10 ms, whose sum is the time waited
         * (a threshold would record none of them). */
        for (String kind : List.of("lock", "park")) {
            Path sampled = work("lock_sampled_" + kind + ".collapsed");
            run = workload("start,lock=10ms,total,file=" + sampled, kind, "300", "2");
            waited = truth(run, "waited_ns");
            stacks = IntegrationTest.readCollapsed(sampled);
            long estimate = sumPath(stacks, kind.equals("lock") ? "AllocLockWorkload.waiterEnters" : "AllocLockWorkload.waiterParks");
            System.out.printf("%s at lock=10ms: %d ns estimated from %d stacks, %.0f ns measured by the waiter%n", kind,
                    estimate, stacks.size(), waited);
            check(waited < 300 * 10e6 && Math.abs(estimate - waited) <= 0.20 * waited,
                    kind + " at lock=10ms: " + estimate + " ns estimated, the waiter measured " + waited + " in 300 waits");
        }
        /* less than one DURATION waited in all: nothing recorded */
        Path none = work("lock_threshold.collapsed");
        workload("start,lock=1s,total,file=" + none, "lock", "2", "100");
        String recorded = Files.readString(none);
        check(!recorded.contains("AllocLockWorkload$Monitor"), "lock=1s recorded 100 ms waits: " + recorded);
        workload("start,lock=1s,total,file=" + none, "park", "2", "100");
        recorded = Files.readString(none);
        check(!recorded.contains("NonfairSync"), "lock=1s recorded 100 ms parks: " + recorded);
        /* waits for work or events are no lock contention (as async-profiler counts): an idle pool's queue,
         * Condition.await, CountDownLatch.await, each ~400 ms, are left out; a ReentrantLock wait is kept */
        Path idle = work("lock_idle.collapsed");
        workload("start,event=lock,total,file=" + idle, "idle", "400");
        Map<String, Long> idleStacks = IntegrationTest.readCollapsed(idle);
        long contended = IntegrationTest.sumWithSuffix(idleStacks, "java.util.concurrent.locks.ReentrantLock$NonfairSync");
        System.out.printf("idle waits: %d stacks, %d ns on ReentrantLock%n", idleStacks.size(), contended);
        for (String stack : idleStacks.keySet()) {
            String leaf = stack.substring(stack.lastIndexOf(';') + 1);   /* the blocker's or monitor's class */
            check(!leaf.contains("SynchronousQueue") && !leaf.contains("ConditionObject") && !leaf.contains("CountDownLatch"),
                    "a wait for work or an event recorded as a lock wait: " + stack);
        }
        check(contended >= 300_000_000L, "the ReentrantLock waits (2 x 200 ms) are missing: " + idleStacks);
    }

    static String jfrTool(String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of(IntegrationTest.javaHome + "/bin/jfr"));
        cmd.addAll(List.of(args));
        JfrconvTest.work = IntegrationTest.work;
        JfrconvTest.Result r = JfrconvTest.run(cmd);
        check(r.exit() == 0, "jfr " + String.join(" ", args) + " failed: " + r.err() + r.out());
        return r.out();
    }

    static Path jfrconv(String name, String... args) throws Exception {
        return JfrconvTest.convert(name, args);
    }

    static long eventCount(String summary, String event) {
        Matcher m = Pattern.compile(Pattern.quote(event) + "\\s+(\\d+)").matcher(summary);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    /** Our recordings: the JDK's jfr reads the events with their fields, and jfrconv converts them back. */
    static void jfrEvents() throws Exception {
        Path alloc = work("alloc.jfr"), lock = work("lock.jfr");
        workload("start,event=alloc,file=" + alloc, "alloc", "2");
        /* async-profiler's events, which its converter and the tools built on its recordings read: the object's
         * size as allocationSize, the bytes the sample stands for as tlabSize. */
        check(eventCount(jfrTool("summary", alloc.toString()), "jdk.ObjectAllocationInNewTLAB") > 50,
                "jfr summary: too few jdk.ObjectAllocationInNewTLAB events");
        String print = jfrTool("print", "--events", "jdk.ObjectAllocationInNewTLAB", alloc.toString());
        check(print.contains("objectClass = byte[]") && print.contains("tlabSize = ") && print.contains("AllocLockWorkload.site3"),
                "jfr print: allocation samples without class, weight or stack: " + print.substring(0, Math.min(2000, print.length())));
        Matcher sizes = Pattern.compile("allocationSize = ([0-9.]+) (bytes|kB)").matcher(print);
        check(sizes.find(), "jfr print: allocation samples without their object's size: " + print.substring(0, Math.min(2000, print.length())));
        checkThreeToOne(IntegrationTest.readCollapsed(jfrconv("alloc_from_jfr", "--alloc", "--total", alloc.toString())),
                "jfrconv --alloc of our recording");

        IntegrationTest.Run run = workload("start,event=lock,file=" + lock, "lock", "3", "200");
        String locks = jfrTool("print", "--events", "jdk.JavaMonitorEnter", lock.toString());
        check(locks.contains("monitorClass = AllocLockWorkload$Monitor") && locks.contains("duration = ")
                && locks.contains("AllocLockWorkload.waiterEnters"), "jfr print: monitor events incomplete: " + locks);
        Map<String, Long> converted = IntegrationTest.readCollapsed(jfrconv("lock_from_jfr", "--lock", "--total", lock.toString()));
        long seen = sumPath(converted, "AllocLockWorkload.waiterEnters;AllocLockWorkload$Monitor");
        double waited = truth(run, "waited_ns");
        check(Math.abs(seen - waited) <= 0.10 * waited, "jfrconv --lock: " + seen + " ns, the waiter measured " + waited);

        Path park = work("park.jfr");
        run = workload("start,event=lock,file=" + park, "park", "3", "200");
        String parks = jfrTool("print", "--stack-depth", "64", "--events", "jdk.ThreadPark", park.toString());
        check(parks.contains("parkedClass = java.util.concurrent.locks.ReentrantLock$NonfairSync")
                && parks.contains("AllocLockWorkload.waiterParks"), "jfr print: park events incomplete: " + parks);
        converted = IntegrationTest.readCollapsed(jfrconv("park_from_jfr", "--lock", "--total", park.toString()));
        seen = IntegrationTest.sumWithSuffix(converted, "java.util.concurrent.locks.ReentrantLock$NonfairSync");
        waited = truth(run, "waited_ns");
        check(Math.abs(seen - waited) <= 0.10 * waited, "jfrconv --lock (park): " + seen + " ns, the waiter measured " + waited);
    }

    /** Runs the workload under the JDK's own recorder (settings=profile: allocation samples, monitor enter and
     * park over 10 ms) into 'file'. */
    static IntegrationTest.Run jdkRecorded(Path file, String... args) throws Exception {
        String[] all = new String[args.length + 2];
        all[0] = "-XX:StartFlightRecording:settings=profile,filename=" + file;
        all[1] = "AllocLockWorkload";
        System.arraycopy(args, 0, all, 2, args.length);
        IntegrationTest.Run run = IntegrationTest.runJava(null, all);
        check(run.exit() == 0 && run.out().contains("TRUTH"), "workload failed under the JDK's recorder: " + run.err());
        return run;
    }

    /** The JDK's own recordings of these events convert: monitor and park waits with their time, allocations. */
    static void jdkRecording() throws Exception {
        Path lock = work("jdk_lock.jfr"), park = work("jdk_park.jfr"), alloc = work("jdk_alloc.jfr");
        IntegrationTest.Run run = jdkRecorded(lock, "lock", "3", "200");
        Map<String, Long> stacks = IntegrationTest.readCollapsed(jfrconv("jdk_lock", "--lock", "--total", lock.toString()));
        long seen = sumPath(stacks, "AllocLockWorkload.waiterEnters;AllocLockWorkload$Monitor");
        double waited = truth(run, "waited_ns");
        check(Math.abs(seen - waited) <= 0.10 * waited, "JDK monitor events: " + seen + " ns, the waiter measured " + waited);

        run = jdkRecorded(park, "park", "3", "200");
        stacks = IntegrationTest.readCollapsed(jfrconv("jdk_park", "--lock", "--total", park.toString()));
        seen = IntegrationTest.sumWithSuffix(stacks, "ReentrantLock$NonfairSync");
        waited = truth(run, "waited_ns");
        long underWaiter = sumPath(stacks, "AllocLockWorkload.waiterParks");
        check(underWaiter == seen && Math.abs(seen - waited) <= 0.10 * waited,
                "JDK park events: " + seen + " ns (" + underWaiter + " under waiterParks), the waiter measured " + waited
                + ": " + stacks);

        /* The JDK's own reader is the truth: jfrconv keeps every jdk.ObjectAllocationSample event and its weight.
         * Which sites the JDK's throttled sampler picks is its business: it samples the object that overflows a
         * TLAB, and with the workload's fixed cycle of four equal arrays that can be site3 every time (a
         * fresh-clone CI run on JDK 25 had 774 events, none under site1), so the check asks for one of them. */
        jdkRecorded(alloc, "alloc", "2");
        String json = jfrTool("print", "--json", "--events", "jdk.ObjectAllocationSample", alloc.toString());
        Matcher weight = Pattern.compile("\"weight\"\\s*:\\s*(\\d+)").matcher(json);
        long events = 0, bytes = 0;
        while (weight.find()) {
            events++;
            bytes += Long.parseLong(weight.group(1));
        }
        check(events > 0, "the JDK's recording has no jdk.ObjectAllocationSample: " + json.substring(0, Math.min(json.length(), 400)));
        Map<String, Long> counted = IntegrationTest.readCollapsed(jfrconv("jdk_alloc_samples", "--alloc", alloc.toString()));
        stacks = IntegrationTest.readCollapsed(jfrconv("jdk_alloc", "--alloc", "--total", alloc.toString()));
        long convertedEvents = counted.values().stream().mapToLong(Long::longValue).sum();
        long convertedBytes = stacks.values().stream().mapToLong(Long::longValue).sum();
        System.out.printf("JDK allocation samples: jfr %d events %d bytes, jfrconv %d events %d bytes%n",
                events, bytes, convertedEvents, convertedBytes);
        check(convertedEvents == events && convertedBytes == bytes, "JDK allocation samples: jfr reads " + events
                + " events of " + bytes + " bytes, jfrconv " + convertedEvents + " of " + convertedBytes);
        check(sumPath(stacks, "AllocLockWorkload.site3;byte[]") + sumPath(stacks, "AllocLockWorkload.site1;byte[]") > 0,
                "JDK allocation samples: no byte[] under site1 or site3: " + stacks);
    }

    /** alloc and lock beside cpu in one session (a session of several events): a JFR recording holds
     * every event, each converts alone with the same truths; a text output holds the first event, or the one
     * the options name first. */
    static void combined() throws Exception {
        Path allocRec = work("cpu_alloc_lock.jfr"), lockRec = work("cpu_lock.jfr");
        workload("start,event=cpu,alloc=64k,lock,file=" + allocRec, "alloc", "2");
        String summary = jfrTool("summary", allocRec.toString());
        /* CPU samples: as many as the CPU time the workload got, which a loaded machine cuts to a few; their
         * presence is the point here, their shares are checked alone (cpu tests). */
        check(eventCount(summary, "jdk.ExecutionSample") > 0 && eventCount(summary, "jdk.ObjectAllocationInNewTLAB") > 500,
                "event=cpu,alloc,lock: the recording lacks CPU or allocation samples: " + summary);
        checkThreeToOne(IntegrationTest.readCollapsed(jfrconv("combined_alloc", "--alloc", "--total", allocRec.toString())),
                "jfrconv --alloc of event=cpu,alloc=64k,lock");
        Map<String, Long> cpu = IntegrationTest.readCollapsed(jfrconv("combined_cpu", "--cpu", allocRec.toString()));
        check(cpu.keySet().stream().noneMatch(k -> k.endsWith("byte[]")), "--cpu holds allocation samples: " + cpu);
        check(sumPath(cpu, "AllocLockWorkload.alloc") > 0, "--cpu: no CPU samples in the workload: " + cpu);

        IntegrationTest.Run run = workload("start,event=cpu,lock,file=" + lockRec, "lock", "3", "200");
        check(jfrTool("print", "--events", "jdk.JavaMonitorEnter", lockRec.toString()).contains("monitorClass"),
                "event=cpu,lock: no jdk.JavaMonitorEnter");
        Map<String, Long> locks = IntegrationTest.readCollapsed(jfrconv("combined_lock", "--lock", "--total", lockRec.toString()));
        long seen = sumPath(locks, "AllocLockWorkload.waiterEnters;AllocLockWorkload$Monitor");
        double waited = truth(run, "waited_ns");
        check(Math.abs(seen - waited) <= 0.10 * waited, "event=cpu,lock: " + seen + " ns recorded, the waiter measured " + waited);

        /* text formats: the first event named (alloc before lock here; 'alloc' alone is the session's event) */
        Path first = work("alloc_first.collapsed");
        workload("start,alloc=32k,lock,total,file=" + first, "alloc", "1");
        checkThreeToOne(IntegrationTest.readCollapsed(first), "collapsed of alloc=32k,lock");
    }

    static void badOptions() throws Exception {
        String[][] cases = {
            {"start,alloc=abc", "alloc=abc"},
            {"start,lock=soon", "lock=soon"},
        };
        for (String[] c : cases) {
            IntegrationTest.Run run = IntegrationTest.runJava(c[0], "AllocLockWorkload", "alloc", "0.1");
            check(run.exit() != 0 || run.err().contains(c[1]), "accepted " + c[0]);
            check(run.err().contains(c[1]), "the message for " + c[0] + " does not name '" + c[1] + "': " + run.err());
        }
    }
}
