/** A module descriptor for the rewriter's unit tests: its class file has Module and Package constants. */
module libprof.rewriter.test {
    requires java.logging;
    exports p.api;
    opens p.impl;
    uses p.api.Api;
    provides p.api.Api with p.impl.Impl;
}
