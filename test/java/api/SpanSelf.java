import dev.libprof.Profiler;
import dev.libprof.Span;

/**
 * Spans through the Java API (dev.libprof.Span): two kinds of span around two different pieces of work,
 * alternating on one thread, recorded in a JFR session; idle spans ended both ways (only when sampled, and
 * always). ApiTest reads the recording and checks each span's samples are its own work. Prints OK.
 * Usage: SpanSelf <recording.jfr>
 */
public class SpanSelf {
    static final int ROUNDS = 15, IDLE = 20;
    static volatile long sink;

    static long spin(long millis) {
        long x = 0, until = System.nanoTime() + millis * 1_000_000L;
        while (System.nanoTime() < until) {
            for (int i = 0; i < 1000; i++) x = x * 31 + i ^ (x >>> 7);
        }
        return x;
    }

    static void alphaWork() { sink += spin(40); }

    static void betaWork() { sink += spin(40); }

    public static void main(String[] args) throws Exception {
        Profiler p = Profiler.getInstance();
        ApiSelf.check(Span.state() == Span.STOPPED, "loaded, no recording: state " + Span.state());
        ApiSelf.check(Span.start() == 0, "no span starts without a recording");
        p.execute("start,event=cpu,interval=1ms,file=" + args[0]);
        ApiSelf.check(Span.state() == Span.RECORDING, "recording: state " + Span.state());
        for (int i = 0; i < ROUNDS; i++) {
            long s = Span.start();
            alphaWork();
            Span.end(s, "alpha");
            try (Span b = Span.open("beta")) {
                betaWork();
            }
        }
        for (int i = 0; i < IDLE; i++) {
            long s = Span.start();
            Thread.sleep(5);
            Span.end(s, "idleSampled");
            s = Span.start();
            Thread.sleep(5);
            Span.endAlways(s, "idleAlways");
        }
        p.execute("stop");
        ApiSelf.check(Span.state() == Span.STOPPED, "stopped: state " + Span.state());
        Span.endAlways(Span.start(), "afterStop");
        System.out.println("OK");
    }
}
