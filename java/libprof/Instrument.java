package libprof;

/**
 * The helper that instrumented methods call: the agent's class file rewriter inserts
 * {@code invokestatic libprof/Instrument.recordSample()V} at the start of every selected method.
 *
 * The agent defines this class into the boot loader from bytes embedded in libprof.so (so classes of every
 * loader, the JDK's own included, can call it) and registers the native method. It must stay free of
 * Java code: a Java body would be instrumented by a target such as "*.*" and recurse into itself.
 */
public final class Instrument {
    private Instrument() {}

    /** Counts the call and, every Nth call, records the calling thread's Java stack. */
    public static native void recordSample();

    /** Called first by a traced method (trace=), with the method's id: the call's start. */
    public static native void traceEnter(int method);

    /** Called on every way out of a traced method, return or exception: the call's end. */
    public static native void traceExit(int method);

    /** Called at the start of LockSupport.setBlocker while lock profiling: a park begins or ends. */
    public static native void parkEdge();
}
