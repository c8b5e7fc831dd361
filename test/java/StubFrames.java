/**
 * Workloads whose samples land in HotSpot stubs the walker steps by their code (
 * agent/signal/stub_frames.c):
 *  - exceptions: an exception thrown at the bottom of a recursion and caught at its top, in C2-compiled code:
 *    each compiled frame it leaves goes through C2's exception blob (entered by a jump, the frame's pc in
 *    rdx);
 *  - subtype: instanceof against interfaces of classes that implement many, in C1-compiled code (run it with
 *    -XX:TieredStopAtLevel=1): the one-entry secondary super cache keeps missing, and each miss calls C1's
 *    slow_subtype_check stub, which its caller calls with two arguments pushed.
 * Usage: java StubFrames exceptions|subtype [cpu seconds=2]
 */
public class StubFrames {
    static final class Stop extends RuntimeException {
        Stop() {
            super("stop", null, false, false);   // no stack trace: the time goes to unwinding, not to filling one
        }
    }

    static final Stop STOP = new Stop();
    static long sink;

    interface I0 {}
    interface I1 {}
    interface I2 {}
    interface I3 {}
    interface I4 {}
    interface I5 {}
    interface I6 {}
    interface I7 {}
    interface I8 {}
    interface I9 {}
    interface I10 {}
    interface I11 {}
    interface I12 {}
    interface I13 {}
    interface I14 {}
    interface I15 {}
    interface I16 {}
    interface I17 {}
    interface I18 {}
    interface I19 {}

    static final class ManyA implements I0, I1, I2, I3, I4, I5, I6, I7, I8, I9, I10, I11, I12, I13, I14, I15, I16, I17,
            I18, I19 {}

    static final class ManyB implements I19, I18, I17, I16, I15, I14, I13, I12, I11, I10, I9, I8, I7, I6, I5, I4, I3, I2,
            I1, I0 {}

    static final class Few implements I5, I10 {}

    public static void main(String[] args) {
        String what = args.length > 0 ? args[0] : "exceptions";
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 2;
        long end = System.nanoTime() + (long) (seconds * 1e9);
        switch (what) {
            case "exceptions" -> sink += exceptionsLoop(end);
            case "subtype" -> sink += subtypeLoop(new Object[] {new ManyA(), new ManyB(), new Few(), new ManyB()}, end);
            default -> throw new IllegalArgumentException("unknown workload '" + what + "': exceptions or subtype");
        }
        System.out.println(what + " " + sink);
    }

    static int down(int depth, int x) {
        if (depth == 0) {
            if ((x & 7) != 0) throw STOP;
            return x;
        }
        return down(depth - 1, x * 31 + depth) + 1;
    }

    static long exceptionsLoop(long end) {
        long caught = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 1000; i++) {
                try {
                    sink += down(12, i);
                } catch (Stop e) {
                    caught++;
                }
            }
        }
        return caught;
    }

    static long subtypeLoop(Object[] objects, long end) {
        long hits = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 10000; i++) {
                Object o = objects[i & 3];
                if (o instanceof I0) hits++;
                if (o instanceof I19) hits++;
                if (o instanceof I10) hits += 2;
                if (o instanceof I7) hits += 3;
            }
        }
        return hits;
    }
}
