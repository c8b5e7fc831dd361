package jdk.test.whitebox;

/**
 * The one method of HotSpot's WhiteBox testing API that test/java/DeoptUnpack uses. HotSpot registers its
 * natives for a class of this name loaded by the boot loader when the JVM runs with
 * -XX:+UnlockDiagnosticVMOptions -XX:+WhiteBoxAPI (-Xbootclasspath/a: the test classes).
 */
public class WhiteBox {
    private static native void registerNatives();

    static {
        registerNatives();
    }

    public static final WhiteBox WB = new WhiteBox();

    /** Deoptimises every compiled frame of the calling thread, leaving their nmethods entrant; returns how many. */
    public native int deoptimizeFrames(boolean makeNotEntrant);
}
