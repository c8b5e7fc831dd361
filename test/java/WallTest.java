import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Wall-clock profiling against a known truth (WallWorkload): a thread that sleeps half of each
 * cycle shows about half of its wall samples sleeping and its CPU samples all spinning; threads blocked on
 * a monitor, in Object.wait and parked show those states; event=cpu,wall in one session gives a recording
 * the JDK's jfr tool reads and jfrconv separates. Usage (from ctest):
 *   java WallTest <test> <java_home> <libprof.so> <jfrconv> <workload classpath> <work dir>
 */
public class WallTest {
    public static void main(String[] args) throws Exception {
        JfrconvTest.runWithJfrconv(args, test -> {
            switch (test) {
                case "half_sleep_cpu_and_wall" -> halfSleepCpuAndWall();
                case "thread_states" -> threadStates();
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
}
