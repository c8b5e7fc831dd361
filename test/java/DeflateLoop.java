import java.lang.management.ManagementFactory;
import java.util.zip.Deflater;

/**
 * Compresses generated text with java.util.zip.Deflater (native zlib) in a loop, for the mixed-stack test
 * that expects Java -> Deflater -> JNI -> zlib's deflate in one stack. Usage: java DeflateLoop [cpu s=2]
 */
public class DeflateLoop {
    static volatile long sink;

    static byte[] text() {
        StringBuilder b = new StringBuilder();
        long x = 1;
        for (int i = 0; i < 200000; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            b.append("w").append((x >>> 50) % 3000).append(' ');
        }
        return b.toString().getBytes();
    }

    static int compress(byte[] data, byte[] out) {
        Deflater d = new Deflater(6);
        d.setInput(data);
        d.finish();
        int n = 0;
        while (!d.finished()) n += d.deflate(out);
        d.end();
        return n;
    }

    public static void main(String[] args) {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 2;
        var threads = ManagementFactory.getThreadMXBean();
        long end = threads.getCurrentThreadCpuTime() + (long) (seconds * 1e9);
        byte[] data = text(), out = new byte[data.length];
        while (threads.getCurrentThreadCpuTime() < end) sink += compress(data, out);
        System.out.println("compressed " + (sink > 0));
    }
}
