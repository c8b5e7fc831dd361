import java.util.ArrayList;
import java.util.List;

/** Constructors (chained, super arguments computed before super(), `new` across branches, which puts
 * Uninitialized(offset) types in StackMapTable frames), static initialisers, inner and anonymous classes,
 * enums with bodies, records, interfaces with static and default methods. */
public class Objects {
    static final List<String> INIT_ORDER = new ArrayList<>();
    static int created;

    static {
        INIT_ORDER.add("Objects.<clinit>");
    }

    static class Point {
        final int x, y;

        Point(int x, int y) {
            this.x = x;
            this.y = y;
            created++;
        }

        Point(int v) {
            this(v > 0 ? v : -v, v % 3 == 0 ? 3 : new Point(v, v).x);  // a new inside another's arguments
        }

        @Override
        public String toString() {
            return "(" + x + "," + y + ")";
        }
    }

    static class Base {
        final String tag;

        Base(String tag) {
            this.tag = tag;
        }
    }

    static class Derived extends Base {
        Derived(int x) {
            super(describe(x) + (x > 2 ? "+" : "-"));  // a static call and a branch before super()
        }

        static String describe(int x) {
            return "d" + x;
        }
    }

    enum Op {
        ADD { int apply(int a, int b) { return a + b; } },
        MUL { int apply(int a, int b) { return a * b; } };

        abstract int apply(int a, int b);
    }

    record Pair(int a, String b) {
        Pair {
            if (a < -100) throw new IllegalArgumentException();
        }
    }

    interface Shape {
        double area();

        default String describe() {
            return getClass().getSimpleName() + ":" + Math.round(area());
        }

        static Shape square(double side) {
            return () -> side * side;
        }
    }

    class Inner {
        int twice(int v) {
            return 2 * v + INIT_ORDER.size();
        }
    }

    public static String caseConstructors(int x) {
        Point p = new Point(x);
        Point q = x > 4 ? new Point(x, new Point(1, 2).y) : new Point(-x);
        return p + " " + q + " " + new Derived(x).tag;
    }

    public static String caseEnumRecordInterface(int x) {
        Op op = Op.values()[Math.floorMod(x, 2)];
        Pair pair = new Pair(op.apply(x, 3), op.name());
        Shape s = Shape.square(x);
        Shape anon = new Shape() {
            @Override
            public double area() {
                return x * 0.5;
            }
        };
        return pair + " " + s.area() + " " + anon.area() + " " + pair.equals(new Pair(pair.a(), pair.b()))
                + " " + new Objects().new Inner().twice(x);
    }

    public static String caseStaticInit(int x) {
        return INIT_ORDER + " " + Lazy.VALUE + x;
    }

    static class Lazy {
        static final String VALUE;

        static {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 3; i++) sb.append(i);
            VALUE = sb.toString();
            INIT_ORDER.add("Lazy.<clinit>");
        }
    }
}
