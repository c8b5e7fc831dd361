/**
 * The native memory and lock workload, over test/native/jni/nativemem.c:
 *   sites ROUNDS   - ROUNDS x (site A: 3000 bytes by malloc; site B: twice 500 bytes by calloc), all freed
 *   leak K ROUNDS  - the same, then K blocks of 777 bytes leaked at nativemem_leak_site
 *   lock THREADS ROUNDS - THREADS threads take one native mutex ROUNDS times each, holding it 1 ms
 *   wait SECONDS   - allocates at both sites until SECONDS passed, for attach; prints "hooked N" (this
 *                    library's malloc import slots not holding the real malloc) when stdin gives a line
 * Usage: java NativeMem /path/to/libnativemem.so MODE ARGS...
 */
import java.io.BufferedReader;
import java.io.InputStreamReader;

public class NativeMem {
    static native void allocate(int rounds);
    static native void leak(int blocks);
    static native void contend(int rounds);
    static native int hookedSlots();

    public static void main(String[] args) throws Exception {
        System.load(args[0]);
        // Objects loaded during a session are hooked within 100 ms: give the watcher time before measuring.
        Thread.sleep(400);
        switch (args[1]) {
            case "sites" -> allocate(Integer.parseInt(args[2]));
            case "leak" -> {
                allocate(Integer.parseInt(args[3]));
                leak(Integer.parseInt(args[2]));
            }
            case "lock" -> {
                int threads = Integer.parseInt(args[2]), rounds = Integer.parseInt(args[3]);
                Thread[] all = new Thread[threads];
                for (int i = 0; i < threads; i++) {
                    all[i] = new Thread(() -> contend(rounds), "waiter-" + i);
                    all[i].start();
                }
                for (Thread t : all) t.join();
            }
            case "wait" -> {
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
                System.out.println("ready");
                System.out.flush();
                String line;
                while ((line = in.readLine()) != null && !line.equals("quit")) {
                    allocate(100);
                    System.out.println("hooked " + hookedSlots());
                    System.out.flush();
                }
            }
            default -> throw new IllegalArgumentException(args[1]);
        }
        System.out.println("NativeMem " + args[1] + " done");
    }
}
