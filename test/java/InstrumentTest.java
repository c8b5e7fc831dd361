import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Integration tests of method instrumentation (event=pkg.Class.method): exact call counts, target
 * selection, JDK classes, attach with classes already loaded, stop restoring the original code, javac under
 * event=*.* with full verification, bad targets. Every rewritten class is verified (application classes always,
 * JDK classes under -Xverify:all), so a class the rewriter broke fails with a VerifyError. Usage (from ctest),
 * as IntegrationTest:
 *   java InstrumentTest <test> <java_home> <libprof.so> <workload classpath> <work dir>
 */
public class InstrumentTest {
    static final String VERIFY = "-Xverify:all";
    static final Pattern BROKEN = Pattern.compile("VerifyError|ClassFormatError|LinkageError|NoClassDefFoundError"
            + "|IllegalAccessError|UnsatisfiedLinkError");

    public static void main(String[] args) throws Exception {
        IntegrationTest.runMain(args, test -> {
            switch (test) {
                case "counts" -> counts();
                case "selection" -> selection();
                case "jdk_classes" -> jdkClasses();
                case "attach" -> attach();
                case "javac" -> javac();
                case "bad_targets" -> badTargets();
                default -> throw new IllegalArgumentException("unknown test " + test);
            }
        });
    }

    static void check(boolean condition, String message) {
        IntegrationTest.check(condition, message);
    }

    /** Runs InstrumentTarget with the agent; the run must succeed with nothing broken. Application classes are
     * verified anyway; -Xverify:all (slower start) where JDK classes are rewritten. */
    static IntegrationTest.Run target(String options) throws Exception {
        IntegrationTest.Run run = IntegrationTest.runJava(options, options.contains("event=java.") ? VERIFY : "-Xshare:auto",
                "InstrumentTarget", "calls");
        check(run.exit() == 0 && run.out().contains("TRUTH"), "workload failed under " + options + ": " + run.err());
        check(!BROKEN.matcher(run.err() + run.out()).find(), "broken class under " + options + ": " + run.err());
        check(!run.err().contains("left unchanged"), "the rewriter refused a class: " + run.err());
        return run;
    }

    static Map<String, Long> profile(String event, String extra, String name) throws Exception {
        Path file = IntegrationTest.work.resolve(name + ".collapsed");
        target("start,event=" + event + ",file=" + file + extra);
        return IntegrationTest.readCollapsed(file);
    }

    static Map<String, Long> withoutThreadIds(Map<String, Long> stacks) {
        Map<String, Long> out = new java.util.TreeMap<>();
        stacks.forEach((k, v) -> out.merge(k.replaceAll(" tid=\\d+\\]", "]").replaceAll("0x[0-9a-f]+", "0x"), v, Long::sum));
        return out;
    }

    /** Sum of the stacks whose leaf frame is 'leaf'. */
    static long leaf(Map<String, Long> stacks, String leaf) {
        long n = 0;
        for (var e : stacks.entrySet()) {
            if (e.getKey().equals(leaf) || e.getKey().endsWith(";" + leaf)) n += e.getValue();
        }
        return n;
    }

    static void expect(long actual, long expected, String what, Map<String, Long> stacks) {
        System.out.printf("  %s: %d (expected %d)%n", what, actual, expected);
        check(actual == expected, what + ": " + actual + " recorded calls, expected exactly " + expected + ": " + stacks);
    }

    /** 5000 calls from two threads: exactly 5000 stacks at interval=1, 500 at interval=10; every output says calls. */
    static void counts() throws Exception {
        Map<String, Long> all = profile("InstrumentTarget.hot", ",threads", "hot");
        expect(IntegrationTest.sum(all), 5000, "hot, interval=1", all);
        expect(leaf(all, "InstrumentTarget.worker;InstrumentTarget.hot"), 5000, "hot called from worker", all);
        for (String thread : List.of("worker-a", "worker-b")) {
            long n = all.entrySet().stream().filter(e -> e.getKey().startsWith("[" + thread + " tid="))
                    .mapToLong(Map.Entry::getValue).sum();
            expect(n, 2500, "hot on " + thread, all);
        }
        Map<String, Long> tenth = profile("InstrumentTarget.hot", ",interval=10", "hot10");
        expect(IntegrationTest.sum(tenth), 500, "hot, interval=10", tenth);
        // With 'total' each recorded call weighs the interval: an estimate of all calls.
        Map<String, Long> weighed = profile("InstrumentTarget.hot", ",interval=10,total", "hot10total");
        expect(IntegrationTest.sum(weighed), 5000, "hot, interval=10, total", weighed);
        // The fallback stack walk (JVMTI GetStackTrace) gives the same stacks as AsyncGetCallTrace.
        Path jvmtiFile = IntegrationTest.work.resolve("hot-jvmti.collapsed");
        IntegrationTest.Run run = IntegrationTest.runJavaWithEnv(Map.of("LIBPROF_TEST_INSTRUMENT_JVMTI", "1"),
                "start,event=InstrumentTarget.hot,threads,file=" + jvmtiFile, "InstrumentTarget", "calls");
        check(run.exit() == 0, "workload failed: " + run.err());
        Map<String, Long> jvmti = IntegrationTest.readCollapsed(jvmtiFile);
        expect(IntegrationTest.sum(jvmti), 5000, "hot, JVMTI stack walk", jvmti);
        check(withoutThreadIds(jvmti).equals(withoutThreadIds(all)), "JVMTI stacks differ: " + jvmti + " vs " + all);

        // A stack deeper than the first buffer (the 301 frames of deep() and main): whole, or cut at jstackdepth.
        Map<String, Long> deep = profile("InstrumentTarget.deepLeaf", "", "deep");
        String stack = deep.keySet().iterator().next();
        expect(stack.split(";").length, 303, "frames of the deep stack", deep);
        check(stack.startsWith("InstrumentTarget.main;InstrumentTarget.deep;") && !stack.contains("[truncated]"), stack);
        deep = profile("InstrumentTarget.deepLeaf", ",jstackdepth=200", "deep200");
        stack = deep.keySet().iterator().next();
        expect(stack.split(";").length, 200, "frames of the deep stack at jstackdepth=200", deep);
        check(stack.startsWith("InstrumentTarget.deep;") && stack.endsWith("InstrumentTarget.deepLeaf"), stack);
        deep = profile("InstrumentTarget.deepLeaf", ",jstackdepth=200/150", "deep200cut");
        stack = deep.keySet().iterator().next();
        expect(stack.split(";").length, 151, "frames of the deep stack at jstackdepth=200/150", deep);
        check(stack.startsWith("[truncated];InstrumentTarget.deep;") && stack.endsWith("InstrumentTarget.deepLeaf"), stack);

        Path text = IntegrationTest.work.resolve("hot.txt");
        target("start,event=InstrumentTarget.hot,file=" + text);
        String report = Files.readString(text);
        System.out.print(report.lines().limit(6).map(l -> "  " + l + "\n").reduce("", String::concat));
        check(report.contains("Engine         : instrument (event=InstrumentTarget.hot)"), "text report engine: " + report);
        check(report.contains("Calls recorded : 5000"), "text report count: " + report);
        Path html = IntegrationTest.work.resolve("hot.html");
        target("start,event=InstrumentTarget.hot,interval=100,file=" + html);
        String page = Files.readString(html);
        check(page.contains("\"units\":\"calls\"") && page.contains("\"total\":50,"), "HTML units or total: "
                + page.substring(Math.max(0, page.indexOf("\"units\"") - 10), Math.min(page.length(), page.indexOf("\"units\"") + 80)));
    }

    /** A descriptor picks one overload; '*' at the end of a method or class name; constructors. */
    static void selection() throws Exception {
        Map<String, Long> s = profile("InstrumentTarget.pick(Ljava/lang/String;)V", ",sig", "pick");
        expect(IntegrationTest.sum(s), 300, "pick(String) only", s);
        // In collapsed stacks the descriptors' ';' is escaped (\x3b): it is the frame separator there.
        expect(leaf(s, "InstrumentTarget.main([Ljava/lang/String\\x3b)V;InstrumentTarget.pick(Ljava/lang/String\\x3b)V"), 300,
                "pick(String) called from main", s);

        s = profile("InstrumentTarget.step*", "", "step");
        expect(leaf(s, "InstrumentTarget.stepOne"), 100, "stepOne", s);
        expect(leaf(s, "InstrumentTarget.stepTwo"), 50, "stepTwo", s);
        expect(IntegrationTest.sum(s), 150, "step*", s);

        s = profile("InstrumentTarget$Widget.<init>", "", "widget");
        expect(leaf(s, "InstrumentTarget.main;InstrumentTarget$Widget.<init>"), 400, "Widget constructor", s);
        expect(IntegrationTest.sum(s), 400, "constructors of Widget", s);

        s = profile("InstrumentTarget*.<init>", "", "inits");
        expect(leaf(s, "InstrumentTarget$Widget.<init>"), 400, "InstrumentTarget*.<init>", s);

        s = profile("InstrumentTarget.*", "", "everything");
        expect(leaf(s, "InstrumentTarget.hot"), 5000, "hot under InstrumentTarget.*", s);
        expect(leaf(s, "InstrumentTarget.pickLoop;InstrumentTarget.pick"), 200, "pick(int) under InstrumentTarget.*", s);
        expect(leaf(s, "InstrumentTarget.main"), 1, "main under InstrumentTarget.*", s);
        check(leaf(s, "InstrumentTarget$Widget.<init>") == 0, "InstrumentTarget.* selected a nested class: " + s);
    }

    /** JDK classes in java.base (boot loader, a named module): the helper must be reachable from them. */
    static void jdkClasses() throws Exception {
        Map<String, Long> s = profile("java.util.ArrayList.<init>", "", "arraylist");
        expect(leaf(s, "InstrumentTarget.makeLists;java/util/ArrayList.<init>"), 1000, "new ArrayList(int) in makeLists", s);
        s = profile("java.lang.Thread.<in*", "", "thread");
        expect(leaf(s, "InstrumentTarget.main;java/lang/Thread.<init>"), 2, "new Thread in main", s);
        s = profile("java.lang.*.<init>", ",interval=7", "javalang");
        check(IntegrationTest.sum(s) > 0, "java.lang.*.<init> recorded nothing");
    }

    /** Attach to a JVM whose methods are loaded and run already: RetransformClasses instruments them, stop restores. */
    static void attach() throws Exception {
        Path work = IntegrationTest.work;
        Process p = new ProcessBuilder(IntegrationTest.javaHome + "/bin/java", VERIFY, "-cp", IntegrationTest.classes,
                "InstrumentTarget", "serve").directory(work.toFile()).redirectError(work.resolve("serve.err").toFile())
                .start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream()));
             PrintWriter in = new PrintWriter(p.getOutputStream(), true)) {
            check("ready".equals(out.readLine()), "target not ready");
            Command run = line -> {
                in.println(line);
                String answer = out.readLine();
                check(("done " + line).equals(answer), "target answered '" + answer + "' to " + line);
            };
            run.send("hot 20000");   // loaded, run, probably compiled before the agent arrives
            run.send("pick 1000");
            var vm = com.sun.tools.attach.VirtualMachine.attach(String.valueOf(p.pid()));
            try {
                vm.loadAgentPath(IntegrationTest.agent, "start,event=InstrumentTarget.hot,log=" + work.resolve("agent.log"));
                Path status = work.resolve("status.txt");
                vm.loadAgentPath(IntegrationTest.agent, "status,file=" + status);
                String text = Files.readString(status);
                check(text.contains("engine: instrument") && text.contains("event: InstrumentTarget.hot"),
                        "status: " + text);
                check(IntegrationTest.refused(vm, "start,event=InstrumentTarget.pick"), "a second start was accepted");
                run.send("hot 3000");
                run.send("pick 500");
                Path first = work.resolve("attach1.collapsed");
                vm.loadAgentPath(IntegrationTest.agent, "stop,file=" + first);
                Map<String, Long> s = IntegrationTest.readCollapsed(first);
                expect(IntegrationTest.sum(s), 3000, "hot while attached", s);
                expect(leaf(s, "InstrumentTarget.serve;InstrumentTarget.worker;InstrumentTarget.hot"), 3000,
                        "hot from serve", s);

                // hot() runs its original code again: a session instrumenting pick() must not see it, though the
                // helper it would call is shared by every session.
                run.send("hot 2000");
                vm.loadAgentPath(IntegrationTest.agent, "start,event=InstrumentTarget.pick(I)V,interval=10");
                run.send("hot 4000");
                run.send("pick 700");
                Path second = work.resolve("attach2.collapsed");
                vm.loadAgentPath(IntegrationTest.agent, "stop,file=" + second);
                s = IntegrationTest.readCollapsed(second);
                expect(leaf(s, "InstrumentTarget.pickLoop;InstrumentTarget.pick"), 70, "pick at interval=10", s);
                expect(IntegrationTest.sum(s), 70, "only pick after hot was restored", s);
                check(IntegrationTest.refused(vm, "start,event=InstrumentTarget..pick"), "a bad target was accepted");
            } finally {
                vm.detach();
            }
            run.send("hot 100");
            in.println("exit");
            check(p.waitFor(30, TimeUnit.SECONDS), "target did not exit");
            String err = Files.readString(work.resolve("serve.err"));
            check(p.exitValue() == 0 && !BROKEN.matcher(err).find(), "target failed: " + err);
            IntegrationTest.noCrashReports();
        } finally {
            p.destroyForcibly();
        }
    }

    interface Command {
        void send(String line) throws Exception;
    }

    /** event=*.* on javac compiling 50 generated sources in two threads, with full verification. */
    static void javac() throws Exception {
        Path file = IntegrationTest.work.resolve("javac.collapsed"), corpus = IntegrationTest.work.resolve("corpus");
        IntegrationTest.Run run = IntegrationTest.runJava("start,event=*.*,interval=1000,loglevel=info,file=" + file, VERIFY,
                "InstrumentJavac", corpus.toString(), "25");
        check(run.exit() == 0 && run.out().contains("javac results 0 0"), "javac failed under *.*: " + run.out() + run.err());
        check(!BROKEN.matcher(run.err() + run.out()).find(), "broken class under *.*: " + run.err());
        Matcher m = Pattern.compile("(\\d+) methods in (\\d+) loaded classes instrumented, (\\d+) classes refused").matcher(run.err());
        check(m.find() && Long.parseLong(m.group(1)) > 1000, "too few methods instrumented at start: " + run.err());
        long refused = run.err().lines().filter(l -> l.contains("left unchanged")).count();
        System.out.println("  classes the rewriter left unchanged: " + refused);
        Map<String, Long> s = IntegrationTest.readCollapsed(file);
        long javacStacks = s.entrySet().stream().filter(e -> e.getKey().contains("com/sun/tools/javac/"))
                .mapToLong(Map.Entry::getValue).sum();
        System.out.printf("  %d recorded calls, %d inside javac%n", IntegrationTest.sum(s), javacStacks);
        check(javacStacks > 1000, "the profile misses javac: " + javacStacks);
        for (int t = 0; t < 2; t++) {
            check(Files.exists(corpus.resolve("out" + t).resolve("Gen" + t + "_24.class")), "javac wrote no class files");
        }
    }

    /** Bad targets stop the JVM at start-up with a message naming the value and what is accepted. */
    static void badTargets() throws Exception {
        for (String bad : List.of("java..Thread.run", "Foo.<bar>", "Foo.run(Ljava.lang.String;)V", "Foo.ru*n")) {
            IntegrationTest.Run run = IntegrationTest.runJava("start,event=" + bad, "InstrumentTarget", "calls");
            check(run.exit() != 0 && !run.out().contains("TRUTH"), "JVM started despite event=" + bad);
            check(run.err().contains("event=" + bad) && run.err().contains("accepted: pkg.Class.method"),
                    "message for event=" + bad + ": " + run.err());
        }
    }
}
