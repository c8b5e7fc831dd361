import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Failure markers.
 * deopt_storm: DeoptStorm keeps invalidating the compiled frames of a recursion through a MutableCallSite,
 * so samples land in frames being deoptimised, in the deoptimisation blob, in interpreted method handle
 * frames and their adapters. Before the walker stepped those (interpreter return entries, frames in their
 * deoptimisation handler, method handle intrinsics) 4.4% (JDK 17) and 5.6% (Temurin 25) of its samples
 * carried a failure marker; now about 0.5%. The bound, 1.5%, sits between the two.
 * exception_blob, subtype_check: samples in HotSpot stubs whose frame the walker reads from their code
 * (StubFrames.java, agent/signal/stub_frames.c) keep their Java callers: C2's exception blob right under the
 * compiled frame that threw, C1's slow_subtype_check stub right under the C1 method that called it. Before,
 * a sample at the exception blob's entry ended in [unknown_Java] (1 of 2-4 such samples per run), and
 * nearly every slow_subtype_check sample lost its caller: 0 of 115-307 were under StubFrames.subtypeLoop
 * (the walker took a stale return address into the call stub), the rest ended in [unknown_Java] (1.6-4%
 * of all samples); now all of them are under their callers and no sample carries a marker.
 * deopt_unpack: DeoptUnpack deoptimises its compiled chain loop -> level1 -> ... -> level8 over and over, so
 * samples land in Deoptimization::unpack_frames while the interpreter frames that replace the chain are
 * being filled in. Their Java frames are named from the thread's vframeArray (agent/signal/deopt_frames.c):
 * nearly every such sample must have the chain, from main (called by the VM) on, right under unpack_frames
 * (underChain). Before, each ended in [deopt] with no Java frame at all (2.8% of all samples on Temurin 25).
 * transit: TransitFrames' compiled caller calls two methods that stay interpreted, so samples land where the
 * return address is in a register or the frame is a jump stub (agent/signal/transit_frames.c): the static
 * call stub, the C2I adapter, the interpreter's entry pushing locals and its return, its exception
 * continuation. Every sample must keep the workload's one chain (main -> caller -> a callee, or a prefix),
 * the adapter's samples right under the caller. Before, 6-8% of the samples (JDK 17 and 25) ended in
 * [unknown_Java] with no other frame, 68% with 'wide' and its 200 locals, and 0.2-3% were named
 * main -> caller -> main.
 * virtual_threads (JDK 21+): VirtualWork's virtual threads spin and yield, so their lowest thawed frame returns
 * to the continuation's return barrier and the frames below it are frozen on the heap. Such a stack ends in
 * [frozen_frames] (not a failure); the spinning frames above it are whole. Before, 94% of the virtual
 * threads' samples ended in [unknown_Java] there.
 */
public class FailureMarkersTest extends IntegrationTest {
    static final double MAX_MARKER_PERCENT = 1.5;
    static final double MAX_STUB_MARKER_PERCENT = 0.5, MIN_KEPT_PERCENT = 95;

    public static void main(String[] args) throws Exception {
        runMain(args, test -> {
            switch (test) {
                case "deopt_storm" -> deoptStorm();
                case "exception_blob" -> stubCallers("exceptions", "ExceptionBlob", "StubFrames.down", 5);
                case "subtype_check" -> stubCallers("subtype", "slow_subtype_check", "StubFrames.subtypeLoop", 50,
                        "-XX:TieredStopAtLevel=1");
                case "deopt_unpack" -> deoptUnpack();
                case "transit" -> transit();
                case "virtual_threads" -> virtualThreads();
                default -> throw new AssertionError("unknown test " + test);
            }
        });
    }

    static void deoptStorm() throws Exception {
        Path file = work.resolve("deopt.collapsed");
        Run run = runJava("start,event=cpu,interval=1ms,file=" + file, "DeoptStorm", "2");
        check(run.exit() == 0, "workload failed: " + run.err());
        Map<String, Long> stacks = readCollapsed(file);
        long total = 0, marked = 0, recursion = 0;
        for (var e : stacks.entrySet()) {
            total += e.getValue();
            if (e.getKey().contains("DeoptStorm.recurse")) recursion += e.getValue();
            for (String frame : e.getKey().split(";")) {
                if (FAILURE_MARKERS.contains(frame)) {
                    marked += e.getValue();
                    break;
                }
            }
        }
        double percent = 100.0 * marked / Math.max(total, 1);
        System.out.printf("  %d samples, %d in the recursion, %d with a failure marker (%.2f%%)%n", total, recursion,
                marked, percent);
        check(recursion > 1000, "too few samples in the recursion: " + recursion);
        check(percent < MAX_MARKER_PERCENT, String.format("%.2f%% of the samples carry a failure marker (bound %.1f%%)",
                percent, MAX_MARKER_PERCENT));
    }

    static final String UNPACK = "Deoptimization::unpack_frames";
    static final List<String> CHAIN = List.of("DeoptUnpack.main", "DeoptUnpack.loop", "DeoptUnpack.level1",
            "DeoptUnpack.level2", "DeoptUnpack.level3", "DeoptUnpack.level4", "DeoptUnpack.level5",
            "DeoptUnpack.level6", "DeoptUnpack.level7", "DeoptUnpack.level8");

    /**
     * Whether the Java frames right under unpack_frames are DeoptUnpack's chain from main on, main called by
     * the VM: the whole chain when the frame being unpacked held it all (C2 inlined it into loop), a shorter
     * one when it held less (loop alone, or loop with the first levels, as C1 or C2 had compiled them then;
     * the deeper frames had returned already). Anything else is a wrong or broken stack.
     */
    static boolean underChain(String[] frames) {
        int unpack = Arrays.asList(frames).indexOf(UNPACK), main = Arrays.asList(frames).indexOf(CHAIN.get(0));
        if (main < 1 || !frames[main - 1].equals("JavaCalls::call_helper") || unpack - main < 2 ||
            unpack - main > CHAIN.size())
            return false;
        for (int i = main; i < unpack; i++) {
            if (!frames[i].equals(CHAIN.get(i - main))) return false;
        }
        return true;
    }

    static void deoptUnpack() throws Exception {
        Path file = work.resolve("unpack.collapsed");
        Run run = runJava("start,event=cpu,interval=1ms,file=" + file, "-XX:+UnlockDiagnosticVMOptions",
                "-XX:+WhiteBoxAPI", "-Xbootclasspath/a:" + classes, "DeoptUnpack", "3");
        check(run.exit() == 0, "workload failed: " + run.err());
        long total = 0, marked = 0, unpacking = 0, kept = 0;
        Map<String, Long> lost = new TreeMap<>();
        for (var e : readCollapsed(file).entrySet()) {
            total += e.getValue();
            if (Arrays.stream(e.getKey().split(";")).anyMatch(FAILURE_MARKERS::contains)) marked += e.getValue();
            if (!e.getKey().contains(UNPACK)) continue;
            unpacking += e.getValue();
            if (underChain(e.getKey().split(";"))) kept += e.getValue();
            else lost.merge(e.getKey(), e.getValue(), Long::sum);
        }
        double markerPercent = 100.0 * marked / Math.max(total, 1), keptPercent = 100.0 * kept / Math.max(unpacking, 1);
        System.out.printf("  %d samples, %d with a failure marker (%.2f%%); %d in %s, %d of them (%.1f%%) under the"
                + " chain%n", total, marked, markerPercent, unpacking, UNPACK, kept, keptPercent);
        lost.forEach((stack, n) -> System.out.println("    not under the chain: " + stack + " " + n));
        check(unpacking >= 20, "too few samples in " + UNPACK + ": " + unpacking + " (want 20)");
        check(keptPercent >= MIN_KEPT_PERCENT, String.format("only %.1f%% of the samples in %s are under the chain"
                + " (want %.0f%%)", keptPercent, UNPACK, MIN_KEPT_PERCENT));
        check(markerPercent < MAX_STUB_MARKER_PERCENT, String.format(
                "%.2f%% of the samples carry a failure marker (bound %.1f%%)", markerPercent, MAX_STUB_MARKER_PERCENT));
    }

    static final List<List<String>> TRANSIT_CHAINS = List.of(List.of("TransitFrames.main"),
            List.of("TransitFrames.main", "TransitFrames.caller"),
            List.of("TransitFrames.main", "TransitFrames.caller", "TransitFrames.narrow"),
            List.of("TransitFrames.main", "TransitFrames.caller", "TransitFrames.wide"),
            List.of("TransitFrames.main", "TransitFrames.caller", "TransitFrames.locked"),
            List.of("TransitFrames.main", "TransitFrames.caller", "TransitFrames.thrower"));
    static final String ADAPTER = "I2C/C2I adapters";

    static void transit() throws Exception {
        Path file = work.resolve("transit.collapsed");
        Run run = runJava("start,event=cpu,interval=1ms,file=" + file, "-XX:CompileCommand=quiet",
                "-XX:CompileCommand=exclude,TransitFrames::narrow", "-XX:CompileCommand=exclude,TransitFrames::wide",
                "-XX:CompileCommand=exclude,TransitFrames::locked", "-XX:CompileCommand=exclude,TransitFrames::thrower",
                "TransitFrames", "3");
        check(run.exit() == 0 && run.out().contains("done"), "workload failed: " + run.out() + run.err());
        long total = 0, marked = 0, calls = 0, adapter = 0, adapterKept = 0;
        Map<String, Long> wrong = new TreeMap<>();
        for (var e : readCollapsed(file).entrySet()) {
            String[] frames = e.getKey().split(";");
            long n = e.getValue();
            total += n;
            if (Arrays.stream(frames).anyMatch(FAILURE_MARKERS::contains)) marked += n;
            List<String> chain = Arrays.stream(frames).filter(f -> f.startsWith("TransitFrames.")).toList();
            if (chain.isEmpty()) continue;
            if (!TRANSIT_CHAINS.contains(chain)) wrong.merge(e.getKey(), n, Long::sum);
            else if (chain.size() > 1) calls += n;
            if (frames[frames.length - 1].startsWith(ADAPTER)) {   // JDK 25 appends a fingerprint: "...(0xbebeabbea7e)"
                adapter += n;
                if (frames.length >= 2 && frames[frames.length - 2].equals("TransitFrames.caller")) adapterKept += n;
            }
        }
        double markerPercent = 100.0 * marked / Math.max(total, 1);
        System.out.printf("  %d samples, %d with a failure marker (%.2f%%), %d in caller's calls, %d in the C2I adapter"
                + " (%d under caller), %d with a wrong chain%n", total, marked, markerPercent, calls, adapter, adapterKept,
                wrong.values().stream().mapToLong(Long::longValue).sum());
        wrong.forEach((stack, n) -> System.out.println("    wrong chain: " + stack + " " + n));
        check(calls >= 300, "too few samples in caller's calls: " + calls + " (want 300)");
        check(adapter >= 10, "too few samples in the C2I adapter: " + adapter + " (want 10)");
        check(100.0 * adapterKept / adapter >= MIN_KEPT_PERCENT, "only " + adapterKept + " of " + adapter
                + " samples in the C2I adapter are right under TransitFrames.caller");
        check(wrong.isEmpty(), "samples whose Java frames are no chain of the workload's (a frame named wrongly)");
        check(markerPercent < MAX_STUB_MARKER_PERCENT, String.format(
                "%.2f%% of the samples carry a failure marker (bound %.1f%%)", markerPercent, MAX_STUB_MARKER_PERCENT));
    }

    static void virtualThreads() throws Exception {
        // The JDK under test (javaHome), not the one running this test: its release file names its version.
        String release = java.nio.file.Files.readString(Path.of(javaHome, "release"));
        java.util.regex.Matcher version = java.util.regex.Pattern.compile("JAVA_VERSION=\"(\\d+)").matcher(release);
        check(version.find(), "no JAVA_VERSION in " + javaHome + "/release");
        if (Integer.parseInt(version.group(1)) < 21) {
            System.out.println("  skipped: virtual threads need JDK 21+, " + javaHome + " is " + version.group(1));
            return;
        }
        Path file = work.resolve("virtual.collapsed");
        Run run = runJava("start,event=cpu,interval=1ms,file=" + file, "VirtualWork", "3", "2");
        check(run.exit() == 0 && run.out().contains("done"), "workload failed: " + run.out() + run.err());
        long spinning = 0, marked = 0, frozen = 0;
        Map<String, Long> broken = new TreeMap<>();
        for (var e : readCollapsed(file).entrySet()) {
            List<String> frames = Arrays.asList(e.getKey().split(";"));
            if (!frames.contains("VirtualWork.spin")) continue;
            spinning += e.getValue();
            if (frames.stream().anyMatch(FAILURE_MARKERS::contains)) marked += e.getValue();
            if (frames.get(0).equals("[frozen_frames]")) frozen += e.getValue();
            // spin's caller is work, whatever the root (the barrier's marker, or the carrier thread's frames)
            int at = frames.indexOf("VirtualWork.spin");
            if (at < 1 || !frames.get(at - 1).equals("VirtualWork.work")) broken.merge(e.getKey(), e.getValue(), Long::sum);
        }
        System.out.printf("  %d samples in VirtualWork.spin: %d end in [frozen_frames], %d carry a failure marker,"
                + " %d without work under spin%n", spinning, frozen, marked, broken.values().stream().mapToLong(Long::longValue).sum());
        broken.forEach((stack, n) -> System.out.println("    spin without work under it: " + stack + " " + n));
        check(spinning >= 300, "too few samples in VirtualWork.spin: " + spinning + " (want 300)");
        check(frozen > 0, "no stack ended at the continuation's return barrier ([frozen_frames])");
        check(broken.isEmpty(), "samples in spin without its caller");
        check(100.0 * marked / spinning < MAX_STUB_MARKER_PERCENT, marked + " of the " + spinning
                + " samples in spin carry a failure marker");
    }

    /**
     * Runs StubFrames 'workload' and checks the samples whose leaf frame is the stub named 'stub' (a part of its
     * blob name): at least 'minSamples' of them, nearly all with 'caller' the frame right under the stub and
     * StubFrames.main further down; and few failure markers overall.
     */
    static void stubCallers(String workload, String stub, String caller, long minSamples, String... jvmOptions)
            throws Exception {
        Path file = work.resolve(workload + ".collapsed");
        List<String> command = new ArrayList<>(List.of(jvmOptions));
        command.addAll(List.of("StubFrames", workload, "3"));
        Run run = runJava("start,event=cpu,interval=1ms,file=" + file, command.toArray(String[]::new));
        check(run.exit() == 0, "workload failed: " + run.err());
        long total = 0, marked = 0, inStub = 0, kept = 0;
        Map<String, Long> lost = new TreeMap<>();
        for (var e : readCollapsed(file).entrySet()) {
            String[] frames = e.getKey().split(";");
            total += e.getValue();
            if (Arrays.stream(frames).anyMatch(FAILURE_MARKERS::contains)) marked += e.getValue();
            if (!frames[frames.length - 1].contains(stub)) continue;
            inStub += e.getValue();
            boolean underCaller = frames.length >= 2 && frames[frames.length - 2].equals(caller) &&
                                  Arrays.asList(frames).contains("StubFrames.main");
            if (underCaller) kept += e.getValue();
            else lost.merge(e.getKey(), e.getValue(), Long::sum);
        }
        double markerPercent = 100.0 * marked / Math.max(total, 1), keptPercent = 100.0 * kept / Math.max(inStub, 1);
        System.out.printf("  %d samples, %d with a failure marker (%.2f%%); %d in %s, %d of them (%.1f%%) under %s%n",
                total, marked, markerPercent, inStub, stub, kept, keptPercent, caller);
        lost.forEach((stack, n) -> System.out.println("    lost its caller: " + stack + " " + n));
        check(inStub >= minSamples, "too few samples in " + stub + ": " + inStub + " (want " + minSamples + ")");
        check(keptPercent >= MIN_KEPT_PERCENT, String.format("only %.1f%% of the samples in %s are under %s (want %.0f%%)",
                keptPercent, stub, caller, MIN_KEPT_PERCENT));
        check(markerPercent < MAX_STUB_MARKER_PERCENT, String.format(
                "%.2f%% of the samples carry a failure marker (bound %.1f%%)", markerPercent, MAX_STUB_MARKER_PERCENT));
    }
}
