import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Integration tests of thread names and stack bounds on the helpers of IntegrationTest:
 * threads show their current names in every output, names cannot forge collapsed lines, and jstackdepth
 * bounds the whole recorded stack.
 * Usage (from ctest): java ThreadNamingTest <test> <java_home> <libprof.so> <workload classpath> <work dir>
 */
public class ThreadNamingTest extends IntegrationTest {
    public static void main(String[] args) throws Exception {
        runMain(args, test -> {
            switch (test) {
                case "thread_rename" -> rename();
                case "thread_name_escape" -> escape();
                case "thread_jvm_names" -> jvmNames();
                case "jstackdepth_vm" -> jstackdepth("vm");
                case "jstackdepth_fp" -> jstackdepth("fp");
                case "jstackdepth_dwarf" -> jstackdepth("dwarf");
                case "jstackdepth_no" -> jstackdepth("no");
                default -> throw new IllegalArgumentException("unknown test " + test);
            }
        });
    }

    /** Runs the workload in 'mode' with the agent writing 'file' (format from its extension). */
    static Path profile(String file, String options, String mode) throws Exception {
        Path out = work.resolve(file);
        Files.deleteIfExists(out);
        Run run = runJava("start,event=cpu,interval=1ms," + options + ",file=" + out, "ThreadNaming", mode);
        check(run.exit() == 0 && run.out().contains("done"), "workload failed: " + run.err());
        check(Files.exists(out), "no profile written at " + out);
        return out;
    }

    /** A thread renamed while it runs (and still running at the dump) and one renamed before it ended are
     * shown under their current names, never their start names, in collapsed, text, HTML and JFR. */
    static void rename() throws Exception {
        Map<String, Long> stacks = readCollapsed(profile("rename.collapsed", "threads", "rename"));
        long renamed = 0, ended = 0;
        for (var e : stacks.entrySet()) {
            String k = e.getKey();
            check(!k.contains("[A-start") && !k.contains("[C-start"), "a start name survived: " + k);
            if (k.startsWith("[B-renamed tid=") && k.contains("ThreadNaming.renamedWork")) renamed += e.getValue();
            if (k.startsWith("[D-ended tid=") && k.contains("ThreadNaming.endedWork")) ended += e.getValue();
        }
        System.out.println("  collapsed: B-renamed " + renamed + " samples, D-ended " + ended);
        check(renamed > 0, "no renamedWork samples under [B-renamed ...]");
        check(ended > 0, "no endedWork samples under [D-ended ...]");
        for (String file : List.of("rename.txt", "rename.html")) {
            String text = Files.readString(profile(file, "threads,traces=200", "rename"));
            check(text.contains("[B-renamed tid=") && text.contains("[D-ended tid="), file + " lacks the current names");
            check(!text.contains("A-start") && !text.contains("C-start"), file + " shows a start name");
        }
        Path jfr = profile("rename.jfr", "threads", "rename");
        String samples = JfrTest.jfr("print", "--events", "jdk.ExecutionSample", jfr.toString());
        check(samples.contains("\"B-renamed\"") && samples.contains("\"D-ended\""), "the JFR thread pool lacks the"
                + " current names");
        check(!samples.contains("A-start") && !samples.contains("C-start"), "the JFR thread pool shows a start name");
    }

    static final Pattern CUT_COMPILER = Pattern.compile("C[12] CompilerThre");
    static final Pattern FULL_COMPILER = Pattern.compile("C[12] CompilerThread\\d+");

    /** JVM-internal threads JVMTI does not report keep their OS names, cut to 15 characters by the kernel
     * ("C2 CompilerThre"), unless completed from the JVM: compiler threads show "C2 CompilerThread0" in
     * collapsed stacks and in the JFR thread pool. */
    static void jvmNames() throws Exception {
        Path file = work.resolve("jvm-names.collapsed");
        Run run = runJava("start,event=cpu,interval=1ms,threads,file=" + file, "Stress", "gc", "2");
        check(run.exit() == 0, "workload failed: " + run.err());
        long full = 0;
        for (var e : readCollapsed(file).entrySet()) {
            String thread = e.getKey().split(";", 2)[0];
            Matcher m = Pattern.compile("\\[(?:(.*) )?tid=\\d+\\]").matcher(thread);
            check(m.matches(), "no thread frame: " + e.getKey());
            if (m.group(1) == null) continue;   /* [tid=N]: a thread gone before it was named */
            check(!CUT_COMPILER.matcher(m.group(1)).matches(), "a compiler thread with its cut OS name: " + thread);
            if (FULL_COMPILER.matcher(m.group(1)).matches()) full += e.getValue();
        }
        System.out.println("  compiler thread samples under their full names: " + full);
        check(full > 0, "no samples under [C1 CompilerThreadN ...] or [C2 CompilerThreadN ...]");
        Path jfr = work.resolve("jvm-names.jfr");
        run = runJava("start,event=cpu,interval=1ms,file=" + jfr, "Stress", "gc", "2");
        check(run.exit() == 0, "workload failed: " + run.err());
        String samples = JfrTest.jfr("print", "--events", "jdk.ExecutionSample", jfr.toString());
        check(!Pattern.compile("\"C[12] CompilerThre\"").matcher(samples).find(), "JFR: a compiler thread with its cut"
                + " OS name");
        check(Pattern.compile("\"C[12] CompilerThread\\d+\"").matcher(samples).find(), "JFR: no compiler thread under"
                + " its full name");
    }

    static final Pattern THREAD_FRAME = Pattern.compile("\\[(?:[^;\\[\\]]* )?tid=\\d+\\]");

    /** A thread named "evil\nmain;x 999": every collapsed line is one stack rooted at one well-formed thread
     * frame, and the name appears escaped. */
    static void escape() throws Exception {
        Path file = profile("evil.collapsed", "threads", "evil");
        for (String line : Files.readAllLines(file)) {
            check(line.matches(".+ \\d+"), "malformed collapsed line: " + line);
            // Samples dropped without a stack close the file as "[dropped REASON] N" (out_collapsed.h).
            if (line.matches("\\[dropped [a-z_]+\\] \\d+")) continue;
            String first = line.split(";", 2)[0];
            check(THREAD_FRAME.matcher(first).matches(), "line does not start with a thread frame: " + line);
        }
        Map<String, Long> stacks = readCollapsed(file);
        long evil = 0;
        for (var e : stacks.entrySet()) {
            if (e.getKey().startsWith("[evil\\nmain\\x3bx 999 tid=") && e.getKey().contains("ThreadNaming.evilWork"))
                evil += e.getValue();
        }
        System.out.println("  evilWork samples under the escaped name: " + evil);
        check(evil > 0, "no evilWork samples under [evil\\nmain\\x3bx 999 tid=...]");
    }

    /** jstackdepth=20/15 on a 200-deep recursion: a stack shallower than 20 frames is whole, a deeper one keeps
     * its 15 leaf-most frames (deepLeaf, burn) under a [truncated] root, below its thread frame. */
    static void jstackdepth(String cstack) throws Exception {
        String mode = cstack.equals("vm") ? "" : ",cstack=" + cstack;
        Map<String, Long> stacks = readCollapsed(profile("deep-" + cstack + ".collapsed", "threads,jstackdepth=20/15" + mode,
                "deep"));
        long deep = 0, deepest = 0;
        for (var e : stacks.entrySet()) {
            List<String> frames = List.of(e.getKey().split(";"));
            int truncated = frames.indexOf("[truncated]");
            int depth = frames.size() - 1 - (truncated >= 0 ? 1 : 0);
            check(truncated < 0 ? depth < 20 : depth == 15, depth + " frames (jstackdepth=20/15): " + e.getKey());
            check(truncated < 0 || truncated == 1, "[truncated] not at the root end: " + e.getKey());
            deepest = Math.max(deepest, depth);
            if (e.getKey().contains("ThreadNaming.deepLeaf")) {
                check(truncated == 1, "a 200-deep stack is not marked truncated: " + e.getKey());
                if (e.getKey().contains("ThreadNaming.burn")) deep += e.getValue();
            }
        }
        System.out.println("  deepest stack " + deepest + " frames; deepLeaf;burn samples " + deep);
        check(deep > 0, "no truncated stack keeps its leaf frames ThreadNaming.deepLeaf and ThreadNaming.burn");
    }
}
