import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;

/** Exception tables: ranges starting at offset 0, nested handlers, finally, try-with-resources, monitors. */
public class Exceptions {
    public static int caseTryAtStart(int x) {
        try {
            return 100 / x;  // the protected range starts at code offset 0
        } catch (ArithmeticException e) {
            return -1;
        }
    }

    public static String caseNested(int x) {
        StringBuilder sb = new StringBuilder();
        try {
            try {
                if (x % 2 == 0) throw new IllegalStateException("even " + x);
                sb.append("odd");
                int[] a = new int[3];
                a[x] = 1;
            } catch (IllegalStateException e) {
                sb.append("ise:").append(e.getMessage());
                if (x > 5) throw new RuntimeException("wrapped", e);
            } finally {
                sb.append("/inner-finally");
            }
        } catch (ArrayIndexOutOfBoundsException | NegativeArraySizeException e) {
            sb.append("/aioobe");
        } catch (RuntimeException e) {
            sb.append("/rt:").append(e.getMessage());
        } finally {
            sb.append("/outer-finally");
        }
        return sb.toString();
    }

    @SuppressWarnings("finally")
    public static int caseFinallyOverrides(int x) {
        try {
            if (x < 0) throw new IllegalArgumentException();
            return x;
        } finally {
            if (x > 8) return -x;
        }
    }

    static final class Res implements Closeable {
        final List<String> log;
        final String name;

        Res(List<String> log, String name, boolean failOpen) {
            if (failOpen) throw new IllegalStateException("open " + name);
            this.log = log;
            this.name = name;
        }

        @Override
        public void close() {
            log.add("close " + name);
            if (name.equals("bad")) throw new IllegalStateException("close " + name);
        }
    }

    public static String caseTryWithResources(int x) {
        List<String> log = new ArrayList<>();
        try (Res a = new Res(log, "a", false); Res b = new Res(log, x % 4 == 0 ? "bad" : "b", x == 7)) {
            log.add("body");
            if (x % 3 == 0) throw new RuntimeException("body " + x);
        } catch (RuntimeException e) {
            log.add("caught " + e.getMessage() + " suppressed " + e.getSuppressed().length);
        }
        return log.toString();
    }

    private static final Object LOCK = new Object();
    private static int counter;

    public static int caseSynchronized(int x) {
        synchronized (LOCK) {
            counter += x;
            if (x == 3) {
                try {
                    synchronized (Exceptions.class) {
                        throw new UnsupportedOperationException();
                    }
                } catch (UnsupportedOperationException e) {
                    counter--;
                }
            }
            return counter;
        }
    }

    public static int caseLoopWithHandler(int x) {
        int ok = 0;
        for (int i = -2; i < x; i++) {
            try {
                ok += 10 / i;
            } catch (ArithmeticException e) {
                ok += 1000;
                continue;
            }
            ok++;
        }
        return ok;
    }
}
