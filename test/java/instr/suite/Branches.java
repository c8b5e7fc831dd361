/**
 * Branches back to code offset 0: a loop whose header (or body) is the method's first instruction has a
 * StackMapTable frame at offset 0 and a backward branch to 0. After the rewrite the branch must land on the
 * original first instruction, not on the helper call: InstrSuite's exact call counts catch a helper that
 * runs once per iteration.
 */
public class Branches {
    public static int caseLoopAtStart(int x) {
        while (x < 40) x += 3;  // offset 0: iload_0, the loop test
        return x;
    }

    public static int caseDoWhileAtStart(int x) {
        do {
            x += 7;  // offset 0: the body; the loop's branch goes back to 0
        } while (x < 50);
        return x;
    }

    public static int caseNestedAtStart(int x) {
        for (;;) {
            if (x > 30) return x;
            for (int i = 0; i < 3; i++) x += i ^ 1;
            x = x < 0 ? -x : x + (x & 1) * 2;
        }
    }
}
