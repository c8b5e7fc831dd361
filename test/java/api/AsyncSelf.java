import one.profiler.AsyncProfiler;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;

/**
 * Drives libprof.so through async-profiler's native interface (one.profiler.AsyncProfiler's natives) the
 * way integrations built on that class do, and asserts on its own frames. Usage: AsyncSelf <libprof.so>.
 */
public class AsyncSelf {
    public static void main(String[] args) throws Exception {
        AsyncProfiler p = AsyncProfiler.getInstance(args[0]);
        String version = p.execute("version");
        ApiSelf.check(version.matches("\\d+(\\.\\d+)+"), "version, a bare number as async-profiler answers it: '" + version + "'");
        p.start("ctimer", 1_000_000);
        ApiSelf.burnSelf(1500);
        long samples = p.getSamples();
        ApiSelf.check(samples >= 20, "getSamples: " + samples);
        try {
            p.start("ctimer", 1_000_000);
            ApiSelf.check(false, "a second start succeeded");
        } catch (IllegalStateException e) {
            ApiSelf.check(e.getMessage().contains("already running"), "second start: " + e.getMessage());
        }
        p.stop();
        // What async-profiler's dumpCollapsed(SAMPLES), dumpTraces(5) and dumpFlat(5) send.
        String collapsed = p.execute("collapsed,samples");
        long[] share = ApiSelf.samplesWith(collapsed, "AsyncSelf.main;ApiSelf.burnSelf;ApiSelf.spin");
        long main = ApiSelf.samplesWith(collapsed, "AsyncSelf.main")[0];
        ApiSelf.check(share[0] * 100 >= main * 80, "burnSelf in >= 80% of main's samples: " + share[0] + " of " + main);
        ApiSelf.check(p.execute("traces=5").contains("ApiSelf.burnSelf"), "traces=5");
        ApiSelf.check(p.execute("flat=5").contains("ApiSelf.spin"), "flat=5");
        byte[] bytes = p.executeBytes("collapsed,samples");
        ApiSelf.check(new String(bytes, StandardCharsets.UTF_8).equals(collapsed), "execute1 returns the same bytes");
        try {
            p.execute("start,event=cpu,bogus=1");
            ApiSelf.check(false, "an unknown option was accepted");
        } catch (IllegalArgumentException e) {
            ApiSelf.check(e.getMessage().contains("bogus"), "unknown option named: " + e.getMessage());
        }
        // The thread filter, as async-profiler's addThread/removeThread call it (null: the calling thread).
        p.addThread(null);
        p.removeThread(null);
        p.execute("start,event=ctimer,interval=1ms,filter");
        ApiSelf.burnSelf(500);
        p.stop();
        ApiSelf.check(ApiSelf.samplesWith(p.execute("collapsed"), "ApiSelf.burnSelf")[0] == 0,
                "the removed calling thread is not sampled");
        p.addThread(null);
        p.execute("start,event=ctimer,interval=1ms,filter");
        ApiSelf.burnSelf(500);
        p.stop();
        ApiSelf.check(ApiSelf.samplesWith(p.execute("collapsed"), "ApiSelf.burnSelf")[0] > 0,
                "the added calling thread is sampled");
        // dump,jfr without a file inside a JFR session writes the recording so far to the session's file (in
        // the working directory), as async-profiler's does; ApiTest reads the copy with jfr.
        Path session = Paths.get("session.jfr");
        p.execute("start,event=ctimer,interval=1ms,file=" + session.toAbsolutePath());
        ApiSelf.burnSelf(500);
        p.execute("dump,jfr");
        ApiSelf.check(Files.size(session) > 0, "dump,jfr wrote nothing to the session's file");
        Files.copy(session, Paths.get("dumped.jfr"), StandardCopyOption.REPLACE_EXISTING);
        ApiSelf.burnSelf(200);
        p.stop();
        System.out.println("OK");
    }
}
