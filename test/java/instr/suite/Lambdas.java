import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntBinaryOperator;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** invokedynamic: lambdas, every kind of method reference (MethodHandle constants of several kinds,
 * MethodType constants), string concatenation; long/float/double constants (two-slot pool entries). */
public class Lambdas {
    static final long BIG = 0x1234_5678_9abc_def0L;
    static final double PI_ISH = 3.141592653589793;

    public static String caseLambdas(int x) {
        IntBinaryOperator add = (a, b) -> a + b + x;
        Function<Integer, String> show = String::valueOf;                 // invokestatic
        Function<String, Integer> len = String::length;                   // invokevirtual
        Supplier<StringBuilder> make = StringBuilder::new;                // newInvokeSpecial
        Function<List<Integer>, Integer> size = List::size;               // invokeinterface
        String joined = IntStream.range(0, Math.floorMod(x, 5) + 1).mapToObj(i -> "i" + i * x)
                .collect(Collectors.joining(","));
        return show.apply(add.applyAsInt(x, 2)) + " " + len.apply(joined) + " " + make.get().append(joined)
                + " " + size.apply(Arrays.asList(1, 2, x));
    }

    public static String caseConcatAndConstants(int x) {
        long l = BIG + x;
        double d = PI_ISH * x;
        float f = 1.5f * x;
        char c = (char) ('a' + Math.floorMod(x, 26));
        return "l=" + l + " d=" + d + " f=" + f + " c=" + c + " x=" + x + " " + (l ^ 0x7fff_ffff_ffffL);
    }

    public static int caseRecursion(int x) {
        return factorial(x);
    }

    static int factorial(int x) {
        return x <= 1 ? 1 : x * factorial(x - 1) % 1_000_003;
    }
}
