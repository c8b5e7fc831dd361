/**
 * Switches at every alignment: the 0-3 padding bytes after a tableswitch/lookupswitch opcode depend on its
 * code offset, which is 1, 4, 3 and 6 in the four A-D variants (padding 2, 3, 0, 1). The rewriter's
 * 4-byte prologue must keep each one's padding and targets.
 */
public class Switches {
    public static int caseTableA(int x) {  // iload_0; tableswitch at 1
        switch (x) {
            case 0: return 10;
            case 1: return 11;
            case 2: return 12;
            case 3: return 13;
            default: return -1;
        }
    }

    public static int caseTableB(int x) {  // iinc; iload_0; tableswitch at 4
        x++;
        switch (x) {
            case 0: return 20;
            case 1: return 21;
            case 2: return 22;
            case 3: return 23;
            default: return -2;
        }
    }

    public static int caseTableC(int x) {  // iload_0; istore_1; iload_1; tableswitch at 3
        int y = x;
        switch (y) {
            case 4: return 30;
            case 5: return 31;
            case 6: return 32;
            case 7: return 33;
            default: return -3;
        }
    }

    public static int caseTableD(int x) {  // iinc; iload_0; istore_1; iload_1; tableswitch at 6
        x++;
        int y = x;
        switch (y) {
            case 4: return 40;
            case 5: return 41;
            case 6: return 42;
            case 7: return 43;
            default: return -4;
        }
    }

    public static int caseLookupA(int x) {
        switch (x) {
            case -3: return 1;
            case 5: return 2;
            case 1000: return 3;
            default: return 0;
        }
    }

    public static int caseLookupB(int x) {
        x++;
        switch (x) {
            case -2: return 1;
            case 6: return 2;
            case 1000: return 3;
            default: return 0;
        }
    }

    public static int caseLookupC(int x) {
        int y = x;
        switch (y) {
            case -1: return 1;
            case 7: return 2;
            case 100000: return 3;
            default: return 0;
        }
    }

    public static int caseLookupD(int x) {
        x++;
        int y = x;
        switch (y) {
            case 0: return 1;
            case 8: return 2;
            case -100000: return 3;
            default: return 0;
        }
    }

    /** Switches in a loop (back branches over them), falling through, nested. */
    public static long caseLoopNested(int x) {
        long sum = 0;
        for (int i = 0; i < x + 5; i++) {
            switch (i % 5) {
                case 0: sum += 1;
                case 1: sum += 10; break;
                case 2:
                    switch (i) {
                        case 2: sum += 100; break;
                        case 1_000_000: sum -= 1; break;
                        default: sum += 7;
                    }
                    break;
                case 3: continue;
                default: sum *= 3;
            }
            sum ^= i;
        }
        return sum;
    }

    enum Color { RED, GREEN, BLUE }

    public static String caseStringAndEnum(int x) {
        String s = x % 3 == 0 ? "alpha" : x % 3 == 1 ? "beta" : "gamma";
        Color c = Color.values()[Math.floorMod(x, 3)];
        String r;
        switch (s) {
            case "alpha": r = "A"; break;
            case "beta": r = "B"; break;
            default: r = "?";
        }
        switch (c) {
            case RED: return r + "r";
            case GREEN: return r + "g";
            default: return r + "b";
        }
    }

    /** The instance form: aload_0 first. */
    private final int base;

    Switches(int base) {
        this.base = base;
    }

    int pick(int x) {
        switch (x + base) {
            case 1: return 5;
            case 2: return 6;
            case 3: return 7;
            default: return 8;
        }
    }

    public static int caseInstance(int x) {
        return new Switches(x).pick(2) + new Switches(-x).pick(x);
    }
}
