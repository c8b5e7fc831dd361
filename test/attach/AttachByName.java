/** The attach workload under a main class name no other test uses, for finding the JVM by name. */
public class AttachByName {
    public static void main(String[] args) throws Exception {
        AttachTarget.main(args);
    }
}
