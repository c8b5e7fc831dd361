import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;

/**
 * Workload of the instrumentation tests: methods called a number of times the test knows.
 *   InstrumentTarget calls   run every counted call once and exit
 *   InstrumentTarget serve   read commands from stdin ("hot N", "pick N", "exit"), answer "done" to each;
 *                            for tests that attach and start/stop while the methods are already loaded
 */
public class InstrumentTarget {
    static volatile long sink;

    static void hot(int i) { sink += i; }
    static void pick(String s) { sink += s.length(); }
    static void pick(int i) { sink += i; }
    static void stepOne() { sink++; }
    static void stepTwo() { sink--; }

    static final class Widget {
        Widget(int x) { sink += x; }
    }

    static void worker(int n) {
        for (int i = 0; i < n; i++) hot(i);
    }

    static void makeLists(int n) {
        for (int i = 0; i < n; i++) sink += new ArrayList<Integer>(i % 4).size();
    }

    static void deep(int n) {
        if (n > 0) deep(n - 1);
        else deepLeaf();
    }

    static void deepLeaf() { sink++; }

    static void pickLoop(int n) {
        for (int i = 0; i < n; i++) pick(i);
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("serve")) {
            serve();
            return;
        }
        // Two threads share the 5000 calls of hot(): the counter is process-wide.
        Thread a = new Thread(() -> worker(2500), "worker-a"), b = new Thread(() -> worker(2500), "worker-b");
        a.start();
        b.start();
        a.join();
        b.join();
        for (int i = 0; i < 300; i++) pick("ab");
        pickLoop(200);
        for (int i = 0; i < 400; i++) new Widget(i);
        for (int i = 0; i < 100; i++) stepOne();
        for (int i = 0; i < 50; i++) stepTwo();
        makeLists(1000);
        deep(300);
        System.out.println("TRUTH hot=5000 pickString=300 pickInt=200 widget=400 stepOne=100 stepTwo=50 lists=1000");
    }

    static void serve() throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        System.out.println("ready");
        System.out.flush();
        for (String line; (line = in.readLine()) != null; ) {
            String[] cmd = line.trim().split(" ");
            if (cmd[0].equals("exit")) break;
            int n = Integer.parseInt(cmd[1]);
            if (cmd[0].equals("hot")) worker(n);
            else if (cmd[0].equals("pick")) pickLoop(n);
            System.out.println("done " + line);
            System.out.flush();
        }
    }
}
