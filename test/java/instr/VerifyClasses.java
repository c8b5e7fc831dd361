import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Loads and links (which runs the bytecode verifier) every class under a directory of classes rewritten
 * by classfile_tool, without initialising them:
 *     java -Xverify:all -cp <this> VerifyClasses CLASSES_DIR[:CLASSES_DIR...] [DEPENDENCY.jar ...]
 * Classes are defined by a child-first loader over the CLASSES_DIRs whose parent holds the dependency jars (and the
 * test helper libprof.CallCounter, from the class path). A VerifyError or ClassFormatError is a failure;
 * a class whose own dependencies are missing (NoClassDefFoundError and other linkage errors naming another
 * class) is counted as skipped. Prints the counts of each directory and every failure; exits 1 when anything
 * failed or when nothing was verified. One JVM for all directories: -Xverify:all makes each start slow.
 */
public class VerifyClasses {
    static final class ChildFirst extends ClassLoader {
        private final List<Path> roots;

        ChildFirst(List<Path> roots, ClassLoader parent) {
            super(parent);
            this.roots = roots;
        }

        Path find(String name) {
            for (Path root : roots) {
                Path file = root.resolve(name.replace('.', '/') + ".class");
                if (Files.isRegularFile(file)) return file;
            }
            return null;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    Path file = find(name);
                    if (file != null && !name.startsWith("java.")) {
                        try {
                            byte[] b = Files.readAllBytes(file);
                            c = defineClass(name, b, 0, b.length);
                        } catch (IOException e) {
                            throw new ClassNotFoundException(name, e);
                        }
                    } else {
                        return super.loadClass(name, resolve);
                    }
                }
                if (resolve) resolveClass(c);
                return c;
            }
        }
    }

    public static void main(String[] args) throws Exception {
        List<Path> roots = new ArrayList<>();
        for (String dir : args[0].split(":")) roots.add(Paths.get(dir));
        URL[] deps = new URL[args.length - 1];
        for (int i = 1; i < args.length; i++) deps[i - 1] = Paths.get(args[i]).toUri().toURL();
        ClassLoader parent = new URLClassLoader(deps, VerifyClasses.class.getClassLoader());
        ChildFirst loader = new ChildFirst(roots, parent);
        int verifiedAll = 0, failedAll = 0;
        for (Path root : roots) {
            List<String> names;
            try (Stream<Path> files = Files.walk(root)) {
                names = files.filter(p -> p.toString().endsWith(".class"))
                        .map(p -> root.relativize(p).toString().replace('/', '.').replaceAll("\\.class$", ""))
                        .filter(n -> !n.endsWith("module-info") && !n.endsWith("package-info"))
                        .sorted().collect(Collectors.toList());
            }
            int verified = 0, skipped = 0, failed = 0;
            Map<String, Integer> skipReasons = new TreeMap<>();
            for (String name : names) {
                try {
                    Class<?> c = Class.forName(name, false, loader);
                    c.getDeclaredFields();  // HotSpot links (and so verifies) the class before reflecting on it
                    verified++;
                } catch (VerifyError | ClassFormatError e) {
                    failed++;
                    System.out.println("FAILED " + name + ": " + e);
                } catch (LinkageError | ClassNotFoundException | SecurityException e) {
                    skipped++;
                    skipReasons.merge(e.getClass().getSimpleName(), 1, Integer::sum);
                }
            }
            System.out.println(root + ": classes " + names.size() + " verified " + verified + " skipped " + skipped
                    + " " + skipReasons + " failed " + failed);
            verifiedAll += verified;
            failedAll += failed;
        }
        if (failedAll > 0 || verifiedAll == 0) System.exit(1);
    }
}
