/**
 * A JNI library that loads two libraries with RTLD_DEEPBIND beside their own allocator and uses it
 * (test/native/jni/deepbind_alloc.c), then allocates through the JVM's own path for a while.
 * Usage: java DeepBindAlloc /path/libdeepbind_alloc.so /path/libbump_user_a.so /path/libbump_user_b.so
 * Prints "deepbind ok" when the libraries' allocations all went to their allocator.
 */
public class DeepBindAlloc {
    static native int run(String a, String b, int waitMs);

    public static void main(String[] args) {
        System.load(args[0]);
        int rc = run(args[1], args[2], 800);
        if (rc != 0) throw new IllegalStateException("deepbind_alloc failed: " + rc);
        System.out.println("deepbind ok");
    }
}
