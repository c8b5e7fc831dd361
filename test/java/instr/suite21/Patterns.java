/**
 * Behaviour-suite cases for JDKs 21 and later, compiled by the JDK under test (--release 21): pattern
 * switches over enum constants and records, for which javac emits CONSTANT_Dynamic entries
 * (ConstantBootstraps.invoke of EnumDesc/ClassDesc) besides invokedynamic typeSwitch. InstrSuite runs these
 * cases when this class is on the class path.
 */
public class Patterns {
    enum E { A, B }

    sealed interface S permits X, Y {}

    record X(int v) implements S {}

    record Y(String s) implements S {}

    static Object pick(int x) {
        switch (Math.floorMod(x, 5)) {
            case 0: return E.A;
            case 1: return E.B;
            case 2: return new X(x);
            case 3: return new Y("y" + x);
            default: return x;
        }
    }

    public static String casePatternSwitch(int x) {
        return switch (pick(x)) {
            case E.A -> "a";
            case E e -> "e" + e;
            case X(int v) when v > 2 -> "big" + v;
            case X p -> "x" + p.v();
            case Y(String s) -> s;
            default -> "?";
        };
    }
}
