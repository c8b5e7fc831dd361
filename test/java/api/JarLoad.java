import dev.libprof.Profiler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Loads the profiler from libprof.jar (Profiler.getInstance) and prints the permissions of the file the
 * library is mapped from ("mapped <path> mode rw-------"; read through /proc/self/map_files, the file itself
 * being deleted once loaded), then "OK".
 */
public class JarLoad {
    public static void main(String[] args) throws Exception {
        Profiler p = Profiler.getInstance();
        System.out.println("version " + p.execute("version").trim());
        for (String line : Files.readAllLines(Paths.get("/proc/self/maps"))) {
            String[] f = line.trim().split("\\s+", 6);
            if (f.length < 6 || !f[5].contains("/libprof")) continue;
            Path mapped = Paths.get("/proc/self/map_files/" + f[0]);
            System.out.println("mapped " + f[5] + " mode " + PosixFilePermissions.toString(Files.getPosixFilePermissions(mapped)));
            break;
        }
        System.out.println("OK");
    }
}
