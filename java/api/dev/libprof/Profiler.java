package dev.libprof;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.EnumSet;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The Java API of libprof: profile this JVM from inside it. One instance per process, bound to the one
 * libprof.so that serves it:
 * <pre>
 *   Profiler p = Profiler.getInstance();             // the library from the jar (or -agentpath's)
 *   p.execute("start,event=cpu,interval=1ms");
 *   ... the work to profile ...
 *   p.stop();
 *   String stacks = p.dumpCollapsed();                // or p.execute("dump,file=/tmp/profile.html")
 * </pre>
 * Commands are the agent's option language, exactly as -agentpath:libprof.so=... and jprof take them. A
 * bad command throws {@link IllegalArgumentException} naming the bad option; what the profiler cannot do
 * now (stop when nothing runs) throws {@link IllegalStateException}.
 */
public final class Profiler implements ProfilerMBean {
    /** The JMX name the MBean is registered under. */
    public static final String OBJECT_NAME = "dev.libprof:type=Profiler";
    /**
     * The library packed into libprof.jar for this JVM's processor, extracted when no path is given: one per
     * platform (linux-x64, linux-arm64), as the release's tarballs are named; null on another processor.
     */
    static final String LIBRARY_RESOURCE = libraryResource(System.getProperty("os.arch", ""));

    static String libraryResource(String arch) {
        if (arch.equals("amd64") || arch.equals("x86_64")) return "/dev/libprof/native/linux-x64/libprof.so";
        if (arch.equals("aarch64") || arch.equals("arm64")) return "/dev/libprof/native/linux-arm64/libprof.so";
        return null;
    }

    private static Profiler instance;

    private Profiler() {
    }

    /**
     * The profiler, loading libprof.so when this JVM has none yet: from the system property libprof.path,
     * else the copy packed in this jar for this processor (extracted into a private temporary directory, checked against the jar's
     * checksum, deleted once loaded), else libprof.so on
     * java.library.path. A JVM started with -agentpath:libprof.so already has it: that one is used.
     */
    public static synchronized Profiler getInstance() {
        if (instance != null) return instance;
        if (!nativesBound()) {
            String path = System.getProperty("libprof.path");
            if (path != null) System.load(new File(path).getAbsolutePath());
            else if (!loadPacked()) System.loadLibrary("prof");
        }
        instance = new Profiler();
        return instance;
    }

    /** The profiler served by the libprof.so at {@code libPath}. */
    public static synchronized Profiler getInstance(String libPath) {
        if (instance != null) return instance;
        System.load(new File(libPath).getAbsolutePath());
        instance = new Profiler();
        return instance;
    }

    /** Whether a libprof.so is already there to serve the natives (-agentpath, an earlier load). */
    private static boolean nativesBound() {
        try {
            samples0();
            return true;
        } catch (UnsatisfiedLinkError e) {
            return false;
        }
    }

    /** The SHA-256 of the packed library, written into the jar beside it when the jar is built. */
    static final String CHECKSUM_RESOURCE = LIBRARY_RESOURCE + ".sha256";

    /**
     * Extracts the packed library into a directory of our own and loads it. The directory is created
     * exclusively with a random name and owner-only permissions (0700), the file in it exclusively (0600): no
     * other user can plant, replace or read anything on the way, whatever the temporary directory's other
     * entries are. What is loaded is checked against the checksum the jar was built with. File and directory
     * are deleted once loaded (the library stays mapped), so no exit, even a crash, leaves them behind.
     */
    private static boolean loadPacked() {
        InputStream in = LIBRARY_RESOURCE == null ? null : Profiler.class.getResourceAsStream(LIBRARY_RESOURCE);
        if (in == null) return false;
        Path dir = null, file = null;
        try {
            String expected = packedChecksum();
            dir = Files.createTempDirectory("libprof-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            file = dir.resolve("libprof.so");
            try (OutputStream out = Channels.newOutputStream(Files.newByteChannel(file,
                    EnumSet.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))))) {
                byte[] buffer = new byte[1 << 16];
                for (int n; (n = in.read(buffer)) > 0;) out.write(buffer, 0, n);
            } finally {
                in.close();
            }
            String actual = sha256(file);
            if (!actual.equals(expected))
                throw new IllegalStateException("libprof: the library extracted to " + file + " has SHA-256 " + actual
                        + ", the jar was built with " + expected + ": not loaded");
            System.load(file.toAbsolutePath().toString());
            return true;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("libprof: cannot extract the library from the jar: " + e, e);
        } finally {
            deleteQuietly(file);
            deleteQuietly(dir);
        }
    }

    private static String packedChecksum() throws IOException {
        InputStream in = Profiler.class.getResourceAsStream(CHECKSUM_RESOURCE);
        if (in == null) throw new IOException("the jar has no " + CHECKSUM_RESOURCE);
        try {
            ByteArrayOutputStream text = new ByteArrayOutputStream();
            byte[] buffer = new byte[256];
            for (int n; (n = in.read(buffer)) > 0;) text.write(buffer, 0, n);
            return new String(text.toByteArray(), StandardCharsets.US_ASCII).trim().toLowerCase(java.util.Locale.ROOT);
        } finally {
            in.close();
        }
    }

    private static String sha256(Path file) throws IOException, GeneralSecurityException {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0;) digest.update(buffer, 0, n);
        }
        StringBuilder hex = new StringBuilder();
        for (byte b : digest.digest()) hex.append(String.format("%02x", b & 0xff));
        return hex.toString();
    }

    private static void deleteQuietly(Path path) {
        if (path == null) return;
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            path.toFile().deleteOnExit();
        }
    }

    /** Runs one command and returns its text output (a profile without file=, status, metrics, version). */
    public String execute(String command) {
        if (command == null) throw new NullPointerException("command");
        return execute0(command);
    }

    /** Runs one command and returns its output as bytes, for binary formats written without file=. */
    public byte[] executeBytes(String command) {
        if (command == null) throw new NullPointerException("command");
        return executeBytes0(command);
    }

    /** Starts a session with a fresh profile; interval in nanoseconds (0: the engine's default). */
    public void start(String event, long intervalNanos) {
        execute(command("start", event, intervalNanos));
    }

    /** Starts again keeping the profile collected so far. */
    public void resume(String event, long intervalNanos) {
        execute(command("resume", event, intervalNanos));
    }

    private static String command(String action, String event, long intervalNanos) {
        if (event == null) throw new NullPointerException("event");
        return action + ",event=" + event + (intervalNanos > 0 ? ",interval=" + intervalNanos : "");
    }

    /** Stops the session; its profile stays for the dump methods until the next start. */
    public void stop() {
        execute("stop,collapsed");
    }

    /** Writes the profile so far into {@code file}, in the format its extension names (or add one: ",jfr"). */
    public void dump(String file) {
        if (file == null) throw new NullPointerException("file");
        if (file.indexOf(',') >= 0) throw new IllegalArgumentException("file name with a comma: " + file);
        execute("dump,file=" + file);
    }

    public String dumpCollapsed() {
        return execute("collapsed");
    }

    /**
     * The profile so far in OpenTelemetry's profiles format: the bytes of one ProfilesData message (as
     * async-profiler's dumpOtlp returns them), counting samples or, if the session was started with
     * {@code total}, their weight.
     */
    public byte[] dumpOtlp() {
        return executeBytes("otlp");
    }

    /** {@link #dumpOtlp()} counting the samples' weight (ns, bytes) with {@code total}, else the samples. */
    public byte[] dumpOtlp(boolean total) {
        return executeBytes(total ? "otlp,total" : "otlp,samples");
    }

    public String dumpTraces(int maxTraces) {
        return execute(maxTraces > 0 ? "traces=" + maxTraces : "traces");
    }

    public String dumpFlat(int maxMethods) {
        return execute(maxMethods > 0 ? "flat=" + maxMethods : "flat");
    }

    public String getMetrics() {
        return execute("metrics");
    }

    public String getVersion() {
        return execute("version").trim();
    }

    public long getSamples() {
        return samples0();
    }

    /**
     * Samples {@code thread} (null: the calling thread) in a session started with the {@code filter}
     * option, which samples only the threads added here. A thread not started or already ended is ignored.
     */
    public void addThread(Thread thread) {
        filterThread(thread, true);
    }

    public void removeThread(Thread thread) {
        filterThread(thread, false);
    }

    private static void filterThread(Thread thread, boolean enable) {
        if (thread == null || thread == Thread.currentThread()) {
            filterThread0(null, enable);
            return;
        }
        // Holding the thread's monitor keeps it from ending between the check and the lookup of its OS id.
        synchronized (thread) {
            Thread.State state = thread.getState();
            if (state != Thread.State.NEW && state != Thread.State.TERMINATED) filterThread0(thread, enable);
        }
    }

    /** Registers this profiler's MBean under {@value #OBJECT_NAME} in the platform MBean server, once. */
    public synchronized void registerMBean() {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName(OBJECT_NAME);
            if (!server.isRegistered(name)) server.registerMBean(this, name);
        } catch (JMException e) {
            throw new IllegalStateException("libprof: cannot register the MBean " + OBJECT_NAME + ": " + e, e);
        }
    }

    private static native String execute0(String command);

    private static native byte[] executeBytes0(String command);

    private static native long samples0();

    private static native void filterThread0(Thread thread, boolean enable);
}
