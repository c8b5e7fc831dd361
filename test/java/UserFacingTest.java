import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a user sees first: the demo's summary, a quiet stderr, where the
 * agent's messages go and which files it refuses to log into, native names without GCC clone suffixes, and
 * stop/dump after a session ended. On the helpers of IntegrationTest.
 * Usage (from ctest): java -Dsource.dir=<repo> UserFacingTest <test> <java_home> <libprof.so> <classes> <work dir>
 */
public class UserFacingTest extends IntegrationTest {
    public static void main(String[] args) throws Exception {
        runMain(args, test -> {
            switch (test) {
                case "demo_summary" -> demoSummary();
                case "quiet_stderr" -> quietStderr();
                case "log_file_refused" -> logFileRefused();
                case "log_after_attach" -> logAfterAttach();
                case "ended_session" -> endedSession();
                case "native_names" -> nativeNames();
                default -> throw new IllegalArgumentException("unknown test " + test);
            }
        });
    }

    static String jprof() {
        return Path.of(agent).getParent().resolveSibling("bin").resolve("jprof").toString();
    }

    /** Runs a command to its end (60 s at most), stdout and stderr apart. */
    static Run command(List<String> cmd) throws Exception {
        Path out = Files.createTempFile(work, "cmd", ".out"), err = Files.createTempFile(work, "cmd", ".err");
        Process p = new ProcessBuilder(cmd).directory(work.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("did not finish in 60 s: " + cmd);
        }
        Run run = new Run(p.exitValue(), Files.readString(out), Files.readString(err));
        System.out.println("$ " + String.join(" ", cmd) + "\n  exit " + run.exit() + "\n  stderr: " + run.err().strip());
        return run;
    }

    /** A JVM with the agent running 'main' in the background; its stdout and stderr go to 'output'. */
    static Process startJava(String agentOptions, Path output, String... mainAndArgs) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(javaHome + "/bin/java", "-agentpath:" + agent + "=" + agentOptions,
                "-cp", classes));
        cmd.addAll(List.of(mainAndArgs));
        return new ProcessBuilder(cmd).directory(work.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile()).start();
    }

    static List<String> agentLines(String text) {
        return text.lines().filter(l -> l.startsWith("[libprof]")).toList();
    }

    /** ./build.sh demo's summary on a real demo profile: exit 0 under pipefail on a profile far larger than a
     *  pipe's buffer, the hottest leaf methods first, stacks read from the leaf with the demo's methods. */
    static void demoSummary() throws Exception {
        Path file = work.resolve("demo.collapsed");
        Run demo = runJava("start,event=cpu,interval=1ms,file=" + file, "Demo", "2");
        check(demo.exit() == 0, "demo failed: " + demo.err());
        Map<String, Long> stacks = readCollapsed(file);
        System.out.println("  demo profile: " + Files.size(file) + " bytes, " + stacks.size() + " stacks");
        Run run = command(List.of("bash", System.getProperty("source.dir") + "/build.sh", "demo-summary", file.toString()));
        System.out.print(run.out());
        check(run.exit() == 0, "the summary exited " + run.exit() + ": " + run.err());
        // The leaf frame with the most self samples, computed here from the profile itself.
        Map<String, Long> self = new java.util.HashMap<>();
        stacks.forEach((stack, n) -> self.merge(stack.substring(stack.lastIndexOf(';') + 1), n, Long::sum));
        long top = self.values().stream().mapToLong(Long::longValue).max().orElse(0);
        List<String> lines = run.out().lines().toList();
        int methods = lines.indexOf(lines.stream().filter(l -> l.startsWith("hottest methods")).findFirst().orElse(""));
        int stackAt = lines.indexOf("hottest stacks, leaf first:");
        check(methods >= 0 && stackAt > methods + 1, "summary sections missing: " + run.out());
        Matcher first = Pattern.compile("^\\s+(\\d+)\\s+[0-9.]+%\\s+(.+)$").matcher(lines.get(methods + 1));
        check(first.matches() && Long.parseLong(first.group(1)) == top && self.get(first.group(2)) == top,
                "the first hot method is not the leaf with the most self samples (" + top + "): " + lines.get(methods + 1));
        List<String> stackLines = lines.subList(stackAt + 1, lines.size());
        check(stackLines.size() == Math.min(5, stacks.size()), "not 5 hottest stacks: " + stackLines);
        for (String l : stackLines) {
            String leaf = l.strip().replaceFirst("^\\d+\\s+", "").split(" <- ")[0];
            check(self.containsKey(leaf), "a stack line does not start at a leaf frame: " + l);
        }
        // As the leaf or under it: the sort's stacks are deep enough that the summary's 150 columns may end
        // before their Demo caller, so a Demo method may appear only as a leaf.
        check(stackLines.stream().anyMatch(l -> l.matches("\\s*\\d+\\s+(.* <- )?Demo\\.(countWords|sortNumbers|compress|makeWords)( <- .*)?")),
                "no hottest stack names the demo's own methods: " + stackLines);
    }

    /** By default the application's stderr gets nothing but warnings and errors; a log= file and
     *  loglevel=info get the INFO lines. */
    static void quietStderr() throws Exception {
        Path file = work.resolve("quiet.collapsed"), log = work.resolve("quiet.log");
        Run run = runJava("start,event=itimer,interval=1ms,file=" + file, "Burn7525", "0.5");
        check(run.exit() == 0, "workload failed: " + run.err());
        check(agentLines(run.err()).isEmpty(), "the agent wrote on the application's stderr: " + run.err());
        check(sum(readCollapsed(file)) > 0, "no profile");
        run = runJava("start,event=itimer,interval=1ms,file=" + file + ",log=" + log, "Burn7525", "0.5");
        check(agentLines(run.err()).isEmpty(), "with log=, the agent wrote on stderr: " + run.err());
        String logged = Files.readString(log);
        check(logged.contains("INFO: profiling started: engine itimer") && logged.contains("INFO: profile written to "),
                "the log file lacks the INFO lines: " + logged);
        run = runJava("start,event=itimer,interval=1ms,loglevel=info,file=" + file, "Burn7525", "0.5");
        check(run.err().contains("[libprof] INFO: profiling started: engine itimer"), "loglevel=info: " + run.err());
    }

    /** log= never follows another user's symbolic link (our own, such as /dev/stderr, it does), never blocks
     *  on a FIFO, never takes a file of another user: the JVM runs, the message names the file and the reason, and the messages go to stderr instead.
     *  Everything happens in a sacrificial directory of this test. */
    static void logFileRefused() throws Exception {
        Path dir = Files.createTempDirectory(work, "logdir");
        Path victim = dir.resolve("victim.txt"), link = dir.resolve("link.log"), fifo = dir.resolve("fifo.log");
        Files.writeString(victim, "precious\n");
        Files.createSymbolicLink(link, victim);
        Path file = work.resolve("refused.collapsed");
        // A link another user planted is never followed (as root the test plays both users: the link is
        // given to nobody); a link of our own is followed as outputs follow one, into what passes the checks.
        boolean root = System.getProperty("user.name").equals("root");
        Run run;
        if (root) {
            check(command(List.of("chown", "-h", "nobody", link.toString())).exit() == 0, "chown -h failed");
            run = runJava("start,event=itimer,file=" + file + ",log=" + link, "Burn7525", "0.3");
            check(run.exit() == 0, "the JVM did not run: " + run.err());
            check(Files.readString(victim).equals("precious\n"), "log= wrote through another user's link: "
                    + Files.readString(victim));
            check(Files.isSymbolicLink(link), "the link was replaced");
            check(run.err().contains("[libprof] ERROR: log=" + link + ": not used: '" + link
                    + "' leads through a symbolic link of another user") && run.err().contains("messages go to stderr"),
                    "no message naming the link: " + run.err());
        }
        run = runJava("start,event=itimer,loglevel=info,file=" + file + ",log=/dev/stderr", "Burn7525", "0.3");
        check(run.exit() == 0 && run.err().contains("INFO: profiling started") && !run.err().contains("ERROR: log="),
                "log=/dev/stderr (a link of root's to our own stderr) was not followed: " + run.err());

        check(command(List.of("mkfifo", fifo.toString())).exit() == 0, "mkfifo failed");
        Process p = startJava("start,event=itimer,file=" + file + ",log=" + fifo, work.resolve("fifo.out"), "Burn7525", "0.3");
        boolean ended = p.waitFor(60, TimeUnit.SECONDS);
        p.destroyForcibly();
        String out = Files.readString(work.resolve("fifo.out"));
        check(ended && p.exitValue() == 0, "the JVM blocked or failed on a FIFO log=: " + out);
        check(out.contains("log=" + fifo + ": is a FIFO or socket"), "no message naming the FIFO: " + out);

        Path mine = dir.resolve("mine.log");
        Files.writeString(mine, "earlier line\n");
        run = runJava("start,event=itimer,file=" + file + ",log=" + mine, "Burn7525", "0.3");
        String kept = Files.readString(mine);
        check(kept.startsWith("earlier line\n") && kept.contains("INFO: profiling started"), "not appended: " + kept);
        if (root) {
            Path theirs = dir.resolve("theirs.log");
            Files.writeString(theirs, "");
            check(command(List.of("chown", "nobody", theirs.toString())).exit() == 0, "chown failed");
            run = runJava("start,event=itimer,file=" + file + ",log=" + theirs, "Burn7525", "0.3");
            check(Files.readString(theirs).isEmpty(), "log= wrote into another user's file");
            check(run.err().contains("log=" + theirs + ": not used: '" + theirs + "' is a file of another user (uid "),
                  "no message naming the owner: " + run.err());
        }
    }

    /** An attach request (jprof status) in the middle of a session started with log=: the session's later
     *  messages still go to its file, not to the application's stderr. */
    static void logAfterAttach() throws Exception {
        Path file = work.resolve("attached.collapsed"), log = work.resolve("session.log"), out = work.resolve("app.out");
        for (Path old : List.of(file, log)) Files.deleteIfExists(old);   // a log is appended to: start afresh
        Process p = startJava("start,event=itimer,interval=1ms,file=" + file + ",log=" + log, out, "Burn7525", "5");
        try {
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!(Files.exists(log) && Files.readString(log).contains("profiling started")) && System.nanoTime() < deadline)
                Thread.sleep(100);
            Run status = command(List.of(jprof(), "status", String.valueOf(p.pid())));
            check(status.exit() == 0 && status.out().contains("state: running"), "jprof status: " + status.out());
            check(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "the JVM failed: " + Files.readString(out));
        } finally {
            p.destroyForcibly();
        }
        String logged = Files.readString(log), output = Files.readString(out);
        System.out.print("  session log:\n" + logged);
        check(logged.contains("INFO: profile written to " + file), "the end of the session is not in its log: " + logged);
        check(agentLines(output).isEmpty(), "after the attach request the agent wrote on stderr: " + output);
    }

    /** stop and dump after a session ended by timeout= (and by jprof -d) write its profile again, in the
     *  format and file asked for. */
    static void endedSession() throws Exception {
        Path file = work.resolve("timeout.collapsed"), out = work.resolve("ended.out");
        Files.deleteIfExists(file);   // a previous run's profile would pass for this one's
        Process p = startJava("start,event=itimer,interval=1ms,timeout=1,file=" + file, out, "Burn7525", "12");
        try {
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!(Files.exists(file) && Files.size(file) > 0) && System.nanoTime() < deadline) Thread.sleep(100);
            Thread.sleep(300);   // written in place: let the writer finish
            Map<String, Long> stacks = readCollapsed(file);
            String pid = String.valueOf(p.pid());
            Path text = work.resolve("again.txt");
            Run stop = command(List.of(jprof(), "stop", "-f", text.toString(), pid));
            check(stop.exit() == 0, "stop after timeout= failed: " + stop.err());
            check(Files.readString(text).contains("Total samples       : " + sum(stacks)),
                    "stop did not write the timed-out session's profile as text: " + Files.readString(text));
            Run dump = command(List.of(jprof(), "dump", "-o", "collapsed", pid));
            check(dump.exit() == 0, "dump after timeout= failed: " + dump.err());
            Path dumped = work.resolve("dumped.collapsed");
            Files.writeString(dumped, dump.out());
            check(readCollapsed(dumped).equals(stacks), "dump did not return the timed-out session's stacks");
            // A session of jprof -d: the next stop returns its profile.
            Run collect = command(List.of(jprof(), "-d", "1", "-i", "1ms", "-o", "collapsed", pid));
            check(collect.exit() == 0, "jprof -d failed: " + collect.err());
            Files.writeString(dumped, collect.out());
            Map<String, Long> collected = readCollapsed(dumped);
            Run again = command(List.of(jprof(), "stop", "-o", "collapsed", pid));
            Files.writeString(dumped, again.out());
            check(again.exit() == 0 && readCollapsed(dumped).equals(collected), "stop after jprof -d: " + again.err());
        } finally {
            p.destroyForcibly();
        }
    }

    static final Pattern CLONE = Pattern.compile(" \\[clone |\\.(isra|part|constprop|cold|lto_priv)(\\.\\d+)?(\\.|$)");

    /** Native frames are named without GCC clone suffixes: libjvm's jni_invoke_static exists only as
     *  .constprop clones and sits on the main thread's root. */
    static void nativeNames() throws Exception {
        Path file = work.resolve("names.collapsed");
        Run run = runJava("start,event=itimer,interval=1ms,file=" + file, "Burn7525", "1");
        check(run.exit() == 0, "workload failed: " + run.err());
        Map<String, Long> stacks = readCollapsed(file);
        check(sumContaining(stacks, "jni_invoke_static") > 0, "no jni_invoke_static frame on the main thread's root");
        for (String stack : stacks.keySet()) {
            for (String frame : stack.split(";")) check(!CLONE.matcher(frame).find(), "clone suffix in " + frame);
        }
    }
}
