import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Native frames whose only unwind information is .debug_frame: NativeChain's JNI chain built
 * with -g -fno-asynchronous-unwind-tables -fno-unwind-tables -fomit-frame-pointer (test/native/tests.cmake),
 * .debug_frame in the library itself (in_library) or only in its separate debug file beside the stripped
 * library (split). First readelf shows that the library's .eh_frame has no FDE for the chain's functions
 * while the .debug_frame read has one for each, so without .debug_frame nothing could walk them (no frame
 * pointers either); then the default mode must show the whole chain in order under its Java callers in
 * >= 90% of the samples in the burn (IntegrationTest.nativeChain).
 */
public class DebugFrameTest extends IntegrationTest {
    static final String[] CHAIN_FUNCTIONS = {"Java_NativeChain_spin", "chain_a", "chain_b", "chain_c"};

    public static void main(String[] args) throws Exception {
        runMain(args, test -> {
            switch (test) {
                case "in_library" -> debugFrameChain("dbgframe", false);
                case "split" -> debugFrameChain("dbgsplit", true);
                default -> throw new AssertionError("unknown test " + test);
            }
        });
    }

    static void debugFrameChain(String build, boolean split) throws Exception {
        Path lib = Path.of(agent).getParent().resolve("libchain_" + build + ".so");
        Path debugFile = split ? Path.of(lib + ".debug") : lib;
        check(Files.exists(debugFile), "missing " + debugFile);
        Map<String, Long> symbols = functionAddresses(split ? debugFile : lib);
        Map<String, List<long[]>> fdes = fdeRanges(lib);
        if (split) {
            check(fdes.getOrDefault(".debug_frame", List.of()).isEmpty(), "the stripped library kept .debug_frame");
            fdes.put(".debug_frame", fdeRanges(debugFile).getOrDefault(".debug_frame", List.of()));
        }
        for (String fn : CHAIN_FUNCTIONS) {
            Long address = symbols.get(fn);
            check(address != null, "no symbol " + fn + " in " + lib);
            check(!covers(fdes.get(".eh_frame"), address), fn + " has an .eh_frame FDE: the test would not need .debug_frame");
            check(covers(fdes.get(".debug_frame"), address), fn + " has no .debug_frame FDE");
        }
        System.out.printf("  %s: .eh_frame %d FDEs (none for the chain), .debug_frame %d FDEs%s%n", lib.getFileName(),
                fdes.getOrDefault(".eh_frame", List.of()).size(), fdes.get(".debug_frame").size(),
                split ? " in " + debugFile.getFileName() : "");
        nativeChain(build, "default", 90);
    }

    static boolean covers(List<long[]> ranges, long address) {
        if (ranges == null) return false;
        for (long[] r : ranges) if (address >= r[0] && address < r[1]) return true;
        return false;
    }

    /** A command's output; with mustSucceed false a non-zero exit is accepted (readelf exits 1 over the
     *  separate debug file's NOBITS .eh_frame, after dumping the rest). */
    static String run(boolean mustSucceed, String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        check(p.waitFor() == 0 || !mustSucceed, String.join(" ", command) + " failed: " + out);
        return out;
    }

    /** Function symbols (readelf -s, .symtab or .dynsym) by name. */
    static Map<String, Long> functionAddresses(Path file) throws Exception {
        Map<String, Long> out = new HashMap<>();
        Pattern sym = Pattern.compile("^\\s*\\d+:\\s+([0-9a-f]+)\\s+\\d+\\s+FUNC\\s+\\S+\\s+\\S+\\s+\\S+\\s+(\\S+)");
        for (String line : run(true, "readelf", "-W", "-s", file.toString()).split("\n")) {
            Matcher m = sym.matcher(line);
            if (m.find() && Long.parseUnsignedLong(m.group(1), 16) != 0) out.put(m.group(2), Long.parseUnsignedLong(m.group(1), 16));
        }
        return out;
    }

    /** The FDE address ranges of each frame section readelf finds (.eh_frame, .debug_frame). */
    static Map<String, List<long[]>> fdeRanges(Path file) throws Exception {
        Map<String, List<long[]>> out = new HashMap<>();
        Pattern section = Pattern.compile("^Contents of the (\\.\\w+) section");
        Pattern fde = Pattern.compile(" FDE cie=\\p{XDigit}+ pc=(\\p{XDigit}+)\\.\\.(\\p{XDigit}+)");
        List<long[]> current = new ArrayList<>();
        // -wN: each file's own sections, not those of the debug file its .gnu_debuglink names
        String dump = run(false, "readelf", "-W", "-wN", "--debug-dump=frames", file.toString());
        check(dump.contains("Contents of the "), "readelf found no frame section in " + file + ": " + dump);
        for (String line : dump.split("\n")) {
            Matcher s = section.matcher(line);
            if (s.find()) {
                current = new ArrayList<>();
                out.put(s.group(1), current);
                continue;
            }
            Matcher f = fde.matcher(line);
            if (f.find()) current.add(new long[] {Long.parseUnsignedLong(f.group(1), 16), Long.parseUnsignedLong(f.group(2), 16)});
        }
        return out;
    }
}
