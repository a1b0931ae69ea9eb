package dev.sluice.core.api;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.agrona.concurrent.EpochNanoClock;

/**
 * {@link SharedBudgets} in this process's memory: for several routers in one JVM (each a "replica") and for tests,
 * on a clock the caller gives (a manual one in tests). Claims complete at once, on the caller's thread. Thread-safe
 * (one lock; the critical section is the ledger step).
 */
public final class InMemoryBudgets implements SharedBudgets {
    private final EpochNanoClock clock;
    private final Map<String, Long> buckets = new HashMap<>();
    private long claims;

    /** @param clock the wall clock every claimant shares, in epoch nanoseconds. */
    public InMemoryBudgets(EpochNanoClock clock) {
        this.clock = clock;
    }

    @Override
    public synchronized CompletableFuture<BudgetGrant> claim(String key, long limitPerMinute, long minUnits,
                                                             long maxUnits) {
        BudgetLedger.Step step = BudgetLedger.claim(buckets.getOrDefault(key, Long.MIN_VALUE), clock.nanoTime(),
            limitPerMinute, minUnits, maxUnits);
        buckets.put(key, step.fullAt());
        claims++;
        return CompletableFuture.completedFuture(step.grant());
    }

    @Override
    public synchronized CompletableFuture<Void> refund(String key, long limitPerMinute, long units) {
        Long fullAt = buckets.get(key);
        if (fullAt != null) {
            buckets.put(key, BudgetLedger.refund(fullAt, clock.nanoTime(), limitPerMinute, units));
        }
        return CompletableFuture.completedFuture(null);
    }

    /** Claims answered so far, granted or denied. */
    public synchronized long claims() {
        return claims;
    }
}
