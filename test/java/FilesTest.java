import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Integration tests of the files the agent and jfrconv write (agent/util/safe_file.c): a recording in progress
 * is private, names planted where temporary files go neither hang a dump nor receive the recording, a
 * failed move keeps the recording, devices and links are written in place. Devices are mknod copies in the
 * test's own directory; the real /dev is never touched. Usage (from ctest, as IntegrationTest):
 *   java FilesTest <test> <java_home of the target JVM> <libprof.so> <workload classpath> <work dir> <jfrconv>
 */
public class FilesTest {
    public static void main(String[] args) throws Exception {
        IntegrationTest.runMain(args, test -> {
            switch (test) {
                case "jfr_private" -> jfrSession(FilesTest::privateWhileRecording);
                case "jfr_planted" -> jfrSession(FilesTest::plantedNamesAtDump);
                case "jfr_stop_typo" -> jfrSession(FilesTest::stopToMissingDirectory);
                case "devices" -> devices();
                case "jfrconv_stdout_link" -> jfrconvToStdoutLink(args[5]);
                default -> throw new IllegalArgumentException("unknown test " + test);
            }
        });
    }

    static void check(boolean condition, String message) {
        IntegrationTest.check(condition, message);
    }

    static Path work() {
        return IntegrationTest.work;
    }

    interface SessionBody {
        void run(com.sun.tools.attach.VirtualMachine vm, long pid, Path out) throws Exception;
    }

    /** A JVM burning CPU with a JFR recording to work()/rec.jfr started by attach; 'body' runs against it. */
    static void jfrSession(SessionBody body) throws Exception {
        try (var stale = Files.list(work())) {   // what a previous run kept or planted
            for (Path p : stale.toList()) if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) Files.delete(p);
        }
        Path out = work().resolve("target.out");
        Process target = new ProcessBuilder(IntegrationTest.javaHome + "/bin/java", "-cp", IntegrationTest.classes,
                "Burn7525", "60").directory(work().toFile()).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        try {
            Thread.sleep(700);
            var vm = com.sun.tools.attach.VirtualMachine.attach(String.valueOf(target.pid()));
            try {
                vm.loadAgentPath(IntegrationTest.agent, "start,jfr,event=cpu,interval=1ms,file=" + work().resolve("rec.jfr"));
                JfrTest.awaitSamples(vm, 200);
                body.run(vm, target.pid(), out);
            } finally {
                vm.detach();
            }
        } finally {
            target.destroyForcibly();
            target.waitFor(30, TimeUnit.SECONDS);
        }
    }

    static List<Path> temporaries(String prefix) throws Exception {
        try (var dir = Files.list(work())) {
            return dir.filter(p -> p.getFileName().toString().startsWith(prefix + ".tmp-")).toList();
        }
    }

    static String permissions(Path p) throws Exception {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
    }

    /** The recording in progress (its finished chunks and the chunk being written) is readable by its owner only. */
    static void privateWhileRecording(com.sun.tools.attach.VirtualMachine vm, long pid, Path out) throws Exception {
        List<Path> temps = new ArrayList<>(temporaries("rec.jfr"));
        check(temps.size() == 1 && temps.get(0).toString().endsWith(".jfr"),
                "expected the recording in progress beside rec.jfr, and nothing else (the chunk in progress is unlinked): " + temps);
        // The chunk in progress is open in the JVM, unlinked: its inode is checked through /proc/<pid>/fd.
        Path part = null;
        try (var fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            for (Path fd : fds.toList()) {
                String to;
                try { to = Files.readSymbolicLink(fd).toString(); } catch (IOException gone) { continue; }
                if (to.startsWith(work().resolve("rec.jfr.tmp-").toString()) && to.endsWith(".part (deleted)")) part = fd;
            }
        }
        check(part != null, "the JVM has no unlinked chunk-in-progress file open beside rec.jfr");
        String partMode = PosixFilePermissions.toString(Files.getPosixFilePermissions(part));   // the inode, not the link
        System.out.println("  in progress: " + Files.readSymbolicLink(part) + " " + partMode);
        check(partMode.equals("rw-------"), "the chunk in progress is " + partMode + ", not rw-------");
        for (Path t : temps) {
            System.out.println("  in progress: " + t.getFileName() + " " + permissions(t));
            check(permissions(t).equals("rw-------"), t.getFileName() + " is " + permissions(t) + ", not rw-------");
        }
        vm.loadAgentPath(IntegrationTest.agent, "stop");
        Path rec = work().resolve("rec.jfr");
        check(Files.exists(rec), "no recording at " + rec);
        check(!permissions(rec).equals("rw-------"), "the complete recording stayed private: " + permissions(rec));
        check(temporaries("rec.jfr").isEmpty(), "temporary files left: " + temporaries("rec.jfr"));
    }

    /**
     * A FIFO and a world-writable file planted under guessable temporary names (the target's name, the pid):
     * the dump neither blocks nor writes into them.
     */
    static void plantedNamesAtDump(com.sun.tools.attach.VirtualMachine vm, long pid, Path out) throws Exception {
        Path dump = work().resolve("dump.jfr");
        Path fifo = work().resolve("dump.jfr.tmp-" + pid + "-copy"), file = work().resolve("dump.jfr.tmp-" + pid);
        run(List.of("mkfifo", "-m", "666", fifo.toString()));
        Files.writeString(file, "planted\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
        Thread dumper = new Thread(() -> {
            try {
                vm.loadAgentPath(IntegrationTest.agent, "dump,file=" + dump);
            } catch (Exception e) {
                System.out.println("  dump failed: " + e);
            }
        });
        dumper.setDaemon(true);
        dumper.start();
        dumper.join(90_000);
        check(!dumper.isAlive(), "the dump hung on the planted FIFO " + fifo);
        JfrTest.validRecording(dump, -1, -1);
        check(Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) && Files.readString(file).equals("planted\n"),
                "the planted file was written: " + file);
        check(run(List.of("test", "-p", fifo.toString())) == 0, "the planted FIFO is gone: " + fifo);
    }

    /** stop,file= naming a missing directory: the recording stays in its temporary file, and the error says where. */
    static void stopToMissingDirectory(com.sun.tools.attach.VirtualMachine vm, long pid, Path out) throws Exception {
        Path typo = work().resolve("no/such/dir/rec.jfr");
        check(IntegrationTest.refused(vm, "stop,file=" + typo), "stop to " + typo + " succeeded");
        List<Path> temps = temporaries("rec.jfr");
        check(temps.size() == 1, "the recording was not kept beside rec.jfr: " + temps);
        String log = Files.readString(out);
        System.out.println("  target's output: " + log.strip());
        check(log.contains(typo.toString()) && log.contains(temps.get(0).toString()),
                "the error does not name the target and where the recording is kept: " + log);
        Path readable = work().resolve("kept.jfr");   // the jfr tool reads only files named .jfr
        Files.copy(temps.get(0), readable);
        check(JfrTest.validRecording(readable, -1, -1).size() > 100, "the kept recording misses the samples");
    }

    static int run(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        check(p.waitFor(60, TimeUnit.SECONDS), "did not finish: " + cmd);
        return p.exitValue();
    }

    static String type(Path p) throws Exception {
        Process stat = new ProcessBuilder("stat", "-c", "%F", p.toString()).redirectErrorStream(true).start();
        String t = new String(stat.getInputStream().readAllBytes()).strip();
        stat.waitFor();
        return t;
    }

    /** Copies of /dev/null and /dev/full, written as profiles and recordings, stay devices. */
    static void devices() throws Exception {
        Path dev = Files.createDirectories(work().resolve("dev")), tmp = Files.createDirectories(work().resolve("tmp"));
        Path nul = dev.resolve("null"), full = dev.resolve("full");
        for (Path p : List.of(nul, full)) Files.deleteIfExists(p);
        try (var stale = Files.list(tmp)) {   // a previous run's kept recording
            for (Path p : stale.toList()) Files.delete(p);
        }
        check(run(List.of("mknod", "-m", "666", nul.toString(), "c", "1", "3")) == 0, "mknod failed (root needed)");
        check(run(List.of("mknod", "-m", "666", full.toString(), "c", "1", "7")) == 0, "mknod failed (root needed)");
        Map<String, String> env = Map.of("TMPDIR", tmp.toString());
        for (String format : List.of("collapsed", "jfr")) {
            var ok = IntegrationTest.runJavaWithEnv(env, "start,event=cpu," + format + ",file=" + nul, "Burn7525", "1");
            check(ok.exit() == 0 && !ok.err().contains("ERROR"), format + " into " + nul + " failed: " + ok.err());
            var bad = IntegrationTest.runJavaWithEnv(env, "start,event=cpu," + format + ",file=" + full, "Burn7525", "1");
            check(bad.err().contains("No space left on device") && bad.err().contains(full.toString()),
                    format + " into " + full + ": no error naming it: " + bad.err());
            for (Path p : List.of(nul, full)) check(type(p).equals("character special file"), p + " is now a " + type(p));
            try (var left = Files.list(dev)) {
                check(left.count() == 2, "files created beside the devices: " + Files.list(dev).toList());
            }
            // A recording that could not be delivered is kept (in TMPDIR: nothing is created beside a device).
            List<Path> kept;
            try (var left = Files.list(tmp)) {
                kept = left.toList();
            }
            if (format.equals("jfr")) {
                check(kept.size() == 1 && bad.err().contains("kept in '" + kept.get(0) + "'"),
                        "the undelivered recording is not kept where the error says: " + kept + "\n" + bad.err());
                Files.delete(kept.get(0));
            } else {
                check(kept.isEmpty(), "temporary files left in TMPDIR: " + kept);
            }
        }
    }

    /** jfrconv writing to a link to /proc/self/fd/1 (what /dev/stdout is): the output goes to the pipe. */
    static void jfrconvToStdoutLink(String jfrconv) throws Exception {
        Path rec = work().resolve("small.jfr"), link = work().resolve("stdout-link");
        var made = IntegrationTest.runJava("start,event=cpu,interval=1ms,file=" + rec, "Burn7525", "1");
        check(made.exit() == 0 && Files.exists(rec), "no recording: " + made.err());
        Files.deleteIfExists(link);
        Files.createSymbolicLink(link, Path.of("/proc/self/fd/1"));
        Process p = new ProcessBuilder(jfrconv, "-o", "collapsed", rec.toString(), link.toString()).start();
        String stdout = new String(p.getInputStream().readAllBytes()), stderr = new String(p.getErrorStream().readAllBytes());
        check(p.waitFor(60, TimeUnit.SECONDS), "jfrconv did not finish");
        System.out.println("  jfrconv: exit " + p.exitValue() + ", " + stdout.length() + " bytes on stdout; " + stderr.strip());
        check(p.exitValue() == 0, "jfrconv failed: " + stderr);
        check(Files.isSymbolicLink(link), "jfrconv replaced the link " + link + " with a file");
        check(stdout.contains("Burn7525.spin"), "the collapsed stacks did not reach the pipe: " + stdout);
    }
}
