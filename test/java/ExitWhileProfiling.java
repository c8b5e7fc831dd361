/**
 * Burns CPU in burnUntilExit for about a second, then calls System.exit(3) from inside it while the
 * profiler is still running: the profile must still be written, complete.
 */
public class ExitWhileProfiling {
    static volatile long sink;

    static void burnUntilExit() {
        long end = System.nanoTime() + 1_200_000_000L;
        long x = 3;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 10000; i++) x = x * 31 + i;
            sink += x;
        }
        System.exit(3);
    }

    public static void main(String[] args) {
        burnUntilExit();
    }
}
