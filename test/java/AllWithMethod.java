/**
 * all with an instrumented method as the session's event (AsprofFeaturesTest.all_with_method): the main thread
 * calls counted() exactly CALLS times, a millisecond apart, while AllEvents gives every other event something to
 * record. Prints "TRUTH calls=N".
 */
public class AllWithMethod {
    static final int CALLS = 500;
    static volatile long sink;

    static void counted(int i) {
        sink += i;
    }

    public static void main(String[] args) throws Exception {
        Thread others = new Thread(() -> {
            try {
                AllEvents.main(new String[] {"1.5"});
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        }, "others");
        others.start();
        for (int i = 0; i < CALLS; i++) {
            counted(i);
            Thread.sleep(1);
        }
        others.join();
        System.out.println("TRUTH calls=" + CALLS);
    }
}
