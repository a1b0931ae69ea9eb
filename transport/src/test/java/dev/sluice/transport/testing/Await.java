package dev.sluice.transport.testing;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits for a condition another thread makes true, checking every 5 ms, failing after a generous bound. */
public final class Await {
    private static final Duration BOUND = Duration.ofSeconds(60);

    private Await() {
    }

    /** Returns once {@code condition} holds; fails naming {@code what} after 60 s. */
    public static void until(String what, BooleanSupplier condition) {
        until(what, condition, () -> "");
    }

    /**
     * As {@link #until(String, BooleanSupplier)}, with {@code detail} (a process's output, say) appended to the
     * failure, read only then.
     */
    public static void until(String what, BooleanSupplier condition, Supplier<String> detail) {
        long giveUp = System.nanoTime() + BOUND.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - giveUp > 0) {
                String more = detail.get();
                throw new AssertionError("timed out after " + BOUND.toSeconds() + " s waiting for: " + what
                    + (more.isEmpty() ? "" : "\n" + more));
            }
            LockSupport.parkNanos(5_000_000L);
        }
    }
}
