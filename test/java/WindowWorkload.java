/**
 * For the begin=/end= tests: alternates 50 ms of native work (CPU time) inside the window (libwindow_loop's
 * spin_inside_window, between calls of window_marker_begin and window_marker_end) with 50 ms outside it
 * (spin_outside_window): 750 ms of CPU on each side in all. Usage: java WindowWorkload <libwindow_loop.so> [rounds=15]
 */
public class WindowWorkload {
    static native void inside(int ms);
    static native void outside(int ms);

    public static void main(String[] args) {
        System.load(args[0]);
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        for (int i = 0; i < rounds; i++) {
            inside(50);
            outside(50);
        }
        System.out.println("done");
    }
}
