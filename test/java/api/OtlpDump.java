import dev.libprof.Profiler;

import java.io.File;
import java.nio.file.Files;

/**
 * The Java API's OpenTelemetry dumps: profiles CPU in {@link #burn}, takes dumpOtlp() (sample counts), waits,
 * takes dumpOtlp(true) (their weight) from the same session, then stops and starts a second session and
 * takes one more; writes them to DIR/dump1.pb, dump2.pb, dump3.pb for the test to decode.
 * Usage: java -Dlibprof.path=libprof.so OtlpDump DIR
 */
public class OtlpDump {
    static volatile long sink;

    static void burn(long millis) {
        long end = System.nanoTime() + millis * 1_000_000L;
        long x = 1;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 10_000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
        }
        sink = x;
    }

    public static void main(String[] args) throws Exception {
        File dir = new File(args[0]);
        Profiler p = Profiler.getInstance();
        p.start("cpu", 1_000_000);
        burn(700);
        Files.write(new File(dir, "dump1.pb").toPath(), p.dumpOtlp());
        Thread.sleep(150);
        Files.write(new File(dir, "dump2.pb").toPath(), p.dumpOtlp(true));
        p.stop();
        Thread.sleep(20);
        p.start("cpu", 1_000_000);
        burn(200);
        Files.write(new File(dir, "dump3.pb").toPath(), p.dumpOtlp());
        p.stop();
        System.out.println("dumped");
    }
}
