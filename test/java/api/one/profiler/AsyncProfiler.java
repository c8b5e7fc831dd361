package one.profiler;

/**
 * A stand-in for async-profiler's API class, written here for the tests: it declares the natives that
 * async-profiler's one.profiler.AsyncProfiler declares (their names and signatures are the interface) and
 * calls them the way that class's public methods do, so libprof.so is driven exactly as an integration
 * built on async-profiler's jar would drive it.
 */
public class AsyncProfiler {
    private static AsyncProfiler instance;

    private AsyncProfiler() {
    }

    public static synchronized AsyncProfiler getInstance(String libPath) {
        if (instance == null) {
            System.load(libPath);
            instance = new AsyncProfiler();
        }
        return instance;
    }

    public void start(String event, long interval) {
        start0(event, interval, true);
    }

    public void resume(String event, long interval) {
        start0(event, interval, false);
    }

    public void stop() {
        stop0();
    }

    public native long getSamples();

    public String execute(String command) throws java.io.IOException {
        return execute0(command);
    }

    public byte[] executeBytes(String command) throws java.io.IOException {
        return execute1(command);
    }

    public void addThread(Thread thread) {
        filterThread0(thread, true);
    }

    public void removeThread(Thread thread) {
        filterThread0(thread, false);
    }

    private native void start0(String event, long interval, boolean reset) throws IllegalStateException;

    private native void stop0() throws IllegalStateException;

    private native String execute0(String command)
            throws IllegalArgumentException, IllegalStateException, java.io.IOException;

    private native byte[] execute1(String command)
            throws IllegalArgumentException, IllegalStateException, java.io.IOException;

    private native void filterThread0(Thread thread, boolean enable);
}
