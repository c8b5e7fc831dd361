/**
 * The wall engine's idle check (WallTest same_wait): four threads named "alternator", one after the other,
 * each sleep 200 ms in firstWait, then 200 ms in secondWait, then 100 ms more, inside a Runnable. Both waits
 * are interpreted callers of Thread.sleep at the same depth, so the JVM's memory (thread states, frame
 * anchor, return address into the interpreter) reads the same in both: only the thread's having run between
 * them tells them apart.
 */
public class WallSameWait {
    static void firstWait() throws InterruptedException {
        Thread.sleep(200);
    }

    static void secondWait() throws InterruptedException {
        Thread.sleep(200);
    }

    static void around(Runnable work) {
        work.run();
    }

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < 4; i++) {
            Thread t = new Thread(() -> around(() -> {
                try {
                    firstWait();
                    secondWait();
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }), "alternator");
            t.start();
            t.join();
        }
    }
}
