import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A real multi-threaded application for the instrumentation tests: the JDK's javac, run in-process by two
 * threads at once, each compiling its own generated corpus of small classes (generics, lambdas, switches,
 * exceptions, inner classes: a wide sample of javac's own code runs).
 *   InstrumentJavac <work dir> <files per thread>
 */
public class InstrumentJavac {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int files = Integer.parseInt(args[1]);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<Thread> threads = new ArrayList<>();
        int[] results = new int[2];
        for (int t = 0; t < 2; t++) {
            Path src = dir.resolve("src" + t), out = dir.resolve("out" + t);
            Files.createDirectories(src);
            Files.createDirectories(out);
            List<String> argv = new ArrayList<>(List.of("-d", out.toString(), "-g"));
            for (int i = 0; i < files; i++) argv.add(write(src, t, i).toString());
            final int slot = t;
            threads.add(new Thread(() -> results[slot] = javac.run(null, null, null, argv.toArray(new String[0])),
                    "javac-" + t));
        }
        for (Thread th : threads) th.start();
        for (Thread th : threads) th.join();
        System.out.println("javac results " + results[0] + " " + results[1]);
        if (results[0] != 0 || results[1] != 0) System.exit(1);
    }

    static Path write(Path src, int t, int i) throws Exception {
        String name = "Gen" + t + "_" + i;
        String text = "import java.util.*;\nimport java.util.function.*;\n"
                + "public class " + name + "<T extends Comparable<T>> {\n"
                + "  private final List<T> items = new ArrayList<>();\n"
                + "  interface Visitor { int visit(int x); }\n"
                + "  static final class Inner implements Visitor { public int visit(int x) { return x * " + (i + 1) + "; } }\n"
                + "  public int sum(int n) {\n"
                + "    int s = 0;\n"
                + "    for (int k = 0; k < n; k++) {\n"
                + "      switch (k % 5) { case 0: s += k; break; case 1: s -= k; break; case 3: s ^= k; break; default: s++; }\n"
                + "    }\n"
                + "    try { s += Integer.parseInt(\"" + i + "\"); } catch (NumberFormatException e) { s = -1; }\n"
                + "    return s;\n"
                + "  }\n"
                + "  public Optional<T> max() { return items.stream().max(Comparator.naturalOrder()); }\n"
                + "  public Map<String, Integer> index(List<String> keys) {\n"
                + "    Map<String, Integer> m = new HashMap<>();\n"
                + "    keys.forEach(k -> m.merge(k, 1, Integer::sum));\n"
                + "    Function<Integer, String> f = x -> \"v\" + x + \"" + name + "\";\n"
                + "    m.put(f.apply(" + i + "), new Inner().visit(" + i + "));\n"
                + "    return m;\n"
                + "  }\n"
                + (i > 0 ? "  Gen" + t + "_" + (i - 1) + "<String> previous;\n" : "")
                + "}\n";
        Path file = src.resolve(name + ".java");
        Files.writeString(file, text);
        return file;
    }
}
