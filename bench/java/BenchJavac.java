import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * A real application workload: the JDK's own javac compiling a generated corpus in-process, in a loop.
 * Prints one line per iteration: "ITER <ms> CPU <ms>" (BenchClock). Usage: java BenchJavac <work dir> <iterations> [files=60]
 */
public class BenchJavac {
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        int iterations = Integer.parseInt(args[1]);
        int files = args.length > 2 ? Integer.parseInt(args[2]) : 60;
        List<String> sources = generate(dir.resolve("src"), files);
        Path out = Files.createDirectories(dir.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> argv = new ArrayList<>(List.of("-d", out.toString(), "-proc:none", "-nowarn"));
        argv.addAll(sources);
        BenchClock clock = new BenchClock();
        for (int i = 0; i < iterations; i++) {
            int rc = javac.run(null, null, null, argv.toArray(new String[0]));
            if (rc != 0) throw new IllegalStateException("javac failed: " + rc);
            clock.iteration();
        }
        BenchClock.total();
    }

    /** Classes with fields, generics, lambdas, loops and string formatting: a little of everything javac does. */
    static List<String> generate(Path src, int files) throws IOException {
        Files.createDirectories(src.resolve("gen"));
        List<String> paths = new ArrayList<>();
        for (int f = 0; f < files; f++) {
            StringBuilder b = new StringBuilder("package gen;\nimport java.util.*;\nimport java.util.function.*;\n");
            b.append("public class C").append(f).append(" {\n");
            for (int m = 0; m < 30; m++) {
                b.append("  private final Map<String, List<Integer>> f").append(m).append(" = new HashMap<>();\n");
                b.append("  public int m").append(m).append("(List<Integer> xs, Function<Integer, Integer> g) {\n")
                 .append("    int s = 0; for (int x : xs) { s += g.apply(x) * ").append(m + 1).append("; }\n")
                 .append("    f").append(m).append(".computeIfAbsent(\"k\" + s, k -> new ArrayList<>()).add(s);\n")
                 .append("    return xs.stream().filter(x -> x % ").append(m + 2)
                 .append(" == 0).mapToInt(Integer::intValue).sum() + s")
                 .append(f > 0 ? " + new C" + (f - 1) + "().m" + m + "(List.of(), x -> x)" : "").append(";\n  }\n");
            }
            b.append("}\n");
            Path p = src.resolve("gen/C" + f + ".java");
            Files.writeString(p, b);
            paths.add(p.toString());
        }
        return paths;
    }
}
