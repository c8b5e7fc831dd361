import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Java frames the cstack=vm walker names itself, without AsyncGetCallTrace: inlined frames
 * from the nmethods' debug information, the execution type of every Java frame (with 'ann' and in JFR),
 * samples inside JIT stubs with their Java callers intact, and features=agct.
 * Usage (from ctest, as IntegrationTest): java JavaFramesTest <case> <java_home> <libprof.so> <classes> <work>
 */
public class JavaFramesTest extends IntegrationTest {
    /** Forces the known chain: inlinee inlined into hotCaller, work kept out of line. */
    static final List<String> INLINE_FLAGS = List.of("-XX:CompileCommand=quiet",
            "-XX:CompileCommand=inline,JavaFrames::inlinee", "-XX:CompileCommand=dontinline,JavaFrames::work");

    public static void main(String[] args) throws Exception {
        runMain(args, test -> {
            switch (test) {
                case "inlined_chain" -> inlinedChain();
                case "frame_types" -> frameTypes();
                case "arraycopy_stub" -> stubCallers("arraycopy", "JavaFrames.deleteFromFront", "arraycopy", 50);
                case "megamorphic_stub" -> stubCallers("megamorphic", "JavaFrames.callShapes", "itable stub", 10);
                case "agct_feature" -> agctFeature();
                default -> throw new IllegalArgumentException("unknown test " + test);
            }
        });
    }

    /** Profiles 'mode' of JavaFrames for 'seconds' with the JVM flags given; the collapsed stacks. */
    static Map<String, Long> profile(String name, String options, List<String> flags, String mode, String seconds)
            throws Exception {
        Path file = work.resolve(name + ".collapsed");
        List<String> args = new ArrayList<>(flags);
        args.addAll(List.of("JavaFrames", mode, seconds));
        Run run = runJava("start,event=cpu,interval=1ms,loglevel=info,ann," + options + "file=" + file,
                args.toArray(new String[0]));
        check(run.exit() == 0 && run.out().contains("JAVAFRAMES " + mode + " done"), "workload failed: " + run.err());
        check(run.err().contains("cstack=vm"), "not profiled with cstack=vm: " + run.err());
        return readCollapsed(file);
    }

    /** Samples whose stack contains 'part' (frames joined by ';', root first). */
    static long containing(Map<String, Long> stacks, String part) {
        return stacks.entrySet().stream().filter(e -> (e.getKey() + ";").contains(part)).mapToLong(Map.Entry::getValue)
                .sum();
    }

    /**
     * hotCaller -> inlinee (inlined by C2) -> work: >= 80% of work's samples show the chain with inlinee
     * marked inlined between the two compiled frames, in the collapsed output and, as the JFR frame type
     * "Inlined", in a recording read by the JDK's jfr tool.
     */
    static void inlinedChain() throws Exception {
        Map<String, Long> stacks = profile("inline", "", INLINE_FLAGS, "inline", "0.8");
        long inWork = containing(stacks, "JavaFrames.work_["), chain = containing(stacks,
                "JavaFrames.hotCaller_[j];JavaFrames.inlinee_[i];JavaFrames.work_[j];");
        long total = sum(stacks), failed = failureSamples(stacks);
        System.out.printf("  %d samples, %d in work, %d with the inlined chain (%.1f%%), %d failed%n", total, inWork, chain,
                100.0 * chain / Math.max(1, inWork), failed);
        check(inWork > 100, "too few samples in work: " + inWork);
        check(chain * 100 >= inWork * 80, "the inlined chain in only " + chain + " of " + inWork + " samples");
        check(failed * 100 <= total, "failure markers on " + failed + " of " + total);

        Path jfrFile = work.resolve("inline.jfr");
        List<String> args = new ArrayList<>(INLINE_FLAGS);
        args.addAll(List.of("JavaFrames", "inline", "0.6"));
        Run run = runJava("start,event=cpu,interval=1ms,file=" + jfrFile, args.toArray(new String[0]));
        check(run.exit() == 0, "JFR workload failed: " + run.err());
        String json = JfrTest.jfr("print", "--json", "--events", "jdk.ExecutionSample", jfrFile.toString());
        Map<String, Integer> types = new java.util.TreeMap<>();
        Matcher m = Pattern.compile("\"name\": \"(inlinee|hotCaller|main|loop)\"[\\s\\S]*?\"type\": \"([^\"]+)\"").matcher(json);
        while (m.find()) types.merge(m.group(1) + ":" + m.group(2), 1, Integer::sum);
        System.out.println("  JFR frame types: " + types);
        int inlined = types.getOrDefault("inlinee:Inlined", 0), inlinee = types.entrySet().stream()
                .filter(e -> e.getKey().startsWith("inlinee:")).mapToInt(Map.Entry::getValue).sum();
        check(inlinee > 50 && inlined * 100 >= inlinee * 70, "JFR: inlinee typed Inlined in " + inlined + " of " + inlinee);
        check(types.getOrDefault("hotCaller:JIT compiled", 0) > 50, "JFR: hotCaller not typed JIT compiled: " + types);
        check(types.getOrDefault("loop:Interpreted", 0) + types.getOrDefault("main:Interpreted", 0) > 50, "JFR: main (never compiled) not Interpreted: " + types);
    }

    /**
     * One method, three JVMs: with -Xint it runs interpreted (_[0]), with C1 only (TieredStopAtLevel=1)
     * C1-compiled (_[1]), with C2 only (-TieredCompilation) C2-compiled (_[j], after its interpreted start).
     */
    static void frameTypes() throws Exception {
        String[][] runs = {{"-Xint", "_[0]", "90"}, {"-XX:TieredStopAtLevel=1", "_[1]", "80"},
                {"-XX:-TieredCompilation", "_[j]", "80"}};
        for (String[] r : runs) {
            /* warming stays a frame of its own: C2 would inline it into loop's OSR compilation */
            Map<String, Long> stacks = profile("warm" + r[1].charAt(2), "",
                    List.of(r[0], "-XX:CompileCommand=quiet", "-XX:CompileCommand=dontinline,JavaFrames::warming"), "warm", "0.6");
            long all = containing(stacks, "JavaFrames.warming_["), typed = containing(stacks, "JavaFrames.warming" + r[1] + ";");
            System.out.printf("  %s: %d samples in warming, %d typed %s (%.1f%%)%n", r[0], all, typed, r[1],
                    100.0 * typed / Math.max(1, all));
            check(all > 100, r[0] + ": too few samples in warming: " + all);
            check(typed * 100 >= all * Long.parseLong(r[2]), r[0] + ": warming typed " + r[1] + " in only " + typed + " of " + all);
        }
    }

    /**
     * A workload whose time is in JIT stubs (the arraycopy stub, itable stubs): the samples of its loop keep
     * their Java callers from the workload's method down to main and the thread's root, with no
     * [unknown_Java] (at most 0.5%); at least 'stubShare' percent of them end in the stub, named (its name contains
     * 'stub'), right above the workload's method.
     */
    static void stubCallers(String mode, String caller, String stub, int stubShare) throws Exception {
        Map<String, Long> stacks = profile(mode, "", List.of(), mode, "0.8");
        long loop = containing(stacks, "JavaFrames.loop_["), intact = 0, unknown = containing(stacks, "[unknown_Java];");
        for (var e : stacks.entrySet()) {
            String s = e.getKey() + ";";
            if (s.contains("JavaFrames.main_[0];JavaFrames.loop_[") && s.contains(caller + "_[") && s.contains("start_thread;"))
                intact += e.getValue();
        }
        long inStub = 0;
        for (var e : stacks.entrySet()) {
            String[] frames = e.getKey().split(";");
            String leaf = frames[frames.length - 1];
            if (leaf.contains(stub) && !leaf.endsWith("_[j]") && e.getKey().contains(caller + "_[")) inStub += e.getValue();
        }
        long total = sum(stacks), failed = failureSamples(stacks);
        System.out.printf("  %s: %d samples, %d in the loop, %d with %s, main and the root (%.1f%%), %d in a stub named"
                + " '*%s*' (%.1f%%), %d [unknown_Java], %d failed%n", mode, total, loop, intact, caller,
                100.0 * intact / Math.max(1, loop), inStub, stub, 100.0 * inStub / Math.max(1, loop), unknown, failed);
        check(inStub * 100 >= loop * stubShare, "samples in the stub '" + stub + "': only " + inStub + " of " + loop);
        check(loop > 100, "too few samples in the loop: " + loop);
        check(intact * 100 >= loop * 90, "callers intact in only " + intact + " of " + loop);
        /* The target is below 0.1%; on JDK 17 a leaf in its prologue whose return address safe_read
         * cannot read still fails to step in up to 0.3% of these samples: bounded at 0.5% until fixed. */
        check(unknown * 200 <= total, unknown + " samples with [unknown_Java] of " + total);
        check(failed * 100 <= total, "failure markers on " + failed + " of " + total);
    }

    /** features=agct: the Java frames from AsyncGetCallTrace, still typed by the walker; a bad feature is refused. */
    static void agctFeature() throws Exception {
        Map<String, Long> stacks = profile("agct", "features=agct,", INLINE_FLAGS, "inline", "0.6");
        long inWork = containing(stacks, "JavaFrames.work_["), chain = containing(stacks,
                "JavaFrames.hotCaller_[j];JavaFrames.inlinee_[i];JavaFrames.work_[j];");
        System.out.printf("  features=agct: %d in work, %d with the inlined chain%n", inWork, chain);
        check(inWork > 100 && chain * 100 >= inWork * 70, "features=agct: chain in " + chain + " of " + inWork);
        Run bad = runJava("start,features=agct+vtables,file=" + work.resolve("bad.collapsed"), "JavaFrames", "warm", "0.1");
        check(bad.exit() != 0 && bad.err().contains("features=agct+vtables") && bad.err().contains("accepted: agct"),
                "a bad feature is not refused clearly: " + bad.err());
    }
}
