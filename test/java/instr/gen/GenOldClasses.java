import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Writes class files no current javac produces, for the behaviour suite: java GenOldClasses.java OUT_DIR
 *   OldJsr.class (version 49.0: no StackMapTable, checked by the old type-inferring verifier): a subroutine
 *       called by jsr and by jsr_w and left by ret, then a tableswitch at code offset 9 (2 padding bytes).
 *   Old45.class (version 45.2, the oldest): JDK 1.0 compilers wrote these with a u1/u1/u2 Code header, but
 *       HotSpot reads the usual u2/u2/u4 one for every version (it rejects the old header with "Invalid method
 *       Code length"), so that is what is written here and what the rewriter expects.
 * Both have one public static case method (int) -> int, run by InstrSuite like the compiled cases.
 */
public class GenOldClasses {
    public static void main(String[] args) throws IOException {
        Path out = Paths.get(args[0]);
        Files.createDirectories(out);
        byte[] jsr = {
            (byte) 0xa8, 0, 41,                         // 0: jsr 41
            (byte) 0xc9, 0, 0, 0, 38,                   // 3: jsr_w 41
            0x1a,                                       // 8: iload_0
            (byte) 0xaa, 0, 0,                          // 9: tableswitch, padding to 12
            0, 0, 0, 23, 0, 0, 0, 20, 0, 0, 0, 21,      // 12: default -> 32, low 20, high 21
            0, 0, 0, 25, 0, 0, 0, 28,                   // 24: 20 -> 34, 21 -> 37
            0x02, (byte) 0xac,                          // 32: iconst_m1; ireturn
            0x10, 100, (byte) 0xac,                     // 34: bipush 100; ireturn
            0x11, 0, (byte) 200, (byte) 0xac,           // 37: sipush 200; ireturn
            0x4c,                                       // 41: astore_1 (the return address)
            (byte) 0x84, 0, 10,                         // 42: iinc 0 10
            (byte) 0xa9, 1,                             // 45: ret 1
        };
        Files.write(out.resolve("OldJsr.class"), classFile("OldJsr", 49, 0, "caseJsr", jsr, 1, 2));
        byte[] times3 = {0x1a, 0x06, 0x68, (byte) 0xac};  // iload_0; iconst_3; imul; ireturn
        Files.write(out.resolve("Old45.class"), classFile("Old45", 45, 2, "caseOld", times3, 2, 1));
    }

    /** A public class extending Object with one public static method name(I)I of this code. */
    static byte[] classFile(String name, int major, int minor, String method, byte[] code, int maxStack,
                            int maxLocals) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(bytes);
        d.writeInt(0xCAFEBABE);
        d.writeShort(minor);
        d.writeShort(major);
        d.writeShort(8);                                    // pool entries 1..7
        d.writeByte(1); d.writeUTF(name);                   // 1
        d.writeByte(7); d.writeShort(1);                    // 2 this
        d.writeByte(1); d.writeUTF("java/lang/Object");     // 3
        d.writeByte(7); d.writeShort(3);                    // 4 super
        d.writeByte(1); d.writeUTF(method);                 // 5
        d.writeByte(1); d.writeUTF("(I)I");                 // 6
        d.writeByte(1); d.writeUTF("Code");                 // 7
        d.writeShort(0x0021);                               // public super
        d.writeShort(2);
        d.writeShort(4);
        d.writeShort(0);                                    // interfaces
        d.writeShort(0);                                    // fields
        d.writeShort(1);                                    // methods
        d.writeShort(0x0009);                               // public static
        d.writeShort(5);
        d.writeShort(6);
        d.writeShort(1);
        d.writeShort(7);
        d.writeInt(8 + code.length + 4);
        d.writeShort(maxStack);
        d.writeShort(maxLocals);
        d.writeInt(code.length);
        d.write(code);
        d.writeShort(0);                                    // exception table
        d.writeShort(0);                                    // Code attributes
        d.writeShort(0);                                    // class attributes
        return bytes.toByteArray();
    }
}
