package p.api;

/** A service interface (default method: code in an interface). */
public interface Api {
    int value();

    default int twice() {
        return 2 * value();
    }
}
