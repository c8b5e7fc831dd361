import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.MessageDigest;

/**
 * Workloads for the walker's VM-structure features (VmFeaturesTest.java):
 *   digest S       MD5 digests of 48-byte buffers, each by a new MessageDigest: much of the time in HotSpot's
 *                  md5_implCompress intrinsic stub, which builds an rbp frame over words it leaves unwritten,
 *                  where the reflective construction of the digest left return addresses
 *   receivers S    one virtual call site (abstract class) and one interface call site, each over three
 *                  receiver classes called in the ratio 1:2:3 (A, B, C; X, Y, Z): C2 calls them through a
 *                  vtable and an itable stub, whose time per call is the same for every receiver
 * Each runs on the main thread for S seconds of its CPU time (at most 60 s of wall time) and prints
 * "VMFEATURES <mode> done <sum>".
 */
public class VmFeatures {
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long until = threads.getCurrentThreadCpuTime() + (long) (Double.parseDouble(args[1]) * 1e9);
        long deadline = System.nanoTime() + 60_000_000_000L, sum = 0;
        byte[] buffer = new byte[48];
        while (threads.getCurrentThreadCpuTime() < until && System.nanoTime() < deadline) {
            switch (args[0]) {
                case "digest" -> sum += digest(MessageDigest.getInstance("MD5"), buffer);
                case "receivers" -> sum += virtualCalls(100_000) + interfaceCalls(100_000);
                default -> throw new IllegalArgumentException("unknown mode " + args[0] + ": digest or receivers");
            }
        }
        System.out.println("VMFEATURES " + args[0] + " done " + sum);
    }

    static long digest(MessageDigest md5, byte[] buffer) {
        buffer[0]++;
        return md5.digest(buffer)[0];
    }

    abstract static class Base {
        abstract long step(long x);
    }

    static final class A extends Base { long step(long x) { return x + 1; } }
    static final class B extends Base { long step(long x) { return x * 3; } }
    static final class C extends Base { long step(long x) { return x ^ 5; } }

    interface Step {
        long step(long x);
    }

    static final class X implements Step { public long step(long x) { return x - 7; } }
    static final class Y implements Step { public long step(long x) { return x >>> 1; } }
    static final class Z implements Step { public long step(long x) { return x | 9; } }

    /** 1 A, 2 B, 3 C: the receivers' shares of the calls. */
    static final Base[] BASES = {new A(), new B(), new B(), new C(), new C(), new C()};
    static final Step[] STEPS = {new X(), new Y(), new Y(), new Z(), new Z(), new Z()};

    static long virtualCalls(int n) {
        long s = 0;
        for (int i = 0; i < n; i++) s += BASES[i % 6].step(i);
        sink = s;
        return s;
    }

    static long interfaceCalls(int n) {
        long s = 0;
        for (int i = 0; i < n; i++) s += STEPS[i % 6].step(i);
        sink = s;
        return s;
    }
}
