import java.nio.ByteBuffer;

/**
 * Page faults on purpose: allocates 1 MiB direct buffers one after another. Each is fresh memory from the
 * kernel (large mallocs are mmap'd and unmapped again when freed), and the JVM zeroes it, touching every
 * page: 256 page faults per buffer, in the allocating thread's Java stack.
 * Usage: java FaultLoop [buffers=400]
 */
public class FaultLoop {
    static long sink;

    static void allocate(int buffers) {
        for (int i = 0; i < buffers; i++) {
            ByteBuffer b = ByteBuffer.allocateDirect(1 << 20);
            sink += b.get(i % b.capacity());
            if (i % 64 == 63) System.gc();   // lets the cleaners free the buffers
        }
    }

    public static void main(String[] args) {
        allocate(args.length > 0 ? Integer.parseInt(args[0]) : 400);
        System.out.println("DONE " + sink);
    }
}
