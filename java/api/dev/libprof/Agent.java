package dev.libprof;

/**
 * libprof.jar as a Java agent: {@code java -javaagent:libprof.jar=start,event=cpu,file=out.html ...} at
 * start-up, or loaded into a running JVM (Agent-Class). The library comes from the jar (or libprof.path);
 * the arguments, when given, are one command run at once; the MBean is registered for JMX clients either way.
 */
public final class Agent {
    private Agent() {
    }

    public static void premain(String args) {
        run(args);
    }

    public static void agentmain(String args) {
        run(args);
    }

    private static void run(String args) {
        Profiler profiler = Profiler.getInstance();
        profiler.registerMBean();
        if (args != null && !args.isEmpty()) {
            String output = profiler.execute(args);
            if (!output.isEmpty()) System.out.print(output);
        }
    }
}
