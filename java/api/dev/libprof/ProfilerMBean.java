package dev.libprof;

import java.io.IOException;

/**
 * The profiler's remote control through JMX, registered by {@link Agent} (and by
 * {@link Profiler#registerMBean()}) under {@value Profiler#OBJECT_NAME}. Every operation is one command of the
 * agent's option language, so anything -agentpath or jprof can do, a JMX client can do too.
 */
public interface ProfilerMBean {
    /** Runs one command ("start,event=cpu,interval=1ms", "dump,file=/tmp/x.html", "status") and returns its output. */
    String execute(String command) throws IOException;

    void start(String event, long intervalNanos);

    void resume(String event, long intervalNanos);

    void stop();

    /** The profile so far as collapsed stacks, one line per stack. */
    String dumpCollapsed();

    /** The profile so far in OpenTelemetry's profiles format (a ProfilesData message). */
    byte[] dumpOtlp();

    /** The text report of the profile so far: the hottest {@code maxTraces} stacks (0: the default count). */
    String dumpTraces(int maxTraces);

    /** The flat profile so far: the top {@code maxMethods} leaf frames (0: the default count). */
    String dumpFlat(int maxMethods);

    /** The counters in Prometheus' text format. */
    String getMetrics();

    String getVersion();

    /** Samples stored by the current (or last) session. */
    long getSamples();
}
