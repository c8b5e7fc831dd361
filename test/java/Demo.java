import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;

/**
 * The bundled demo: a small "application" with recognisable hot spots for ./build.sh demo.
 * Word counting in a HashMap, sorting, and compression (java.util.zip, which runs native zlib code).
 */
public class Demo {
    static volatile long sink;

    static List<String> makeWords(int n) {
        List<String> words = new ArrayList<>(n);
        long x = 12345;
        for (int i = 0; i < n; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            words.add("w" + ((x >>> 33) % 5000));
        }
        return words;
    }

    static Map<String, Integer> countWords(List<String> words) {
        Map<String, Integer> counts = new HashMap<>();
        for (String w : words) counts.merge(w, 1, Integer::sum);
        return counts;
    }

    static long sortNumbers(int n) {
        long[] a = new long[n];
        long x = 99;
        for (int i = 0; i < n; i++) a[i] = x = x * 2862933555777941757L + 3037000493L;
        java.util.Arrays.sort(a);
        return a[n / 2];
    }

    static int compress(byte[] data) {
        Deflater d = new Deflater(1);
        d.setInput(data);
        d.finish();
        byte[] out = new byte[data.length + 64];
        int n = 0;
        while (!d.finished()) n += d.deflate(out);
        d.end();
        return n;
    }

    static byte[] text() {
        return String.join(" ", makeWords(20000)).getBytes();
    }

    /** One round of the demo's work: the unit bench/java/BenchDemo.java counts CPU time by. */
    static long round(byte[] text) {
        return countWords(makeWords(100000)).size() + sortNumbers(300000) + compress(text);
    }

    public static void main(String[] args) {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 3;
        long end = System.nanoTime() + (long) (seconds * 1e9);
        byte[] text = text();
        while (System.nanoTime() < end) sink += round(text);
        System.out.println("demo done " + (sink != 0));
    }
}
