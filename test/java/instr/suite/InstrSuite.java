import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The behaviour suite's driver: calls every public static case* method of the case classes with the inputs
 * -3..12 and prints each result (or exception), so that a run on the compiled classes and a run on the same
 * classes rewritten by classfile_tool can be compared line by line. Lines starting with '#' differ between
 * the two runs on purpose and are left out of the comparison.
 *
 * When libprof.CallCounter saw calls (the rewritten run), it also checks them: each case method was entered
 * exactly as often as it was called here, a constructor and static initialisers as often as they ran, and
 * methods of classes the rewriter had to refuse (LimitTooLong) never. Exits 1 when a check fails.
 */
public class InstrSuite {
    static final Class<?>[] CASES = {Switches.class, Branches.class, Exceptions.class, Objects.class, Lambdas.class,
            Big.class, Wide.class, LimitOk.class, LimitTooLong.class};
    static final Set<String> REFUSED = Set.of("LimitTooLong");
    /** Classes written by gen/GenOldClasses (version 49 with jsr/ret, version 45). */
    static final String[] GENERATED_CASES = {"OldJsr", "Old45"};
    /** Cases compiled only for JDKs that have them (suite21/), run when present. */
    static final String[] OPTIONAL_CASES = {"Patterns"};
    static final int FIRST = -3, LAST = 12;

    public static void main(String[] args) throws Exception {
        List<Class<?>> cases = new ArrayList<>(Arrays.asList(CASES));
        for (String name : GENERATED_CASES) cases.add(Class.forName(name));
        for (String name : OPTIONAL_CASES) {
            try {
                cases.add(Class.forName(name));
            } catch (ClassNotFoundException e) {
                System.out.println("# optional cases " + name + " not on the class path");
            }
        }
        int calls = 0;
        for (Class<?> c : cases) {
            Method[] methods = c.getDeclaredMethods();
            Arrays.sort(methods, Comparator.comparing(Method::getName));
            for (Method m : methods) {
                if (!m.getName().startsWith("case") || !Modifier.isStatic(m.getModifiers())) continue;
                for (int x = FIRST; x <= LAST; x++) {
                    Object r;
                    try {
                        r = m.invoke(null, x);
                    } catch (InvocationTargetException e) {
                        r = "threw " + e.getCause();
                    }
                    System.out.println(c.getName() + "." + m.getName() + "(" + x + ") = " + r);
                    calls++;
                }
            }
        }
        Map<String, Long> counted = libprof.CallCounter.snapshot();
        System.out.println("# case calls " + calls + ", helper calls seen for " + counted.size() + " methods");
        long[] traced = libprof.CallCounter.traced();
        if (traced[0] > 0) {  // rewritten for timing (classfile_tool --trace): main itself has not exited yet
            System.out.println("# traced calls entered " + traced[0] + ", exited " + (traced[1] + 1));
            return;
        }
        if (counted.isEmpty()) return;  // the run on the original classes
        int failures = 0, checks = 0;
        for (Class<?> c : cases) {
            long expected = REFUSED.contains(c.getName()) ? 0 : LAST - FIRST + 1;
            for (Method m : c.getDeclaredMethods()) {
                if (!m.getName().startsWith("case")) continue;
                failures += check(c.getName() + "." + m.getName(), expected);
                checks++;
            }
        }
        // Objects.caseConstructors runs Point(int) once and Point(int, int) 2-3 times per call
        failures += check("InstrSuite.main", 1);
        failures += check("Objects.<clinit>", 1);
        failures += check("Objects$Lazy.<clinit>", 1);
        failures += check("Objects$Point.<init>", Objects.created + countPointIntCalls());
        checks += 4;
        System.out.println("# helper call checks " + checks + ", failed " + failures);
        if (failures > 0) System.exit(1);
    }

    /** Point(int) calls made by caseConstructors: one per call, plus one more when x <= 4. */
    static long countPointIntCalls() {
        long n = 0;
        for (int x = FIRST; x <= LAST; x++) n += x > 4 ? 1 : 2;
        return n;
    }

    static int check(String method, long expected) {
        long seen = libprof.CallCounter.count(method);
        if (seen == expected) return 0;
        System.out.println("# FAILED: " + method + " entered " + seen + " times through the helper, expected " + expected);
        return 1;
    }
}
