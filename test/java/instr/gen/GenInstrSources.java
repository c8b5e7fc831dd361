import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Writes the behaviour suite's generated sources (too long to keep by hand) into the directory given:
 *     java GenInstrSources.java OUT_DIR
 * Big: a loop whose body is over 32 KiB of bytecode, so javac must use goto_w and an inverted conditional
 *      branch around a goto_w (branches a 16-bit offset cannot reach), then a switch far from the start.
 * Wide: over 256 locals, so loads, stores and iinc need the wide prefix.
 * LimitOk: a method of exactly 65531 bytes of code: 65535 once the 4-byte prologue is in, the largest allowed.
 * LimitTooLong: 65532 bytes: one more would break the 65535-byte limit, so the rewriter must refuse the class.
 * The two limit sizes follow from javac's encoding of `x ^= 12345;` (iload_0 sipush ixor istore_0: 6 bytes),
 * `x++;` (iinc: 3), `x = x * 2;` (iload_0 iconst_2 imul istore_0: 4) and `return x;` (2); the behaviour test
 * checks the refusal names 65532 bytes, so a javac that encodes them differently fails the test loudly.
 */
public class GenInstrSources {
    public static void main(String[] args) throws IOException {
        Path out = Paths.get(args[0]);
        Files.createDirectories(out);

        StringBuilder big = new StringBuilder("public class Big {\n    public static long caseLoopBig(int x) {\n"
                + "        long s = 0;\n        for (int i = 0; i < x; i++) {\n");
        for (int k = 0; k < 4600; k++) big.append("            s += i ^ ").append(300 + k).append(";\n");
        big.append("        }\n        switch (x & 3) {\n            case 0: return s;\n            case 1: return -s;\n"
                + "            case 2: return s + 1;\n            default: return s * 2;\n        }\n    }\n}\n");
        Files.writeString(out.resolve("Big.java"), big);

        StringBuilder wide = new StringBuilder("public class Wide {\n    public static int caseWide(int x) {\n");
        for (int i = 0; i < 300; i++) wide.append("        int v").append(i).append(" = x + ").append(i).append(";\n");
        wide.append("        v299 += 1000;\n        v260++;\n        return v0 + v299 + v260 + v255;\n    }\n}\n");
        Files.writeString(out.resolve("Wide.java"), wide);

        Files.writeString(out.resolve("LimitOk.java"), limit("LimitOk", "x++;"));
        Files.writeString(out.resolve("LimitTooLong.java"), limit("LimitTooLong", "x = x * 2;"));
    }

    /** 10921 six-byte statements, the 3- or 4-byte filler, return: 65531 or 65532 bytes of code. */
    static String limit(String name, String filler) {
        StringBuilder sb = new StringBuilder("public class " + name + " {\n    public static int caseLimit(int x) {\n");
        for (int i = 0; i < 10921; i++) sb.append("        x ^= 12345;\n");
        sb.append("        ").append(filler).append("\n        return x;\n    }\n}\n");
        return sb.toString();
    }
}
