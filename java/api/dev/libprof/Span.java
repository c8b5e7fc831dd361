package dev.libprof;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Marks an interval on the current thread ("this request", "this batch") in the profiler's JFR recording,
 * as a {@code profiler.Span} event with a tag: the samples taken on the thread inside it are the span's.
 * {@link #end} records a span only when a sample was taken on the thread while it was open, so marking
 * every request costs a recording only its sampled ones; {@link #endAlways} records it in any case.
 * Without libprof.so loaded, or without a JFR session, every method returns at once and records nothing.
 *
 * <pre>
 * long span = Span.start();
 * handle(request);
 * Span.end(span, request.path());
 * </pre>
 * or {@code try (Span s = Span.open("batch")) { ... }}.
 */
public final class Span implements AutoCloseable {
    /** libprof.so is not loaded in this class's loader. */
    public static final int UNAVAILABLE = 0;
    /** libprof.so is loaded; no JFR recording is open. */
    public static final int STOPPED = 1;
    /** A JFR recording is open: spans are recorded. */
    public static final int RECORDING = 2;

    /* Set by the library when a recording opens or closes. */
    static volatile int state;

    /* A thread without a slot of its own reads as "sampled just now": its spans are all recorded. */
    private static final ByteBuffer ALWAYS = ByteBuffer.allocateDirect(8).order(ByteOrder.nativeOrder()).putLong(0, Long.MAX_VALUE);

    /* The time of the thread's last sample (System.nanoTime's clock), written by the profiler. */
    private static final ThreadLocal<ByteBuffer> LAST_SAMPLE = new ThreadLocal<ByteBuffer>() {
        @Override
        protected ByteBuffer initialValue() {
            ByteBuffer b = threadClock0();
            return b != null ? b.order(ByteOrder.nativeOrder()) : ALWAYS;
        }
    };

    /* Thread.isVirtual (JDK 21+), or null: a virtual thread moves between carriers, whose slots say nothing of
     * it, so its spans are recorded sampled or not. */
    private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

    private static MethodHandle isVirtualHandle() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    private static boolean sampledSince(long startTime) {
        if (IS_VIRTUAL != null) {
            try {
                if ((boolean) IS_VIRTUAL.invokeExact(Thread.currentThread())) return true;
            } catch (Throwable e) {
                return true;
            }
        }
        return LAST_SAMPLE.get().getLong(0) >= startTime;
    }

    static {
        int s;
        try {
            s = register0();
        } catch (UnsatisfiedLinkError e) {
            s = UNAVAILABLE;
        }
        state = s;
    }

    private final long startTime;
    private final String tag;

    private Span(long startTime, String tag) {
        this.startTime = startTime;
        this.tag = tag;
    }

    /** @return {@link #UNAVAILABLE}, {@link #STOPPED} or {@link #RECORDING} */
    public static int state() {
        return state;
    }

    /** @return the span's start time (System.nanoTime), or 0 when nothing is being recorded */
    public static long start() {
        if (state != RECORDING) return 0;
        if (IS_VIRTUAL == null || !sampledSince(Long.MAX_VALUE)) LAST_SAMPLE.get();   /* the slot, claimed once */
        return System.nanoTime();
    }

    /** Ends the span begun at {@code startTime}; recorded when the thread was sampled inside it. */
    public static void end(long startTime, String tag) {
        if (startTime != 0 && state == RECORDING && sampledSince(startTime))
            emit0(startTime, System.nanoTime(), tag);
    }

    /** Ends the span begun at {@code startTime} and records it, sampled or not. */
    public static void endAlways(long startTime, String tag) {
        if (startTime != 0 && state == RECORDING) emit0(startTime, System.nanoTime(), tag);
    }

    /** A span for try-with-resources, ended (as {@link #end}) when closed. */
    public static Span open(String tag) {
        return new Span(start(), tag);
    }

    @Override
    public void close() {
        end(startTime, tag);
    }

    private static native int register0();

    private static native ByteBuffer threadClock0();

    private static native void emit0(long startTime, long endTime, String tag);
}
