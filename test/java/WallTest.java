import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Wall-clock profiling against a known truth (WallWorkload): a thread that sleeps half of each
 * cycle shows about half of its wall samples sleeping and its CPU samples all spinning; threads blocked on
 * a monitor, in Object.wait and parked show those states; event=cpu,wall in one session gives a recording
 * the JDK's jfr tool reads and jfrconv separates; with 1,000 sleeping threads the engine visits a bounded number
 * per interval and the weights still give each thread its time. Usage (from ctest):
 *   java WallTest <test> <java_home> <libprof.so> <jfrconv> <workload classpath> <work dir>
 */
public class WallTest {
    public static void main(String[] args) throws Exception {
        JfrconvTest.runWithJfrconv(args, test -> {
            switch (test) {
                case "half_sleep_cpu_and_wall" -> halfSleepCpuAndWall();
                case "thread_states" -> threadStates();
                case "many_threads" -> manyThreads();
                case "same_wait" -> sameWait();
                default -> throw new IllegalArgumentException("unknown test " + test);
            }
        });
    }

    static void check(boolean condition, String message) {
        IntegrationTest.check(condition, message);
    }

    /** Samples of one thread (its [name tid=N] root; "" for every thread) whose stack contains a text. */
    static long samplesOf(Map<String, Long> stacks, String thread, String contains) {
        long n = 0;
        for (var e : stacks.entrySet()) {
            boolean own = thread.isEmpty() || e.getKey().startsWith("[" + thread + " tid=");
            if (own && e.getKey().contains(contains)) n += e.getValue();
        }
        return n;
    }

    /** event=cpu,wall in one JFR session: jfrconv --wall gives the sleeping half, --cpu only the spinning. */
    static void halfSleepCpuAndWall() throws Exception {
        Path rec = IntegrationTest.work.resolve("both.jfr");
        IntegrationTest.Run run = IntegrationTest.runJava(
                "start,event=cpu,interval=5ms,wall=10ms,file=" + rec, "WallWorkload", "4");
        check(run.exit() == 0, "workload failed: " + run.err());
        double truth = IntegrationTest.truth(run.out(), "sleeping_share");

        // The JDK's own tool reads the recording: CPU samples are jdk.ExecutionSample, wall samples async-profiler's
        // profiler.WallClockSample (a tool that takes every jdk.ExecutionSample for CPU time must not see them).
        JfrconvTest.Result summary = JfrconvTest.run(List.of(IntegrationTest.javaHome + "/bin/jfr", "summary",
                rec.toString()));
        check(summary.exit() == 0 && summary.out().contains("jdk.ExecutionSample")
                && summary.out().contains("profiler.WallClockSample"), "jfr summary: " + summary.out() + summary.err());
        JfrconvTest.Result print = JfrconvTest.run(List.of(IntegrationTest.javaHome + "/bin/jfr", "print",
                "--events", "jdk.ExecutionSample", rec.toString()));
        check(print.exit() == 0, "jfr print failed: " + print.err());
        check(print.out().contains("state = \"STATE_DEFAULT\""), "jfr print shows no CPU sample (STATE_DEFAULT)");
        check(!print.out().contains("state = \"STATE_SLEEPING\""), "a sleeping wall sample is a jdk.ExecutionSample");
        JfrconvTest.Result wallPrint = JfrconvTest.run(List.of(IntegrationTest.javaHome + "/bin/jfr", "print",
                "--events", "profiler.WallClockSample", rec.toString()));
        check(wallPrint.out().contains("state = \"STATE_SLEEPING\"") && wallPrint.out().contains("samples = 1"),
                "jfr print shows no sleeping wall sample");

        Map<String, Long> wall = JfrconvTest.collapsed("wall", "--wall", "-t", "--states", rec.toString());
        long all = samplesOf(wall, "halfsleeper", ";"), sleeping = samplesOf(wall, "halfsleeper", "[STATE_SLEEPING]");
        long sleepFrames = samplesOf(wall, "halfsleeper", "WallWorkload.sleepHalf");
        double share = all == 0 ? 0 : (double) sleeping / all;
        System.out.printf("  wall: halfsleeper %d samples, %d sleeping (%.1f%%; the thread measured %.1f%%), "
                + "%d in sleepHalf%n", all, sleeping, 100 * share, 100 * truth, sleepFrames);
        check(all >= 150, "too few wall samples of halfsleeper: " + all);
        check(Math.abs(share - 0.5) <= 0.05, "sleeping share of halfsleeper's wall samples is not 50% +- 5: " + share);
        check(Math.abs(share - truth) <= 0.05, "sleeping share differs from the measured one by over 5 points");
        check(Math.abs(sleepFrames - sleeping) <= all / 50, "sleeping samples are not the ones in sleepHalf");

        Map<String, Long> cpu = JfrconvTest.collapsed("cpu", "--cpu", "-t", "--states", rec.toString());
        long cpuAll = samplesOf(cpu, "halfsleeper", ";"), spinning = samplesOf(cpu, "halfsleeper", "WallWorkload.spin");
        System.out.printf("  cpu: halfsleeper %d samples, %d spinning%n", cpuAll, spinning);
        check(cpuAll >= 30, "too few CPU samples of halfsleeper: " + cpuAll);
        check(spinning >= cpuAll * 97 / 100, "CPU samples of halfsleeper outside spin: " + (cpuAll - spinning));
        check(samplesOf(cpu, "halfsleeper", "[STATE_DEFAULT]") == cpuAll, "CPU samples carry a thread state");
        check(samplesOf(cpu, "blocked", ";") == 0, "the blocked thread has CPU samples: " + samplesOf(cpu, "blocked", ";"));
    }

    /**
     * A thread that leaves one sleep and enters another from another method at the same depth is sampled in
     * the second: each wait holds about half of its wall samples. (A sample repeated because the thread's
     * memory looked the same would have put the second wait's time on the first's stack.)
     */
    static void sameWait() throws Exception {
        Path file = IntegrationTest.work.resolve("same-wait.collapsed");
        IntegrationTest.Run run = IntegrationTest.runJava(
                "start,event=wall,threads,file=" + file, "WallSameWait");
        check(run.exit() == 0, "workload failed: " + run.err());
        Map<String, Long> stacks = IntegrationTest.readCollapsed(file);
        long first = samplesOf(stacks, "alternator", "WallSameWait.firstWait");
        long second = samplesOf(stacks, "alternator", "WallSameWait.secondWait");
        double share = first + second == 0 ? 0 : (double) second / (first + second);
        System.out.printf("  alternator: %d samples in firstWait, %d in secondWait (%.1f%%)%n", first, second, 100 * share);
        check(first + second >= 20, "too few wall samples in the two waits: " + (first + second));
        check(share >= 0.3 && share <= 0.7, "secondWait holds " + share + " of the waits' samples, not about half");
    }

    /** Threads blocked on a monitor, in Object.wait and parked show those states, in the agent's own output. */
    static void threadStates() throws Exception {
        Path file = IntegrationTest.work.resolve("states.collapsed");
        IntegrationTest.Run run = IntegrationTest.runJava(
                "start,event=wall,interval=20ms,threads,states,file=" + file, "WallWorkload", "2");
        check(run.exit() == 0, "workload failed: " + run.err());
        Map<String, Long> stacks = IntegrationTest.readCollapsed(file);
        String[][] expected = {{"blocked", "STATE_BLOCKED_ON_MONITOR_ENTER", "WallWorkload.blockedOnMonitor"},
                               {"waiter", "STATE_IN_OBJECT_WAIT", "WallWorkload.waitForever"},
                               {"parker", "STATE_PARKED", "WallWorkload.parkForever"}};
        for (String[] e : expected) {
            long all = samplesOf(stacks, e[0], ";"), inState = samplesOf(stacks, e[0], "[" + e[1] + "];");
            long inFrame = samplesOf(stacks, e[0], e[2]);
            System.out.printf("  %s: %d samples, %d %s, %d in %s%n", e[0], all, inState, e[1], inFrame, e[2]);
            check(all >= 50, e[0] + ": too few samples: " + all);
            check(inState >= all * 95 / 100, e[0] + ": not " + e[1] + " in " + (all - inState) + " of " + all);
            check(inFrame >= all * 95 / 100, e[0] + ": not in " + e[2]);
        }
        // The agent's own threads (its periodic watches, waiting for their next tick) are not sampled.
        for (String stack : stacks.keySet())
            check(!stack.contains("periodic_loop") && !stack.contains("[libprof"),
                    "a thread of the profiler's own was sampled: " + stack);
        // state= keeps only the states named.
        Path blockedOnly = IntegrationTest.work.resolve("blocked.collapsed");
        run = IntegrationTest.runJava("start,event=wall,interval=20ms,threads,state=blocked,file=" + blockedOnly,
                "WallWorkload", "1");
        check(run.exit() == 0, "workload failed: " + run.err());
        Map<String, Long> only = IntegrationTest.readCollapsed(blockedOnly);
        check(samplesOf(only, "blocked", ";") > 0, "state=blocked kept no sample of the blocked thread");
        check(samplesOf(only, "waiter", ";") == 0 && samplesOf(only, "parker", ";") == 0,
                "state=blocked kept samples in other states");
        check(Files.size(blockedOnly) > 0, "empty output");

        // A collapsed output of an event=cpu,wall session holds the first event only: CPU samples.
        Path first = IntegrationTest.work.resolve("first.collapsed");
        run = IntegrationTest.runJava("start,event=cpu,wall=20ms,threads,states,file=" + first, "WallWorkload", "1");
        check(run.exit() == 0, "workload failed: " + run.err());
        Map<String, Long> cpu = IntegrationTest.readCollapsed(first);
        long all = samplesOf(cpu, "", ";"), cpuState = samplesOf(cpu, "", "[STATE_DEFAULT];");
        System.out.printf("  event=cpu,wall collapsed: %d samples, %d in STATE_DEFAULT%n", all, cpuState);
        check(all > 0 && cpuState == all, "the collapsed output of event=cpu,wall holds wall samples");
        check(samplesOf(cpu, "blocked", ";") == 0, "the blocked thread appears in the CPU profile");
    }

    /**
     * 1,000 sleeping threads and one busy one (WallManyThreads), wall at 5 ms: every interval visits at most
     * wallthreads (16) threads, so the samples are bounded by 16 per interval, not 1,001; each sample weighs
     * the time since its thread's previous visit, so the busy thread's weight is the time it ran and a
     * sleeper's about its life, and every thread keeps its state (spinning in busySpin, sleeping in sleepLong).
     */
    static void manyThreads() throws Exception {
        Path file = IntegrationTest.work.resolve("many.collapsed");
        int perTick = 16;
        long intervalNs = 5_000_000L;
        IntegrationTest.Run run = IntegrationTest.runJava("start,event=wall,interval=5ms,wallthreads=" + perTick
                + ",threads,states,total,loglevel=info,file=" + file, "-Xss256k", "WallManyThreads", "1000", "6");
        check(run.exit() == 0, "workload failed: " + run.err());
        double busyNs = IntegrationTest.truth(run.out(), "busy_ns"), lifeNs = IntegrationTest.truth(run.out(), "life_ns");
        java.util.regex.Matcher log = java.util.regex.Pattern.compile(
                "wall: (\\d+) rounds .*?, (\\d+) visits \\(at most (\\d+) a round\\)").matcher(run.err());
        check(log.find(), "no wall statistics in the log: " + run.err());
        long rounds = Long.parseLong(log.group(1)), visits = Long.parseLong(log.group(2));
        Map<String, Long> weights = IntegrationTest.readCollapsed(file);   /* total: ns, not samples */
        long busyAll = 0, busySpin = 0, sleeperAll = 0, sleeping = 0;
        java.util.Set<String> sleepers = new java.util.HashSet<>();
        for (var e : weights.entrySet()) {
            String stack = e.getKey();
            if (stack.startsWith("[busy tid=")) {
                busyAll += e.getValue();
                if (stack.contains("WallManyThreads.busySpin")) busySpin += e.getValue();
            } else if (stack.startsWith("[sleeper-")) {
                sleeperAll += e.getValue();
                sleepers.add(stack.substring(0, stack.indexOf(']')));
                if (stack.contains("[STATE_SLEEPING];") && stack.contains("WallManyThreads.sleepLong")) sleeping += e.getValue();
            }
        }
        double sleeperMean = sleepers.isEmpty() ? 0 : (double) sleeperAll / sleepers.size();
        System.out.printf("  %d rounds, %d visits (%.1f a round); busy: %.2f s of weight (ran %.2f s), %.1f%% in busySpin;"
                + " %d sleepers seen, %.2f s each on average (the JVM lived %.2f s), %.1f%% sleeping in sleepLong%n",
                rounds, visits, (double) visits / Math.max(1, rounds), busyAll / 1e9, busyNs / 1e9,
                100.0 * busySpin / Math.max(1, busyAll), sleepers.size(), sleeperMean / 1e9, lifeNs / 1e9,
                100.0 * sleeping / Math.max(1, sleeperAll));
        check(rounds >= 100, "too few rounds: " + rounds);
        check(visits <= rounds * perTick, "more than " + perTick + " visits a round: " + visits + " in " + rounds);
        check(visits <= (lifeNs / intervalNs + 2) * perTick, "more visits than " + perTick + " per interval of the JVM's life");
        check(sleepers.size() >= 900, "sleepers not covered by the rotation: " + sleepers.size() + " of 1000");
        // A thread that starts or ends while profiling is first or last seen up to one cycle of the rotation
        // (every thread visited once: about 1,030 / 16 intervals) after its start or before its end.
        double cycleNs = Math.ceil(1030.0 / perTick) * lifeNs / rounds;
        System.out.printf("  busy: %.2f s of weight against %.2f s run; a cycle takes about %.2f s%n", busyAll / 1e9,
                busyNs / 1e9, cycleNs / 1e9);
        check(Math.abs(busyAll - busyNs) <= Math.max(0.1 * busyNs, 1.5 * cycleNs),
                "the busy thread's weight is not the time it ran, within 1.5 cycles of the rotation");
        check(busySpin >= 0.9 * busyAll, "the busy thread's weight is not in busySpin");
        check(sleeperMean >= 0.7 * busyNs && sleeperMean <= 1.2 * lifeNs, "a sleeper's mean weight is not its life");
        check(sleeping >= 0.95 * sleeperAll, "sleepers' weight not sleeping in sleepLong");
    }
}
