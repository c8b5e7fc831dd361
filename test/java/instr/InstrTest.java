import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The class file rewriter's end-to-end tests, run by ctest on every test JDK:
 *   behaviour JDK TOOL SUITE_CLASSES TOOLS_CP SUITE21_SRC WORKDIR
 *       rewrites the behaviour suite (test/java/instr/suite, plus suite21 compiled by JDKs >= 21) with
 *       classfile_tool, runs InstrSuite on the original and on the rewritten classes under -Xverify:all,
 *       and requires identical results, the helper-call checks passed, and exactly the expected refusal.
 *   jars JDK TOOL TOOLS_CP WORKDIR JAR...
 *       rewrites every class of each jar and of the JDK's own jdk.compiler module (javac; all methods
 *       selected) and loads and links each rewritten class
 *       under -Xverify:all with VerifyClasses; any VerifyError/ClassFormatError, refusal or output our own
 *       parser cannot read again fails the test.
 *   trace_behaviour, trace_jars: the same with the rewrite for timing calls (classfile_tool --trace): the
 *       suite's results must not change (exceptions go through the rethrowing handler), every traced call
 *       must have exited as often as it entered, and every class must verify.
 * Any hs_err file left by a JVM fails the test too.
 */
public class InstrTest {
    static final String HELPER = "libprof/CallCounter.hit";
    /** classfile_tool's arguments that choose the rewrite: sampling (hit) or timing (enter, exit). */
    static List<String> rewrite = List.of("--helper", HELPER);
    static boolean tracing;

    public static void main(String[] args) throws Exception {
        if (args[0].startsWith("trace_")) {
            tracing = true;
            rewrite = List.of("--helper", "libprof/CallCounter.enter", "--trace", "exit");
            args[0] = args[0].substring("trace_".length());
        }
        switch (args[0]) {
            case "behaviour":
                behaviour(Paths.get(args[1]), args[2], Paths.get(args[3]), args[4], Paths.get(args[5]), Paths.get(args[6]));
                break;
            case "jars":
                jars(Paths.get(args[1]), args[2], args[3], Paths.get(args[4]), Arrays.copyOfRange(args, 5, args.length));
                break;
            default:
                throw new IllegalArgumentException("unknown test " + args[0] + " (behaviour, jars)");
        }
        System.out.println("PASSED " + args[0]);
    }

    static void behaviour(Path jdk, String tool, Path suite, String toolsCp, Path suite21Src, Path work) throws Exception {
        clean(work);
        Path original = work.resolve("original"), rewritten = work.resolve("rewritten");
        copyTree(suite, original);
        if (featureVersion(jdk) >= 21) {  // CONSTANT_Dynamic cases need a JDK 21+ javac
            List<String> cmd = new ArrayList<>(List.of(jdk.resolve("bin/javac").toString(), "--release", "21", "-d",
                    original.toString()));
            try (Stream<Path> s = Files.list(suite21Src)) {
                s.filter(p -> p.toString().endsWith(".java")).forEach(p -> cmd.add(p.toString()));
            }
            expect(run(cmd, work).exit == 0, "suite21 compiles");
        }
        Result t = run(tool(tool, original.toString(), rewritten.toString()), work);
        System.out.print(t.out);
        ToolCounts counts = ToolCounts.parse(t.out);
        expect(t.exit == 0 && counts.rewritten > 0, "classfile_tool rewrote the suite");
        expect(counts.reparseFailed == 0, "every rewritten class parses again");
        if (tracing) {  // the exit calls need more room: LimitOk's method, 4 bytes from the limit, is refused too
            expect(counts.refused == 2 && t.out.contains("REFUSED LimitTooLong.class: code too long: 65532 bytes")
                    && t.out.contains("REFUSED LimitOk.class: code too long"), "exactly the two Limit classes refused");
        } else {
            expect(counts.refused == 1 && t.out.contains("REFUSED LimitTooLong.class: code too long: 65532 bytes"),
                    "exactly LimitTooLong refused, for its 65532-byte method");
        }
        Result a = run(List.of(jdk.resolve("bin/java").toString(), "-Xverify:all", "-cp", original + ":" + toolsCp,
                "InstrSuite"), work);
        Result b = run(List.of(jdk.resolve("bin/java").toString(), "-Xverify:all", "-cp", rewritten + ":" + toolsCp,
                "InstrSuite"), work);
        System.out.println("original run: exit " + a.exit + ", rewritten run: exit " + b.exit);
        b.out.lines().filter(l -> l.startsWith("#")).forEach(System.out::println);
        expect(a.exit == 0, "the original suite runs: " + a.out);
        expect(b.exit == 0, "the rewritten suite runs under -Xverify:all: " + tail(b.out));
        List<String> ra = results(a.out), rb = results(b.out);
        expect(ra.size() > 400, "the suite printed its results (" + ra.size() + " lines)");
        for (int i = 0; i < Math.max(ra.size(), rb.size()); i++) {
            String x = i < ra.size() ? ra.get(i) : "<none>", y = i < rb.size() ? rb.get(i) : "<none>";
            expect(x.equals(y), "same result as the original:\n  original:  " + x + "\n  rewritten: " + y);
        }
        if (tracing) {
            Matcher m = Pattern.compile("# traced calls entered (\\d+), exited (\\d+)").matcher(b.out);
            // Constructors have no rethrowing handler (classfile.h): Exceptions.Res's throws once, without an exit.
            expect(m.find() && Long.parseLong(m.group(1)) > 400 && Long.parseLong(m.group(1)) - Long.parseLong(m.group(2)) == 1,
                    "every traced call but one throwing constructor exited once: "
                    + (m.find(0) ? m.group() : "no count printed"));
        } else {
            expect(b.out.contains("# helper call checks") && b.out.contains(", failed 0"), "helper call counts checked");
        }
        noHsErr(work);
    }

    static void jars(Path jdk, String tool, String toolsCp, Path work, String[] jarPaths) throws Exception {
        clean(work);
        List<String> deps = new ArrayList<>(), outs = new ArrayList<>();
        for (String j : jarPaths) {
            expect(Files.isRegularFile(Paths.get(j)), j + " exists (build.sh installs it)");
            deps.add(Paths.get(j).toRealPath().toString());
        }
        boolean ok = true;
        long rewritten = 0;
        for (String j : deps) {
            String name = Paths.get(j).getFileName().toString().replaceAll("\\.jar$", "");
            Path in = work.resolve(name + "/in"), out = work.resolve(name + "/out");
            int classes = unzipClasses(Paths.get(j), in);
            Result t = run(tool(tool, in.toString(), out.toString()), work);
            ToolCounts c = ToolCounts.parse(t.out);
            System.out.println(name + ": " + classes + " classes; rewriter: " + c.line);
            t.out.lines().filter(l -> l.startsWith("REFUSED") || l.startsWith("REPARSE")).forEach(System.out::println);
            ok &= t.exit == 0 && c.refused == 0 && c.reparseFailed == 0;
            rewritten += c.rewritten;
            outs.add(out.toString());
        }
        // javac's own classes, from the JDK under test: what event=*.* on javac instruments
        Path modules = work.resolve("jimage");
        Result x = run(List.of(jdk.resolve("bin/jimage").toString(), "extract", "--include", "regex:/jdk.compiler/.*",
                "--dir", modules.toString(), jdk.resolve("lib/modules").toString()), work);
        expect(x.exit == 0, "jimage extracts jdk.compiler: " + x.out);
        Path javacOut = work.resolve("jdk.compiler/out");
        Result t = run(tool(tool, modules.resolve("jdk.compiler").toString(), javacOut.toString()),
                work);
        ToolCounts c = ToolCounts.parse(t.out);
        System.out.println("jdk.compiler of " + jdk + ": rewriter: " + c.line);
        t.out.lines().filter(l -> l.startsWith("REFUSED") || l.startsWith("REPARSE")).forEach(System.out::println);
        ok &= t.exit == 0 && c.refused == 0 && c.reparseFailed == 0 && c.rewritten > 1000;
        outs.add(javacOut.toString());

        List<String> cmd = new ArrayList<>(List.of(jdk.resolve("bin/java").toString(), "-Xverify:all", "-cp",
                toolsCp, "VerifyClasses", String.join(":", outs)));
        cmd.addAll(deps);
        Result v = run(cmd, work);
        System.out.print(v.out);
        noHsErr(work);
        expect(ok && rewritten > 0, "every class rewritten or left unchanged, none refused, all output readable");
        expect(v.exit == 0, "every rewritten class loads and verifies");
    }

    /** classfile_tool with the chosen rewrite and its other arguments. */
    static List<String> tool(String tool, String... args) {
        List<String> cmd = new ArrayList<>(List.of(tool));
        cmd.addAll(rewrite);
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** Extracts the .class entries outside META-INF (multi-release variants are not loadable by name). */
    static int unzipClasses(Path jar, Path dir) throws IOException {
        int n = 0;
        try (ZipFile z = new ZipFile(jar.toFile())) {
            for (ZipEntry e : z.stream().collect(Collectors.toList())) {
                if (e.isDirectory() || !e.getName().endsWith(".class") || e.getName().startsWith("META-INF/")) continue;
                Path to = dir.resolve(e.getName());
                Files.createDirectories(to.getParent());
                try (InputStream s = z.getInputStream(e)) {
                    Files.copy(s, to);
                }
                n++;
            }
        }
        return n;
    }

    static final class ToolCounts {
        long rewritten, refused, reparseFailed;
        String line = "no summary";

        static ToolCounts parse(String out) {
            ToolCounts c = new ToolCounts();
            Matcher m = Pattern.compile("(?m)^classes \\d+ rewritten (\\d+) unchanged \\d+ refused (\\d+) methods \\d+ "
                    + "reparse-failed (\\d+).*$").matcher(out);
            if (m.find()) {
                c.line = m.group();
                c.rewritten = Long.parseLong(m.group(1));
                c.refused = Long.parseLong(m.group(2));
                c.reparseFailed = Long.parseLong(m.group(3));
            } else {
                c.reparseFailed = -1;
            }
            return c;
        }
    }

    static final class Result {
        int exit;
        String out;
    }

    static Result run(List<String> cmd, Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path log = Files.createTempFile(dir, "run", ".out");
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        Result r = new Result();
        r.exit = p.waitFor();
        r.out = Files.readString(log);
        return r;
    }

    static List<String> results(String out) {
        return out.lines().filter(l -> !l.startsWith("#") && l.contains(") = ")).collect(Collectors.toList());
    }

    static int featureVersion(Path jdk) throws IOException {
        Properties p = new Properties();
        try (InputStream s = Files.newInputStream(jdk.resolve("release"))) {
            p.load(s);
        }
        String v = p.getProperty("JAVA_VERSION", "\"0\"").replace("\"", "");
        return Integer.parseInt(v.split("[.+-]")[0]);
    }

    static void noHsErr(Path work) throws IOException {
        try (Stream<Path> s = Files.walk(work)) {
            List<Path> crashes = s.filter(p -> p.getFileName().toString().startsWith("hs_err")).collect(Collectors.toList());
            expect(crashes.isEmpty(), "no JVM crashed: " + crashes);
        }
    }

    static void clean(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> s = Files.walk(dir)) {
                for (Path p : s.sorted((x, y) -> y.compareTo(x)).collect(Collectors.toList())) Files.delete(p);
            }
        }
        Files.createDirectories(dir);
    }

    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.collect(Collectors.toList())) {
                if (!p.toString().endsWith(".class")) continue;
                Path t = to.resolve(from.relativize(p).toString());
                Files.createDirectories(t.getParent());
                Files.copy(p, t);
            }
        }
    }

    static String tail(String s) {
        return s.length() > 3000 ? s.substring(s.length() - 3000) : s;
    }

    static void expect(boolean ok, String what) {
        if (!ok) {
            System.out.println("FAILED: " + what);
            System.exit(1);
        }
    }
}
