import java.util.function.LongSupplier;

/**
 * Deep stacks as in large frameworks: each request passes a chain of filters (interface calls on four
 * receiver classes, so the call site stays megamorphic and out of line, a lambda through a static helper, an
 * abstract template method, try/finally) before it reaches the code doing the work. Request depths cycle
 * through about 100, 200, ... 600 Java frames; most of the CPU time is spent at the leaf, at full depth, so
 * the profiler's per-sample cost there is what the overhead shows. Prints BenchClock lines.
 * Usage: java BenchDeep <iterations> [requests per iteration=600]
 */
public class BenchDeep {
    static volatile long sink;
    static long counter;

    interface Filter {
        long apply(Chain chain, long x);
    }

    static final class Chain {
        final Filter[] filters;
        final int length;
        int position;

        Chain(Filter[] filters, int length) {
            this.filters = filters;
            this.length = length;
        }

        long proceed(long x) {
            if (position == length) return Handler.handle(x);
            return filters[position++ % filters.length].apply(this, x);
        }
    }

    static final class Logging implements Filter {   // 2 frames per pass: apply, proceed
        public long apply(Chain chain, long x) { return chain.proceed(x + 1) ^ 1; }
    }

    static final class Security implements Filter {   // 2 frames, with an exception table
        public long apply(Chain chain, long x) {
            try {
                return chain.proceed(x * 3);
            } finally {
                counter++;
            }
        }
    }

    static final class Transaction implements Filter {   // 4 frames: apply, around, the lambda, proceed
        public long apply(Chain chain, long x) { return around(() -> chain.proceed(x + 7)); }

        static long around(LongSupplier body) { return body.getAsLong() + 1; }
    }

    abstract static class Template implements Filter {   // 3 frames: apply, invoke, proceed
        public long apply(Chain chain, long x) { return invoke(chain, x) - 1; }

        abstract long invoke(Chain chain, long x);
    }

    static final class Metrics extends Template {
        long invoke(Chain chain, long x) { return chain.proceed(x + 11); }
    }

    static final class Handler {
        static final long[] table = new long[4096];

        static long handle(long x) {   // about 20 us of arithmetic and array traffic
            long h = x;
            for (int i = 0; i < 20000; i++) {
                int k = (int) (h & 4095);
                table[k] += h;
                h = h * 6364136223846793005L + table[(k + 17) & 4095];
            }
            return h;
        }
    }

    public static void main(String[] args) {
        int iterations = Integer.parseInt(args[0]);
        int requests = args.length > 1 ? Integer.parseInt(args[1]) : 600;
        Filter[] filters = {new Logging(), new Security(), new Transaction(), new Metrics()};
        BenchClock clock = new BenchClock();
        for (int i = 0; i < iterations; i++) {
            for (int r = 0; r < requests; r++) {
                int frames = 100 * (1 + r % 6);   // 100 .. 600: a filter pass averages 2.75 frames
                sink += new Chain(filters, frames * 4 / 11).proceed(r);
            }
            clock.iteration();
        }
        BenchClock.total();
    }
}
