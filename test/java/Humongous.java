/**
 * Allocates a known number of humongous arrays (2 MB each: more than half of a 1 MB G1 region, so each is
 * allocated by G1CollectedHeap::humongous_obj_allocate) in allocateBig, and many small ones in allocateSmall,
 * which never are. Prints "ALLOCATED <n>". Run with -XX:+UseG1GC -XX:G1HeapRegionSize=1M.
 * Usage: java Humongous <count>
 */
public class Humongous {
    static volatile Object keep;

    static void allocateBig(int count) {
        for (int i = 0; i < count; i++) keep = new byte[2 << 20];
    }

    static void allocateSmall(int count) {
        for (int i = 0; i < count; i++) keep = new byte[64];
    }

    public static void main(String[] args) {
        int count = Integer.parseInt(args[0]);
        allocateSmall(1_000_000);
        allocateBig(count);
        allocateSmall(1_000_000);
        System.out.println("ALLOCATED " + count);
    }
}
