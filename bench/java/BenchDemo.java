import java.lang.reflect.Method;

/**
 * The bundled demo (test/java/Demo.java: word counting, sorting, compression) as a fixed amount of work:
 * <rounds> of Demo.round, each printed as a BenchClock line. Demo is found on the class path at run time
 * (build/test-classes), so the benchmark measures the very program `./build.sh demo` profiles.
 * Usage: java -cp bench-classes:test-classes BenchDemo <rounds>
 */
public class BenchDemo {
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        Class<?> demo = Class.forName("Demo");
        Method text = demo.getDeclaredMethod("text"), round = demo.getDeclaredMethod("round", byte[].class);
        text.setAccessible(true);
        round.setAccessible(true);
        byte[] data = (byte[]) text.invoke(null);
        BenchClock clock = new BenchClock();
        for (int i = 0; i < rounds; i++) {
            sink += (long) round.invoke(null, (Object) data);
            clock.iteration();
        }
        BenchClock.total();
    }
}
