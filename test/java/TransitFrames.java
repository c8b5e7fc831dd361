/*
 * Compiled code calling methods that stay interpreted (excluded from compilation by the test's
 * -XX:CompileCommand), so samples land where HotSpot passes control between the two: the compiled caller's
 * static call stub, the C2I adapter, the interpreter's method entry (pushing the callee's locals: 'wide' has
 * 200 slots of them; 'locked' takes its monitor there) and its return, and for 'thrower' the interpreter's
 * exception continuation, which finds the compiled caller's handler. The only Java chains from main are
 * main -> caller -> narrow, wide, locked or thrower.
 * Argument: seconds to run.
 */
public class TransitFrames {
    static int sink;

    static int narrow(int x) {
        return x + 1;
    }

    /** Its locals are declared in a branch never taken: they cost the entry's pushes, not bytecodes. */
    static int wide(int x) {
        if (x == Integer.MIN_VALUE) {
            long a0 = x + 0; long a1 = x + 1; long a2 = x + 2; long a3 = x + 3; long a4 = x + 4; long a5 = x + 5; long a6 = x + 6; long a7 = x + 7; long a8 = x + 8; long a9 = x + 9; long a10 = x + 10; long a11 = x + 11; long a12 = x + 12; long a13 = x + 13; long a14 = x + 14; long a15 = x + 15; long a16 = x + 16; long a17 = x + 17; long a18 = x + 18; long a19 = x + 19; long a20 = x + 20; long a21 = x + 21; long a22 = x + 22; long a23 = x + 23; long a24 = x + 24; long a25 = x + 25; long a26 = x + 26; long a27 = x + 27; long a28 = x + 28; long a29 = x + 29; long a30 = x + 30; long a31 = x + 31; long a32 = x + 32; long a33 = x + 33; long a34 = x + 34; long a35 = x + 35; long a36 = x + 36; long a37 = x + 37; long a38 = x + 38; long a39 = x + 39; long a40 = x + 40; long a41 = x + 41; long a42 = x + 42; long a43 = x + 43; long a44 = x + 44; long a45 = x + 45; long a46 = x + 46; long a47 = x + 47; long a48 = x + 48; long a49 = x + 49; long a50 = x + 50; long a51 = x + 51; long a52 = x + 52; long a53 = x + 53; long a54 = x + 54; long a55 = x + 55; long a56 = x + 56; long a57 = x + 57; long a58 = x + 58; long a59 = x + 59; long a60 = x + 60; long a61 = x + 61; long a62 = x + 62; long a63 = x + 63; long a64 = x + 64; long a65 = x + 65; long a66 = x + 66; long a67 = x + 67; long a68 = x + 68; long a69 = x + 69; long a70 = x + 70; long a71 = x + 71; long a72 = x + 72; long a73 = x + 73; long a74 = x + 74; long a75 = x + 75; long a76 = x + 76; long a77 = x + 77; long a78 = x + 78; long a79 = x + 79; long a80 = x + 80; long a81 = x + 81; long a82 = x + 82; long a83 = x + 83; long a84 = x + 84; long a85 = x + 85; long a86 = x + 86; long a87 = x + 87; long a88 = x + 88; long a89 = x + 89; long a90 = x + 90; long a91 = x + 91; long a92 = x + 92; long a93 = x + 93; long a94 = x + 94; long a95 = x + 95; long a96 = x + 96; long a97 = x + 97; long a98 = x + 98; long a99 = x + 99;
            sink = (int) (a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12 + a13 + a14 + a15 + a16 + a17 + a18 + a19 + a20 + a21 + a22 + a23 + a24 + a25 + a26 + a27 + a28 + a29 + a30 + a31 + a32 + a33 + a34 + a35 + a36 + a37 + a38 + a39 + a40 + a41 + a42 + a43 + a44 + a45 + a46 + a47 + a48 + a49 + a50 + a51 + a52 + a53 + a54 + a55 + a56 + a57 + a58 + a59 + a60 + a61 + a62 + a63 + a64 + a65 + a66 + a67 + a68 + a69 + a70 + a71 + a72 + a73 + a74 + a75 + a76 + a77 + a78 + a79 + a80 + a81 + a82 + a83 + a84 + a85 + a86 + a87 + a88 + a89 + a90 + a91 + a92 + a93 + a94 + a95 + a96 + a97 + a98 + a99);
        }
        return x ^ 5;
    }

    static synchronized int locked(int x) {
        return x - 3;
    }

    /** Thrown without a stack trace, so that the time goes to the unwinding, not to filling one in. */
    static final RuntimeException ODD = new RuntimeException("odd", null, false, false) { };

    static int thrower(int x) {
        if ((x & 1) != 0) throw ODD;
        return x >> 1;
    }

    static int caller(int x) {
        int r = narrow(x) + wide(x) + locked(x);
        try {
            r += thrower(x);
        } catch (RuntimeException e) {
            r++;
        }
        return r;
    }

    public static void main(String[] args) {
        long end = System.nanoTime() + (long) (Double.parseDouble(args[0]) * 1e9);
        int s = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 10000; i++) s = caller(s);
        }
        sink = s;
        System.out.println("done");
    }
}
