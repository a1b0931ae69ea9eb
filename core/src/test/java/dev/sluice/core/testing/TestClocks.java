package dev.sluice.core.testing;

import org.agrona.concurrent.CachedNanoClock;

/**
 * The clocks tests set by hand: Agrona's {@link CachedNanoClock} ({@code update}, {@code advance}), the one settable
 * clock of the code base, started where a test wants it. Its reads and writes are ordered, so a continuation on
 * another thread reads the time the test set.
 */
public final class TestClocks {
    /** Where a test clock starts unless the test says otherwise: one second, so no instant of a test is zero. */
    public static final long START_NS = 1_000_000_000L;

    private TestClocks() {
    }

    /** A clock at {@link #START_NS}. */
    public static CachedNanoClock started() {
        return at(START_NS);
    }

    /** A clock at {@code nanos}. */
    public static CachedNanoClock at(long nanos) {
        CachedNanoClock clock = new CachedNanoClock();
        clock.update(nanos);
        return clock;
    }
}
