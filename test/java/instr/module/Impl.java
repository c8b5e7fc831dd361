package p.impl;

/** The service implementation named by module-info's provides clause. */
public class Impl implements p.api.Api {
    @Override
    public int value() {
        return java.util.logging.Level.INFO.intValue();
    }
}
