import dev.libprof.Profiler;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * A program that profiles itself through the Java API (dev.libprof.Profiler, from libprof.jar) and asserts
 * on its own frames. Run by ApiTest; exits 1 with "FAIL: ..." on the first wrong outcome. Modes:
 *   self WORK    the API end to end: start/stop/dump in each text format, files, status, errors, metrics
 *   filter       a session with `filter` samples only the thread added through addThread
 *   jmx WORK     under -javaagent:libprof.jar=start,...: the agent's session and its MBean
 */
public class ApiSelf {
    static volatile long sink;

    static void burnSelf(int millis) {
        sink += spin(millis);
    }

    static volatile boolean done;

    /** Burns until 'done': the thread is busy for the whole session, however long starting it takes. */
    static void burnAdded() {
        while (!done) sink += spin(10);
    }

    static void burnLeftOut() {
        while (!done) sink += spin(10);
    }

    static long spin(int millis) {
        long end = System.nanoTime() + millis * 1_000_000L, x = 1;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 10_000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            System.out.println("FAIL: " + what);
            System.exit(1);
        }
    }

    /** Samples of collapsed stacks that contain 'frame', and all samples. */
    static long[] samplesWith(String collapsed, String frame) {
        long with = 0, all = 0;
        for (String line : collapsed.split("\n")) {
            if (line.isEmpty()) continue;
            int space = line.lastIndexOf(' ');
            check(space > 0, "malformed collapsed line: " + line);
            long n = Long.parseLong(line.substring(space + 1));
            all += n;
            if (line.contains(frame)) with += n;
        }
        return new long[] {with, all};
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "self": self(Paths.get(args[1])); break;
            case "filter": filter(); break;
            case "jmx": jmx(Paths.get(args[1])); break;
            default: check(false, "unknown mode " + args[0]);
        }
        System.out.println("OK");
    }

    static void self(Path work) throws Exception {
        Profiler p = Profiler.getInstance();
        check(p == Profiler.getInstance(), "one instance per process");
        check(p.getVersion().matches("\\d+(\\.\\d+)+"), "version, a bare number as async-profiler gives it: " + p.getVersion());
        p.execute("start,event=ctimer,interval=1ms");
        burnSelf(1500);
        long samples = p.getSamples();
        check(samples >= 20, "samples so far: " + samples);
        check(p.execute("status").contains("state: running"), "status while running");
        String live = p.dumpCollapsed();   // a dump while running: the profile so far
        check(samplesWith(live, "ApiSelf.burnSelf")[0] > 0, "dump while running has burnSelf:\n" + live);
        p.stop();
        String collapsed = p.dumpCollapsed();
        long[] share = samplesWith(collapsed, "ApiSelf.main;ApiSelf.self;ApiSelf.burnSelf;ApiSelf.spin");
        check(share[1] >= samples, "collapsed holds the samples counted: " + share[1] + " < " + samples);
        // Of the main thread's samples outside the profiler's own calls (the dump and status while running are
        // sampled too), as JIT compiler threads take a share that grows with the machine's load.
        long main = samplesWith(collapsed, "ApiSelf.main")[0] - samplesWith(collapsed, "dev/libprof/Profiler.")[0];
        check(share[0] * 100 >= main * 80, "burnSelf's stack in >= 80% of main's samples: " + share[0] + " of " + main);
        String traces = p.dumpTraces(3);
        check(traces.contains("ApiSelf.burnSelf"), "text report names burnSelf:\n" + traces);
        String flat = p.dumpFlat(3);
        check(flat.contains("ApiSelf.spin"), "flat profile's top leaf is spin:\n" + flat);
        // Into files, in any format, by extension or explicitly.
        Path html = work.resolve("api.html"), folded = work.resolve("api.collapsed");
        p.dump(html.toString());
        p.execute("dump,collapsed,file=" + folded);
        check(new String(Files.readAllBytes(html), StandardCharsets.UTF_8).contains("burnSelf"), "html file");
        check(samplesWith(new String(Files.readAllBytes(folded), StandardCharsets.UTF_8), "ApiSelf.burnSelf")[0]
                == share[0], "the collapsed file equals the collapsed string");
        // The viewer formats: the JSON ones come back as strings; pprof is binary, so only into a file.
        check(p.execute("speedscope").contains("ApiSelf.burnSelf"), "speedscope through the API");
        try {
            p.execute("pprof");
            check(false, "binary pprof into a string was accepted");
        } catch (IllegalArgumentException e) {
            check(e.getMessage().contains("file="), "pprof without file: " + e.getMessage());
        }
        Path pprof = work.resolve("api.pb.gz");
        p.dump(pprof.toString());
        try (java.io.InputStream in = new java.util.zip.GZIPInputStream(Files.newInputStream(pprof))) {
            java.io.ByteArrayOutputStream raw = new java.io.ByteArrayOutputStream();
            byte[] buf = new byte[65536];
            for (int n; (n = in.read(buf)) > 0; ) raw.write(buf, 0, n);
            check(new String(raw.toByteArray(), StandardCharsets.ISO_8859_1).contains("ApiSelf.burnSelf"),
                  "the pprof file (gunzipped) names burnSelf");
        }
        check(p.execute("status").contains("state: idle"), "status after stop");
        // Bad input: one clear message naming the value; a stop with nothing running.
        try {
            p.execute("start,interval=fast");
            check(false, "a bad interval was accepted");
        } catch (IllegalArgumentException e) {
            check(e.getMessage().contains("interval=fast"), "message names the value: " + e.getMessage());
        }
        try {
            p.stop();
            check(false, "stop with nothing running succeeded");
        } catch (IllegalStateException e) {
            check(e.getMessage().contains("not running"), "stop when idle: " + e.getMessage());
        }
        // resume keeps the profile: the samples only grow.
        p.resume("ctimer", 1_000_000);
        burnSelf(300);
        p.stop();
        check(p.getSamples() > samples, "resume kept counting: " + p.getSamples() + " <= " + samples);
        String metrics = p.getMetrics();
        check(metrics.contains("libprof_samples_total " + p.getSamples()), "metrics count the samples:\n" + metrics);
        Files.write(work.resolve("metrics.txt"), metrics.getBytes(StandardCharsets.UTF_8));
        // A JFR recording through the API: a file is needed, and the JDK's jfr tool reads it (ApiTest).
        try {
            p.execute("start,event=ctimer,jfr");
            check(false, "a JFR session without a file was accepted");
        } catch (IllegalArgumentException e) {
            check(e.getMessage().contains("file="), "jfr without file: " + e.getMessage());
        }
        p.execute("start,event=ctimer,interval=1ms,file=" + work.resolve("api.jfr"));
        burnSelf(300);
        p.stop();
    }

    static void filter() throws Exception {
        Profiler p = Profiler.getInstance();
        Thread added = new Thread(ApiSelf::burnAdded, "added");
        Thread leftOut = new Thread(ApiSelf::burnLeftOut, "left-out");
        added.start();
        leftOut.start();
        p.addThread(added);
        p.addThread(leftOut);
        p.removeThread(leftOut);
        p.execute("start,event=ctimer,interval=1ms,filter");
        Thread.sleep(1500);
        p.stop();
        done = true;
        added.join();
        leftOut.join();
        String collapsed = p.dumpCollapsed();
        long in = samplesWith(collapsed, "ApiSelf.burnAdded")[0], out = samplesWith(collapsed, "ApiSelf.burnLeftOut")[0];
        check(in >= 20, "the added thread sampled: " + in + "\n" + collapsed);
        check(out == 0, "the removed thread not sampled: " + out);
        check(samplesWith(collapsed, "ApiSelf.main")[0] == 0, "the main thread, never added, not sampled");
        // Without filter every thread is sampled again.
        done = false;
        Thread again = new Thread(ApiSelf::burnLeftOut, "again");
        again.start();
        p.execute("start,event=ctimer,interval=1ms");
        Thread.sleep(1000);
        p.stop();
        done = true;
        again.join();
        check(samplesWith(p.dumpCollapsed(), "ApiSelf.burnLeftOut")[0] > 0, "no filter: every thread sampled");
    }

    static void jmx(Path work) throws Exception {
        // The MBean server first: starting it is heavy class loading, kept out of the burn's share.
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName("dev.libprof:type=Profiler");
        check(server.isRegistered(name), "the agent registered its MBean");
        String version = (String) server.getAttribute(name, "Version");
        check(version.matches("\\d+(\\.\\d+)+"), "Version through JMX, a bare number: " + version);
        burnSelf(1500);
        long samples = (Long) server.getAttribute(name, "Samples");
        check(samples >= 20, "Samples through JMX: " + samples);
        String status = (String) server.invoke(name, "execute", new Object[] {"status"}, new String[] {"java.lang.String"});
        check(status.contains("state: running"), "the -javaagent session runs:\n" + status);
        String collapsed = (String) server.invoke(name, "dumpCollapsed", new Object[0], new String[0]);
        // Of main's samples outside the MBean server's start and the profiler's own calls.
        long burn = samplesWith(collapsed, "ApiSelf.burnSelf")[0], main = samplesWith(collapsed, "ApiSelf.main")[0]
                - samplesWith(collapsed, "ManagementFactory.getPlatformMBeanServer")[0]
                - samplesWith(collapsed, "dev/libprof/Profiler.")[0];
        check(burn * 100 >= main * 80, "burnSelf through JMX, of main's samples: " + burn + " of " + main);
        // The JVM's exit ends the session and writes its file= (ApiTest reads it).
    }
}
